import { z } from 'zod';

/** Names of `strata.contextPreset`: how far the prompt budget follows a long session (src/engine/contextPreset.ts). */
export const CONTEXT_PRESET_NAMES = ['economy', 'balanced', 'full-recall'] as const;
export type ContextPreset = (typeof CONTEXT_PRESET_NAMES)[number];

/**
 * Every engine knob, its unit and range. The extension parses `strata.*` settings into this;
 * the CLI builds it from flags. Token figures are model tokens.
 */
export const engineSettingsSchema = z.object({
  /** Model context window, tokens. */
  contextWindow: z.number().int().min(1_000).max(10_000_000).default(200_000),
  /** Tokens kept free for the model's answer. */
  reservedOutputTokens: z.number().int().min(0).max(200_000).default(8_192),
  /**
   * Prompt budget as a share of (window - reserve), percent: the high watermark at which a
   * re-layering step hands history down. It follows the window, so a larger model keeps more verbatim.
   */
  promptBudgetPercent: z.number().int().min(1).max(100).default(80),
  /**
   * Ceiling of a short session's prompt, tokens (`--budget`); the budget is the smaller of this and
   * the share. A long session's budget grows past it as `contextPreset` says (src/engine/contextPreset.ts).
   */
  promptBudgetTokens: z.number().int().min(2_000).max(10_000_000).default(40_000),
  /** How far the budget follows a long session: economy (never grows), balanced, full-recall (keeps what a window would). */
  contextPreset: z.enum(CONTEXT_PRESET_NAMES).default('balanced'),
  /** A re-layering step hands the oldest exchanges down until the prompt is under this share of the budget, percent. */
  lowWatermarkPercent: z.number().int().min(10).max(95).default(30),
  /** L0 narrative cap, tokens. */
  narrativeMaxTokens: z.number().int().min(50).max(2_000).default(300),
  /** L1: exchanges always kept in full after a re-layering step, whatever the watermark says. */
  workingMemoryMin: z.number().int().min(1).max(100).default(2),
  /** L1: a step is also taken when working memory holds more than this many exchanges. */
  workingMemoryMax: z.number().int().min(1).max(2_000).default(1_000),
  /** L2: cap of one header line, tokens. */
  headerMaxTokens: z.number().int().min(6).max(60).default(12),
  /** L2: most header lines sent; older ones fold into ranges. */
  maxHeaders: z.number().int().min(10).max(2_000).default(200),
  /** L3: cap of one summary, tokens. */
  summaryMaxTokens: z.number().int().min(20).max(1_000).default(120),
  /** L3: how many exchanges just below working memory are sent as summaries. */
  summaryCount: z.number().int().min(0).max(50).default(5),
  /** L4: reference index cap, tokens. */
  indexMaxTokens: z.number().int().min(0).max(5_000).default(600),
  /** Files recently read whose exchange left working memory stay visible up to this share of the prompt budget, percent. */
  fileViewPercent: z.number().int().min(0).max(60).default(35),
  /** ...if read or changed within this many exchanges. */
  fileViewHorizon: z.number().int().min(1).max(10_000).default(80),
  /** Mask older command output (not file views) in one step once this many tokens of it pile up; 0 = never. */
  outputMaskTokens: z.number().int().min(0).max(1_000_000).default(0),
  /** ...keeping the outputs of this many latest exchanges. */
  outputMaskKeepRecent: z.number().int().min(1).max(1_000).default(5),
  /** Tool output: most lines of a file read kept in working memory (head + tail). */
  codeMaxLines: z.number().int().min(10).max(100_000).default(500),
  /** Tool output: most lines of command output kept in working memory (head + tail). */
  outputMaxLines: z.number().int().min(10).max(100_000).default(200),
  /** Condense automatically when a prompt passes this share of (window - reserve), percent. */
  autoCondensePercent: z.number().int().min(5).max(100).default(80),
  /** Condense Now makes its model call only when it would save at least this many prompt tokens (estimated first); 0 = always. */
  condenseMinSavingTokens: z.number().int().min(0).max(1_000_000).default(500),
  /** Replaces the built-in condensing instructions when set. */
  condensePrompt: z.string().max(20_000).optional(),
  /** Tokens of archive content a single turn may retrieve by context request. */
  retrievalQuotaTokens: z.number().int().min(0).max(200_000).default(8_000),
});

export type EngineSettings = z.infer<typeof engineSettingsSchema>;

/** The same schema, but an unknown setting name is an error (the CLI's `--set`), not silently dropped. */
export const strictEngineSettingsSchema = engineSettingsSchema.strict();

/** Settings with every default applied; throws a readable error for out-of-range values. */
export function resolveEngineSettings(input: unknown = {}): EngineSettings {
  const parsed = engineSettingsSchema.safeParse(input);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || 'settings'}: ${i.message}`);
    throw new Error(`Invalid Strata settings: ${issues.join('; ')}. Fix them in settings (strata.*) or the command line.`);
  }
  const s = parsed.data;
  if (s.workingMemoryMax < s.workingMemoryMin) {
    throw new Error(
      `Invalid Strata settings: workingMemoryMax (${s.workingMemoryMax}) is below workingMemoryMin (${s.workingMemoryMin}). Raise the maximum or lower the minimum.`,
    );
  }
  return s;
}
