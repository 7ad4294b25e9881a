import type { ContentBlock, Message, MessagesRequest, TextBlock } from '../../shared/messages';
import { toolResultText } from '../../shared/messages';
import { blockTokens, MESSAGE_OVERHEAD, withBreakpoint } from '../../engine/blockTokens';

/** A model call a strategy makes besides the main one (a condensing call), billed separately. */
export interface SideCall {
  request: MessagesRequest;
  outputTokens: number;
}

/** What a strategy sends for one turn. */
export interface StrategyTurn {
  request: MessagesRequest;
  /** Output tokens the strategy asks the model to write on top of the recorded answer. */
  extraOutputTokens: number;
  sideCalls: SideCall[];
}

/**
 * A context strategy under test. `turn` gets every message before the recorded answer (the
 * last one is the input) and nothing after it; strategies keep their own state between turns.
 */
export interface Strategy {
  readonly name: string;
  turn(history: readonly Message[]): Promise<StrategyTurn>;
}

/** Shared by the baselines: token counts memoised per block object. */
export class BlockCounter {
  private readonly memo = new WeakMap<object, number>();

  constructor(readonly count: (s: string) => number) {}

  block(b: ContentBlock): number {
    const hit = this.memo.get(b);
    if (hit !== undefined) return hit;
    const n = blockTokens(b, this.count);
    this.memo.set(b, n);
    return n;
  }

  message(m: Message): number {
    let n = MESSAGE_OVERHEAD;
    for (const b of m.content) n += this.block(b);
    return n;
  }

  messages(ms: readonly Message[]): number {
    let n = 0;
    for (const m of ms) n += this.message(m);
    return n;
  }
}

/** Cache marks as Claude Code sets them: one breakpoint on the last block of the request. */
export function markLastBlock(messages: Message[]): Message[] {
  const out = messages.slice();
  const last = out[out.length - 1];
  if (!last || last.content.length === 0) return out;
  out[out.length - 1] = { ...last, content: [...last.content.slice(0, -1), withBreakpoint(last.content[last.content.length - 1]!)] };
  return out;
}

/** Cache marks as Cline and Roo Code set them: the last block of the last two user messages. */
export function markLastTwoUserMessages(messages: Message[]): Message[] {
  const out = messages.slice();
  let marked = 0;
  for (let i = out.length - 1; i >= 0 && marked < 2; i--) {
    const m = out[i]!;
    if (m.role !== 'user' || m.content.length === 0) continue;
    out[i] = { ...m, content: [...m.content.slice(0, -1), withBreakpoint(m.content[m.content.length - 1]!)] };
    marked += 1;
  }
  return out;
}

export function systemBlocks(system: string, marked: boolean): TextBlock[] {
  return [marked ? withBreakpoint({ type: 'text', text: system }) : { type: 'text', text: system }];
}

/** Tool results and tool calls pair up by id; a tool result whose call was dropped becomes text. */
export function repairPairs(messages: Message[]): Message[] {
  return messages.map((m, i) => {
    if (m.role !== 'user') return m;
    const previous = messages[i - 1];
    const calls = new Set((previous?.role === 'assistant' ? previous.content : []).flatMap((b) => (b.type === 'tool_use' ? [b.id] : [])));
    if (!m.content.some((b) => b.type === 'tool_result' && !calls.has(b.tool_use_id))) return m;
    return {
      ...m,
      content: m.content.map((b): ContentBlock => (b.type === 'tool_result' && !calls.has(b.tool_use_id) ? { type: 'text', text: `[tool result]\n${toolResultText(b)}` } : b)),
    };
  });
}

/** Messages must alternate; after dropping some, neighbours of one role are merged. */
export function mergeSameRole(messages: Message[]): Message[] {
  const out: Message[] = [];
  for (const m of messages) {
    const last = out[out.length - 1];
    if (last && last.role === m.role) out[out.length - 1] = { role: m.role, content: [...last.content, ...m.content] };
    else out.push(m);
  }
  return out;
}
