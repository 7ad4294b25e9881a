import type { MessagesRequest } from '../../shared/messages';
import { requestTokens } from '../../engine/blockTokens';
import type { BilledInput } from './cacheModel';
import { inputCost, PRICE, PromptCache } from './cacheModel';
import type { RecallCounts, TurnProbe } from './recall';
import { emptyRecall, scoreRecall } from './recall';
import type { SideCall } from './strategy';

/** Every figure the bench reports for one strategy on one session (or summed over several). */
export interface StrategyTotals {
  requests: number;
  inputTokens: number;
  plain: number;
  cacheWrite: number;
  cacheRead: number;
  /** Recorded answers + housekeeping + side-call outputs. */
  outputTokens: number;
  extraOutputTokens: number;
  sideCallInputTokens: number;
  cost: number;
  peakTokens: number;
  overWindow: number;
  overBudget: number;
  /** Turns on which the strategy sent fewer message tokens than the history it was given (it compacted). */
  compactedTurns: number;
  /** Largest prompt budget in force on any turn, tokens (Strata only; 0 for strategies without one). */
  budgetMax: number;
  /** Largest V8 heap in use on any turn of Strata's replay, bytes (0 for the other strategies). */
  peakHeapBytes: number;
  recall: RecallCounts;
  assembleMs: number[];
  /** Prompt tokens and running cost after each turn (for the plot). */
  perTurn: Array<{ tokens: number; cost: number }>;
}

export function emptyTotals(): StrategyTotals {
  return { requests: 0, inputTokens: 0, plain: 0, cacheWrite: 0, cacheRead: 0, outputTokens: 0, extraOutputTokens: 0, sideCallInputTokens: 0, cost: 0, peakTokens: 0, overWindow: 0, overBudget: 0, compactedTurns: 0, budgetMax: 0, peakHeapBytes: 0, recall: emptyRecall(), assembleMs: [], perTurn: [] };
}

/** Bills one strategy's requests on one session through its own prompt cache. */
export class Ledger {
  readonly totals = emptyTotals();
  private readonly cache = new PromptCache();

  constructor(
    private readonly count: (s: string) => number,
    private readonly window: number,
  ) {}

  /** One main request, what the model answered (`answerTokens`), and any extra calls. */
  record(turn: { request: MessagesRequest; extraOutputTokens: number; sideCalls: SideCall[]; assembleMs: number; budget?: number; compacted?: boolean }, answerTokens: number, probe: TurnProbe | undefined): BilledInput {
    const t = this.totals;
    const billed = this.cache.bill(turn.request, this.count);
    t.requests += 1;
    t.inputTokens += billed.total;
    t.plain += billed.plain;
    t.cacheWrite += billed.cacheWrite;
    t.cacheRead += billed.cacheRead;
    t.peakTokens = Math.max(t.peakTokens, billed.total);
    if (billed.total > this.window) t.overWindow += 1;
    if (turn.budget !== undefined && billed.total > turn.budget) t.overBudget += 1;
    if (turn.compacted) t.compactedTurns += 1;
    if (turn.budget !== undefined) t.budgetMax = Math.max(t.budgetMax, turn.budget);
    let cost = inputCost(billed) + (answerTokens + turn.extraOutputTokens) * PRICE.output;
    t.outputTokens += answerTokens + turn.extraOutputTokens;
    t.extraOutputTokens += turn.extraOutputTokens;
    for (const call of turn.sideCalls) {
      const input = requestTokens(call.request, this.count);
      t.sideCallInputTokens += input;
      t.plain += input;
      t.outputTokens += call.outputTokens;
      cost += input * PRICE.input + call.outputTokens * PRICE.output;
    }
    t.cost += cost;
    t.assembleMs.push(turn.assembleMs);
    t.perTurn.push({ tokens: billed.total, cost: t.cost });
    if (probe) scoreRecall(probe, turn.request, t.recall);
    return billed;
  }
}

/** Adds `from` into `into` (per-turn series are not merged). */
export function addTotals(into: StrategyTotals, from: StrategyTotals): void {
  into.requests += from.requests;
  into.inputTokens += from.inputTokens;
  into.plain += from.plain;
  into.cacheWrite += from.cacheWrite;
  into.cacheRead += from.cacheRead;
  into.outputTokens += from.outputTokens;
  into.extraOutputTokens += from.extraOutputTokens;
  into.sideCallInputTokens += from.sideCallInputTokens;
  into.cost += from.cost;
  into.peakTokens = Math.max(into.peakTokens, from.peakTokens);
  into.overWindow += from.overWindow;
  into.overBudget += from.overBudget;
  into.compactedTurns += from.compactedTurns;
  into.budgetMax = Math.max(into.budgetMax, from.budgetMax);
  into.peakHeapBytes = Math.max(into.peakHeapBytes, from.peakHeapBytes);
  for (const key of Object.keys(into.recall) as Array<keyof RecallCounts>) into.recall[key] += from.recall[key];
  into.assembleMs.push(...from.assembleMs);
}

/** The q-quantile (0..1) of `values`, nearest rank; 0 for none. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}
