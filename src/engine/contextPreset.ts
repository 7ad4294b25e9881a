import type { ContextPreset, EngineSettings } from '../shared/engineSettings';

/**
 * How the prompt budget follows a long session, per `strata.contextPreset` (issue 19). The one
 * place a preset becomes engine parameters; engineState.ts applies them.
 * - `growsPast`: the session counts as long once its tokens pass this many times the base budget.
 * - `historyShare`: a long session's budget is this share of its tokens (above 1 the budget runs
 *   ahead of the history, so working memory is not folded again until the history has grown into it),
 *   never below the base nor above `promptBudgetPercent` of the window.
 * - `grownLowPercent`: the low watermark rises from `lowWatermarkPercent` to this share of the grown
 *   budget (reached when the budget has doubled).
 * - `cutsAtWindow`: outputs are cut on arrival against the most the budget may grow to, not the
 *   budget of the moment (a cut is never undone, and a long session's first reads are quoted late).
 * The user's budget settings bound every preset: `promptBudgetTokens` (with the window's share) is
 * the base, `promptBudgetPercent` the most a budget grows to, and a `lowWatermarkPercent` above
 * `grownLowPercent` wins.
 */
export interface SessionGrowth {
  growsPast: number;
  historyShare: number;
  grownLowPercent: number;
  cutsAtWindow: boolean;
}

export const CONTEXT_PRESETS: Readonly<Record<ContextPreset, SessionGrowth>> = {
  /** The base budget holds whatever the session's length: cheapest, forgets most of a long session. */
  economy: { growsPast: 2.5, historyShare: 0, grownLowPercent: 30, cutsAtWindow: false },
  /** The budget grows with 40% of a long session's history, the low watermark to half of it. */
  balanced: { growsPast: 2.5, historyShare: 0.4, grownLowPercent: 50, cutsAtWindow: false },
  /**
   * A long session keeps what a sliding window would: the budget jumps ahead of the history to the
   * window's share, and a step keeps the recent half verbatim (behind a stable prefix, unlike a window).
   */
  'full-recall': { growsPast: 1, historyShare: 1.5, grownLowPercent: 65, cutsAtWindow: true },
};

/** The growth parameters of the settings' preset. */
export function sessionGrowth(settings: Pick<EngineSettings, 'contextPreset'>): SessionGrowth {
  return CONTEXT_PRESETS[settings.contextPreset];
}
