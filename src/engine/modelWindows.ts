/** Context windows (tokens) of known models; prefixes match dated variants. */
const MODEL_WINDOWS: ReadonlyArray<readonly [prefix: string, window: number]> = [
  ['claude-opus-4', 200_000],
  ['claude-sonnet-4', 200_000],
  ['claude-haiku-4', 200_000],
  ['claude-3-7-sonnet', 200_000],
  ['claude-3-5-sonnet', 200_000],
  ['claude-3-5-haiku', 200_000],
  ['claude-3-opus', 200_000],
  ['claude-3-haiku', 200_000],
  ['gpt-4o', 128_000],
  ['gpt-4.1', 1_000_000],
  ['deepseek', 64_000],
];

/** Used for a model not in the table: small enough to be safe on any current model. */
export const DEFAULT_CONTEXT_WINDOW = 64_000;

/** The window of `model`, or the safe default when the model is unknown. */
export function contextWindowFor(model: string | undefined): number {
  if (!model) return DEFAULT_CONTEXT_WINDOW;
  const name = model.toLowerCase();
  let best: readonly [string, number] | undefined;
  for (const entry of MODEL_WINDOWS) {
    if (name.startsWith(entry[0]) && (!best || entry[0].length > best[0].length)) best = entry;
  }
  return best ? best[1] : DEFAULT_CONTEXT_WINDOW;
}
