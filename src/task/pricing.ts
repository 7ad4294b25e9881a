/**
 * What a turn costs, from the usage the API reported and a price table per model.
 * Prices are USD per million tokens, from Anthropic's model and pricing pages (platform.claude.com,
 * checked Nov 2026). Cache writes are the 5-minute kind (the engine's marks are plain `ephemeral`).
 * Most models price cache writes at 1.25x and cache reads at 0.1x input; the table states each
 * figure because several current models do not (Sonnet 5.5 and Opus 5.5 read at 0.05x, Fable 5.1 at 0.025x).
 */
import { longestPrefixMatch } from '../engine/modelWindows';
import type { ModelUsage } from './modelClient';
import { promptTokens } from './modelClient';

export { DEFAULT_MODEL } from '../shared/defaultModel';

/** USD per million tokens. */
export interface Rates {
  input: number;
  cacheWrite: number;
  cacheRead: number;
  output: number;
}

export interface ModelPrice extends Rates {
  /**
   * Some models bill a whole request at other rates once its prompt (input + cache write + cache
   * read) passes a threshold, in tokens.
   */
  longPrompt?: { aboveTokens: number; rates: Rates };
}

/** Rates where cache write is 1.25x and cache read 0.1x input, the usual rule. */
function standard(input: number, output: number): Rates {
  return { input, cacheWrite: input * 1.25, cacheRead: input * 0.1, output };
}

/** Prefix (as in `modelWindows.ts`) to price; the longest matching prefix wins. */
const PRICES: ReadonlyArray<readonly [prefix: string, price: ModelPrice]> = [
  ['claude-fable-5-1', { input: 10, cacheWrite: 12.5, cacheRead: 0.25, output: 50 }],
  ['claude-mythos-5-1', { input: 10, cacheWrite: 12.5, cacheRead: 0.25, output: 50 }],
  ['claude-fable-5', standard(10, 50)],
  ['claude-mythos-5', standard(10, 50)],
  ['claude-opus-5-5', { input: 4, cacheWrite: 5, cacheRead: 0.2, output: 20 }],
  ['claude-opus-5', standard(5, 25)],
  // Sonnet 5.5 cache reads were cut from $0.20 to $0.10 on 2026-10-07.
  ['claude-sonnet-5-5', { input: 2, cacheWrite: 2.5, cacheRead: 0.1, output: 10 }],
  ['claude-sonnet-5', standard(2, 10)],
  ['claude-haiku-5-5', { input: 0.1, cacheWrite: 0.125, cacheRead: 0.01, output: 0.5, longPrompt: { aboveTokens: 100_000, rates: { input: 0.5, cacheWrite: 0.625, cacheRead: 0.05, output: 2.5 } } }],
  ['claude-opus-4-8', standard(5, 25)],
  ['claude-opus-4-7', standard(5, 25)],
  ['claude-opus-4-6', standard(5, 25)],
  ['claude-opus-4-5', standard(5, 25)],
  ['claude-opus-4', standard(15, 75)],
  ['claude-sonnet-4-6', standard(3, 15)],
  // Sonnet 4 and 4.5 bill prompts over 200K (their 1M beta) at long-context rates.
  ['claude-sonnet-4', { ...standard(3, 15), longPrompt: { aboveTokens: 200_000, rates: standard(6, 22.5) } }],
  ['claude-haiku-4', standard(1, 5)],
  ['claude-3-7-sonnet', standard(3, 15)],
  ['claude-3-5-sonnet', standard(3, 15)],
  ['claude-3-5-haiku', standard(0.8, 4)],
  ['claude-3-opus', standard(15, 75)],
  ['claude-3-haiku', { input: 0.25, cacheWrite: 0.3, cacheRead: 0.03, output: 1.25 }],
];

/** The price of `model`, or undefined for a model the table does not know (a gateway's own, say). */
export function priceFor(model: string): ModelPrice | undefined {
  return longestPrefixMatch(PRICES, model)?.[1];
}

/** USD of one turn, by kind of token. `priced` is false when the model has no price on file (all figures 0). */
export interface TurnCost {
  inputUsd: number;
  cacheWriteUsd: number;
  cacheReadUsd: number;
  outputUsd: number;
  totalUsd: number;
  priced: boolean;
}

export function turnCost(usage: ModelUsage, model: string): TurnCost {
  const price = priceFor(model);
  if (!price) return { inputUsd: 0, cacheWriteUsd: 0, cacheReadUsd: 0, outputUsd: 0, totalUsd: 0, priced: false };
  const prompt = promptTokens(usage);
  const rates = price.longPrompt && prompt > price.longPrompt.aboveTokens ? price.longPrompt.rates : price;
  const perToken = (tokens: number, usdPerMillion: number): number => (tokens * usdPerMillion) / 1_000_000;
  const inputUsd = perToken(usage.inputTokens, rates.input);
  const cacheWriteUsd = perToken(usage.cacheWriteTokens, rates.cacheWrite);
  const cacheReadUsd = perToken(usage.cacheReadTokens, rates.cacheRead);
  const outputUsd = perToken(usage.outputTokens, rates.output);
  return { inputUsd, cacheWriteUsd, cacheReadUsd, outputUsd, totalUsd: inputUsd + cacheWriteUsd + cacheReadUsd + outputUsd, priced: true };
}

/**
 * USD of a condensing call (its engine event carries the call's tokens; its `cost` is in the
 * engine's cost units, not dollars), priced at `model`'s rates; 0 for a model with no price on file.
 */
export function condenseUsd(call: { inputTokens: number; outputTokens: number }, model: string): number {
  return turnCost({ inputTokens: call.inputTokens, cacheWriteTokens: 0, cacheReadTokens: 0, outputTokens: call.outputTokens }, model).totalUsd;
}

/** Running totals of a session: tokens by kind, USD, and how many turns had no price. */
export class SessionCost {
  private readonly usage: ModelUsage = { inputTokens: 0, cacheWriteTokens: 0, cacheReadTokens: 0, outputTokens: 0 };
  private usd = 0;
  private turnCount = 0;
  private unpriced = 0;

  /** Adds one turn (any model: a condensing model may differ from the chat's) and returns its cost. */
  add(usage: ModelUsage, model: string): TurnCost {
    const cost = turnCost(usage, model);
    this.usage.inputTokens += usage.inputTokens;
    this.usage.cacheWriteTokens += usage.cacheWriteTokens;
    this.usage.cacheReadTokens += usage.cacheReadTokens;
    this.usage.outputTokens += usage.outputTokens;
    this.usd += cost.totalUsd;
    this.turnCount += 1;
    if (!cost.priced) this.unpriced += 1;
    return cost;
  }

  get totals(): { usage: ModelUsage; totalUsd: number; turns: number; unpricedTurns: number } {
    return { usage: { ...this.usage }, totalUsd: this.usd, turns: this.turnCount, unpricedTurns: this.unpriced };
  }
}
