import type { ContentBlock, Message } from '../../shared/messages';
import type { BlockCounter, Strategy, StrategyTurn } from './strategy';
import { markLastBlock, markLastTwoUserMessages, mergeSameRole, repairPairs, systemBlocks } from './strategy';

/** What every baseline knows: the agent's system text, the window and the output reserve. */
export interface BaselineContext {
  system: string;
  counter: BlockCounter;
  window: number;
  reservedOutput: number;
}

/** `full`: the whole history every turn, one breakpoint at its end (Claude Code before it compacts). */
export class FullHistory implements Strategy {
  readonly name = 'full';
  constructor(private readonly ctx: BaselineContext) {}

  async turn(history: readonly Message[]): Promise<StrategyTurn> {
    return { request: { system: systemBlocks(this.ctx.system, false), messages: markLastBlock([...history]), tools: [] }, extraOutputTokens: 0, sideCalls: [] };
  }
}

/**
 * `window`: Roo/Kilo Code's sliding window. Keeps the first message; once the prompt passes
 * window - reserve - 10% buffer, drops half of the rest, an even number of the oldest messages.
 */
export class SlidingWindow implements Strategy {
  readonly name = 'window';
  private dropped = 0;
  constructor(private readonly ctx: BaselineContext) {}

  async turn(history: readonly Message[]): Promise<StrategyTurn> {
    const allowed = this.ctx.window * 0.9 - this.ctx.reservedOutput;
    let view = this.view(history);
    while (this.ctx.counter.messages(view) > allowed && view.length > 3) {
      const rest = view.length - 1;
      this.dropped += Math.max(2, Math.floor(rest / 2 / 2) * 2);
      view = this.view(history);
    }
    const messages = markLastTwoUserMessages(repairPairs(view));
    return { request: { system: systemBlocks(this.ctx.system, true), messages, tools: [] }, extraOutputTokens: 0, sideCalls: [] };
  }

  private view(history: readonly Message[]): Message[] {
    return [history[0]!, ...history.slice(1 + Math.min(this.dropped, history.length - 2))];
  }
}

/** `masking`: observation masking (JetBrains, 2025): the last M tool results in full, older ones a placeholder. */
export class ObservationMasking implements Strategy {
  readonly name = 'masking';
  private readonly placeholders = new WeakMap<ContentBlock, ContentBlock>();
  constructor(
    private readonly ctx: BaselineContext,
    private readonly keep = 10,
  ) {}

  async turn(history: readonly Message[]): Promise<StrategyTurn> {
    const messages = maskToolResults(history, this.keep, '[Old tool output omitted.]', this.placeholders);
    return { request: { system: systemBlocks(this.ctx.system, true), messages: markLastTwoUserMessages(messages), tools: [] }, extraOutputTokens: 0, sideCalls: [] };
  }
}

/**
 * `clear-tool-uses`: Anthropic's server-side context editing (clear_tool_uses_20250919) with its
 * documented defaults: once input passes 100,000 tokens, clear the oldest tool results, keeping
 * the 3 most recent tool uses; no clear_at_least minimum. The client sends the full history with
 * one breakpoint at its end; the server edits before the cache is looked up.
 */
export class ClearToolUses implements Strategy {
  readonly name = 'clear-tool-uses';
  private readonly placeholders = new WeakMap<ContentBlock, ContentBlock>();
  constructor(
    private readonly ctx: BaselineContext,
    private readonly trigger = 100_000,
    private readonly keep = 3,
  ) {}

  async turn(history: readonly Message[]): Promise<StrategyTurn> {
    const full = [...history];
    const messages = this.ctx.counter.messages(full) > this.trigger ? maskToolResults(full, this.keep, '[Tool result cleared by context editing.]', this.placeholders) : full;
    return { request: { system: systemBlocks(this.ctx.system, false), messages: markLastBlock(messages), tools: [] }, extraOutputTokens: 0, sideCalls: [] };
  }
}

/** Replaces every tool result but the last `keep` by `placeholder` (same placeholder object each turn). */
function maskToolResults(history: readonly Message[], keep: number, placeholder: string, memo: WeakMap<ContentBlock, ContentBlock>): Message[] {
  let seen = 0;
  const out: Message[] = new Array(history.length);
  for (let i = history.length - 1; i >= 0; i--) {
    const m = history[i]!;
    if (m.role !== 'user' || !m.content.some((b) => b.type === 'tool_result')) {
      out[i] = m;
      continue;
    }
    const content = [...m.content];
    for (let j = content.length - 1; j >= 0; j--) {
      const b = content[j]!;
      if (b.type !== 'tool_result') continue;
      seen += 1;
      if (seen <= keep) continue;
      let masked = memo.get(b);
      if (!masked) {
        masked = { type: 'tool_result', tool_use_id: b.tool_use_id, content: placeholder };
        memo.set(b, masked);
      }
      content[j] = masked;
    }
    out[i] = { role: m.role, content };
  }
  return mergeSameRole(out);
}
