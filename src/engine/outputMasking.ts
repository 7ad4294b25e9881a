import { blockTokens } from './blockTokens';
import type { EngineState } from './engineState';
import { fileShownBy } from './fileViews';
import { isMaskable, maskOutputs } from './liveExchange';

/**
 * Step-wise observation masking: command output (tests, greps, listings; not file views) in
 * working memory older than the last `keepRecent` exchanges becomes a pointer, all at once,
 * only when there is at least `minTokens` of it. One rewrite then pays for many turns, unlike
 * masking a little every turn (which the bench shows costs more than not masking at all).
 */
export function maskableOutputTokens(state: EngineState, keepRecent: number): number {
  const count = (s: string) => state.tokenizer.count(s);
  let total = 0;
  for (const ex of state.tail.slice(0, Math.max(0, state.tail.length - keepRecent))) {
    for (const block of ex.input) {
      if (block.type !== 'tool_result' || !isMaskable(ex, block)) continue;
      if (fileShownBy(ex.calls.get(block.tool_use_id))) continue;
      total += blockTokens(block, count);
    }
  }
  return total;
}

/** Masks every maskable output; returns how many were masked. */
export function maskCommandOutputs(state: EngineState, keepRecent: number): number {
  const count = (s: string) => state.tokenizer.count(s);
  let masked = 0;
  for (const ex of state.tail.slice(0, Math.max(0, state.tail.length - keepRecent))) {
    masked += maskOutputs(
      ex,
      // a pointer keeps its reason (pressure or supersession masked it first): no rewrite, no recount
      (id, isPointer) => (isPointer || fileShownBy(ex.calls.get(id)) ? undefined : 'output masked'),
      count,
    );
  }
  return masked;
}
