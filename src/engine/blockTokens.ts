import type { ContentBlock, Message, MessagesRequest, ToolDefinition } from '../shared/messages';
import { isEnvironmentBlock } from '../shared/exchangeText';
import { toolResultText } from '../shared/messages';
import type { Tokenizer } from './ports';

/** Tokens the API adds around each block and message (role markers, block framing). */
export const BLOCK_OVERHEAD = 3;
export const MESSAGE_OVERHEAD = 4;

/** Plain text of a block as the model reads it. */
export function blockText(block: ContentBlock): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'tool_use':
      return `${block.name} ${JSON.stringify(block.input ?? null)}`;
    case 'tool_result':
      return toolResultText(block);
    case 'thinking':
      return block.thinking;
    // Encrypted: counted at its length (an overestimate keeps the budget safe), never searched.
    case 'redacted_thinking':
      return block.data;
  }
}

/** The text an archive indexes for search: every block but encrypted thinking and the turn environment, one per line. */
export function searchableText(messages: readonly Message[]): string {
  return messages.flatMap((m) => m.content.filter((b) => b.type !== 'redacted_thinking' && !(b.type === 'text' && isEnvironmentBlock(b.text))).map(blockText)).join('\n');
}

/** Model tokens of one block, framing included. */
export function blockTokens(block: ContentBlock, count: (s: string) => number): number {
  return count(blockText(block)) + BLOCK_OVERHEAD;
}

export function messageTokens(message: Message, count: (s: string) => number): number {
  return contentTokens(message.content, count);
}

/** Model tokens of these blocks sent as one message, framing included. */
export function contentTokens(blocks: readonly ContentBlock[], count: (s: string) => number): number {
  let total = MESSAGE_OVERHEAD;
  for (const block of blocks) total += blockTokens(block, count);
  return total;
}

/**
 * Tokens of the system prompt the API adds on its own whenever `tools` is non-empty. Anthropic's
 * "Tool use pricing and tokens" page (docs.anthropic.com/en/docs/tool-use-pricing-and-tokens)
 * lists it per model and tool_choice, from 159 (Claude 3 Sonnet, auto) to 530 tokens (Claude 3
 * Opus, auto). The engine knows neither the model nor tool_choice, so it counts the largest.
 */
export const TOOL_USE_SYSTEM_TOKENS = 530;

/** Tool definitions as sent (JSON, cache marks aside) plus the API's tool-use system prompt; 0 without tools. */
export function toolsTokens(tools: ToolDefinition[], count: (s: string) => number): number {
  return tools.length === 0 ? 0 : TOOL_USE_SYSTEM_TOKENS + count(JSON.stringify(tools.map(({ cache_control: _c, ...t }) => t)));
}

/**
 * Share of the prompt budget kept free while the tokenizer has not learned its correction
 * factor: counts are then o200k estimates (Claude's tokenizer is not public) with guessed block
 * overheads, and the first request is the one most likely to be under-counted. 5% is a cushion,
 * not a measured bound; the learned factor takes over after the first reported usage.
 */
export const UNLEARNED_MARGIN = 0.05;

/** The budget `assemble` holds a request to: `budget` tokens, less UNLEARNED_MARGIN until the tokenizer has learned. */
export function safeBudget(budget: number, tokenizer: Tokenizer): number {
  return tokenizer.learned() ? budget : Math.floor(budget * (1 - UNLEARNED_MARGIN));
}

/** Tokens of a whole request body, the figure held against the budget. */
export function requestTokens(request: MessagesRequest, count: (s: string) => number): number {
  let total = toolsTokens(request.tools, count);
  for (const block of request.system) total += blockTokens(block, count);
  for (const message of request.messages) total += messageTokens(message, count);
  return total;
}

/** A copy of `block` carrying a cache breakpoint; the stored block is never mutated. */
export function withBreakpoint<T extends ContentBlock>(block: T): T {
  return { ...block, cache_control: { type: 'ephemeral' } };
}
