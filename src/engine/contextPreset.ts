import type { ContextPreset, EngineSettings } from '../shared/engineSettings';

/**
 * How the prompt budget follows a long session, per `strata.contextPreset` (issue 19). The one
 * place a preset becomes engine parameters; engineState.ts applies them.
 * - `growsPast`: the session counts as long once its tokens pass this many times the base budget
 *   (or once it has read whole a file the base could not hold: engineState.ts, `sessionBudget`).
 * - `historyShare`: a long session's budget is this share of its tokens (above 1 the budget runs
 *   ahead of the history, so working memory is not folded again until the history has grown into it),
 *   never below the base nor above `promptBudgetPercent` of the window.
 * - `grownLowPercent`: the low watermark rises from `lowWatermarkPercent` to this share of the grown
 *   budget (reached when the budget has doubled).
 * - `cutsAtWindow`: outputs are cut on arrival against the most the budget may grow to, not the
 *   budget of the moment (a cut is never undone, and a long session's first reads are quoted late).
 * - `holdsLargestRead`: the base grows to hold the largest file the session read whole
 *   (`sessionBase`): a file too large for the base is cut on arrival, and its cut lines are lost to
 *   every later edit that quotes them.
 * The user's budget settings bound every preset: `promptBudgetTokens` (with the window's share) is
 * the base, `promptBudgetPercent` the most a budget grows to, and a `lowWatermarkPercent` above
 * `grownLowPercent` wins.
 */
export interface SessionGrowth {
  growsPast: number;
  historyShare: number;
  grownLowPercent: number;
  cutsAtWindow: boolean;
  holdsLargestRead: boolean;
}

export const CONTEXT_PRESETS: Readonly<Record<ContextPreset, SessionGrowth>> = {
  /** The base budget holds whatever the session's length: cheapest, forgets most of a long session. */
  economy: { growsPast: 2.5, historyShare: 0, grownLowPercent: 30, cutsAtWindow: false, holdsLargestRead: false },
  /**
   * Once the session is long the budget runs half ahead of its history, up to the window's share,
   * and working memory takes back what the base had folded, as much as the budget holds: nothing
   * more is folded until the prompt reaches that share, then a step keeps half of it (a sliding
   * window's shape behind a stable prefix; 40% of the history folded a little every few turns and
   * cost more for less: issue 19).
   */
  balanced: { growsPast: 2.5, historyShare: 1.5, grownLowPercent: 50, cutsAtWindow: false, holdsLargestRead: true },
  /**
   * Keeps what a sliding window would: from the first exchange the budget runs half ahead of the
   * history (never below the base), so nothing is folded while the history fits the window's share;
   * past it a step keeps the recent 40% verbatim behind a stable prefix (30% or 50% cost more on the
   * long panel: more rewrites, or larger prompts). A short session at a large window is sent whole.
   */
  'full-recall': { growsPast: 0, historyShare: 1.5, grownLowPercent: 40, cutsAtWindow: true, holdsLargestRead: true },
};

/** The growth parameters of the settings' preset. */
export function sessionGrowth(settings: Pick<EngineSettings, 'contextPreset'>): SessionGrowth {
  return CONTEXT_PRESETS[settings.contextPreset];
}
