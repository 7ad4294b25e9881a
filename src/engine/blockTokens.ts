import type { ContentBlock, Message, MessagesRequest, ToolDefinition } from '../shared/messages';
import { toolResultText } from '../shared/messages';

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

/** Model tokens of one block, framing included. */
export function blockTokens(block: ContentBlock, count: (s: string) => number): number {
  return count(blockText(block)) + BLOCK_OVERHEAD;
}

export function messageTokens(message: Message, count: (s: string) => number): number {
  let total = MESSAGE_OVERHEAD;
  for (const block of message.content) total += blockTokens(block, count);
  return total;
}

export function toolsTokens(tools: ToolDefinition[], count: (s: string) => number): number {
  return tools.length === 0 ? 0 : count(JSON.stringify(tools.map(({ cache_control: _c, ...t }) => t)));
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
