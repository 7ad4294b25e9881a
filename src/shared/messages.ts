/**
 * Anthropic Messages API shapes as Strata stores and sends them. Only the block kinds real
 * agent sessions contain are modelled; anything else is carried as `unknown` text.
 */
export interface TextBlock {
  type: 'text';
  text: string;
  cache_control?: CacheControl;
}

export interface ToolUseBlock {
  type: 'tool_use';
  id: string;
  name: string;
  input: unknown;
  cache_control?: CacheControl;
}

export interface ToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  /** A plain string, or text blocks (images arrive as text placeholders). */
  content: string | TextBlock[];
  is_error?: boolean;
  cache_control?: CacheControl;
}

/**
 * The model's reasoning, as the API returned it. It must go back unchanged (signature included)
 * in the assistant turn of a tool-use loop; the API ignores it in earlier turns.
 */
export interface ThinkingBlock {
  type: 'thinking';
  thinking: string;
  signature: string;
  /** Never set: the API refuses cache marks on thinking blocks (declared so every block shares the field). */
  cache_control?: CacheControl;
}

/** Reasoning the API returned encrypted; sent back as is, like a thinking block. */
export interface RedactedThinkingBlock {
  type: 'redacted_thinking';
  data: string;
  /** Never set, as for thinking blocks. */
  cache_control?: CacheControl;
}

export type ContentBlock = TextBlock | ToolUseBlock | ToolResultBlock | ThinkingBlock | RedactedThinkingBlock;

export interface CacheControl {
  type: 'ephemeral';
}

export type Role = 'user' | 'assistant';

export interface Message {
  role: Role;
  content: ContentBlock[];
}

export interface ToolDefinition {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
  cache_control?: CacheControl;
}

/** Exactly the body Strata passes to `client.messages.create`, minus model, max_tokens, stream. */
export interface MessagesRequest {
  system: TextBlock[];
  messages: Message[];
  tools: ToolDefinition[];
}

/** Text of a tool result, whatever its stored form. */
export function toolResultText(block: ToolResultBlock): string {
  return typeof block.content === 'string' ? block.content : block.content.map((b) => b.text).join('\n');
}
