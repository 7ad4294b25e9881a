/**
 * Context windows and output limits (tokens) of known models, the offline fallback when the
 * Models API cannot be asked. Prefixes match dated variants; the longest matching prefix wins.
 * Figures for Claude 4.6 and later are from the model pages at platform.claude.com (Nov 2026);
 * a model whose 1M window is a beta keeps its standard 200K here.
 */
const MODEL_LIMITS: ReadonlyArray<readonly [prefix: string, window: number, maxOutput: number]> = [
  ['claude-fable-5', 1_000_000, 128_000],
  ['claude-mythos-5', 1_000_000, 128_000],
  ['claude-opus-5', 1_000_000, 128_000],
  ['claude-sonnet-5', 1_000_000, 128_000],
  ['claude-haiku-5', 1_000_000, 128_000],
  ['claude-opus-4-6', 1_000_000, 128_000],
  ['claude-sonnet-4-6', 1_000_000, 64_000],
  ['claude-opus-4-5', 200_000, 64_000],
  ['claude-opus-4', 200_000, 32_000],
  ['claude-sonnet-4', 200_000, 64_000],
  ['claude-haiku-4', 200_000, 64_000],
  ['claude-3-7-sonnet', 200_000, 64_000],
  ['claude-3-5-sonnet', 200_000, 8_192],
  ['claude-3-5-haiku', 200_000, 8_192],
  ['claude-3-opus', 200_000, 4_096],
  ['claude-3-haiku', 200_000, 4_096],
  ['gpt-4o', 128_000, 16_384],
  ['gpt-4.1', 1_000_000, 32_768],
  ['deepseek', 64_000, 8_192],
];

/** Used for a model not in the table: small enough to be safe on any current model. */
export const DEFAULT_CONTEXT_WINDOW = 64_000;

/** Output limit assumed for a model not in the table, tokens. */
export const DEFAULT_MAX_OUTPUT = 8_192;

/**
 * The entry of `table` whose key is the longest prefix of `model` (case-insensitive), if any;
 * of two equal keys the earlier entry wins. Keys are lower case.
 */
export function longestPrefixMatch<T extends readonly [string, ...unknown[]]>(table: ReadonlyArray<T>, model: string): T | undefined {
  const name = model.toLowerCase();
  let best: T | undefined;
  for (const entry of table) {
    if (name.startsWith(entry[0]) && (!best || entry[0].length > best[0].length)) best = entry;
  }
  return best;
}

/** The window of `model`, or the safe default when the model is unknown. */
export function contextWindowFor(model: string | undefined): number {
  return (model && longestPrefixMatch(MODEL_LIMITS, model)?.[1]) || DEFAULT_CONTEXT_WINDOW;
}

/** The largest `max_tokens` `model` accepts, or a safe default when the model is unknown. */
export function maxOutputFor(model: string | undefined): number {
  return (model && longestPrefixMatch(MODEL_LIMITS, model)?.[2]) || DEFAULT_MAX_OUTPUT;
}

/** True when the table knows `model` (so its figures are not the defaults). */
export function isKnownModel(model: string): boolean {
  return longestPrefixMatch(MODEL_LIMITS, model) !== undefined;
}
