import type { EngineSettings } from '../../shared/engineSettings';
import type { StrategyName } from './benchSession';
import { STRATEGY_NAMES } from './benchSession';
import type { StrategyTotals } from './ledger';
import { addTotals, emptyTotals } from './ledger';
import type { StrategyRow } from './report';
import { formatTable, toRow } from './report';
import type { LongWindowSummary } from './longPanel';
import type { PresetPoint } from './presetTable';
import type { ScalePoint } from './scaling';
import type { Moonshot, SessionRatio, Verdict } from './verdict';
import { judgeWindow, moonshot } from './verdict';

/** Every strategy's totals on every session at one window of the sweep. */
export interface WindowRun {
  window: number;
  /** The engine settings Strata ran with at this window. */
  settings: EngineSettings;
  perSession: Array<{ name: string; results: Record<StrategyName, StrategyTotals> }>;
}

/** One window's figures as reported and written to JSON. */
export interface WindowSummary {
  window: number;
  settings: EngineSettings;
  /** Largest prompt budget Strata had in force at this window, tokens. */
  strataBudget: number;
  pooled: StrategyRow[];
  sessions: Array<{ session: string; rows: StrategyRow[] }>;
  /** Strata's cost over full, per session. */
  strataVsFull: SessionRatio[];
  verdict: Verdict;
  moonshot: Moonshot;
}

/** Pools a window's sessions, then judges it. */
export function summarizeWindow(run: WindowRun): WindowSummary {
  const pooledTotals = Object.fromEntries(STRATEGY_NAMES.map((s) => [s, emptyTotals()])) as Record<StrategyName, StrategyTotals>;
  for (const { results } of run.perSession) for (const s of STRATEGY_NAMES) addTotals(pooledTotals[s], results[s]);
  const pooled = STRATEGY_NAMES.map((s) => toRow(s, pooledTotals[s], pooledTotals.full.cost));
  const strataVsFull = run.perSession.map(({ name, results }) => ({ session: name, ratio: results.full.cost > 0 ? results.strata.cost / results.full.cost : 0 }));
  const figures = { window: run.window, rows: pooled, perSession: strataVsFull };
  return {
    window: run.window,
    settings: run.settings,
    strataBudget: pooledTotals.strata.budgetMax,
    pooled,
    sessions: run.perSession.map(({ name, results }) => ({ session: name, rows: STRATEGY_NAMES.map((s) => toRow(s, results[s], results.full.cost)) })),
    strataVsFull,
    verdict: judgeWindow(figures),
    moonshot: moonshot(figures),
  };
}

/** The terminal report of one window: heading, table, per-session ratios, verdict, moonshot. */
export function formatWindow(w: WindowSummary): string[] {
  const full = w.pooled.find((r) => r.strategy === 'full');
  const strata = w.pooled.find((r) => r.strategy === 'strata');
  return [
    `== window ${w.window} tokens: strata's prompt budget ${w.strataBudget} tokens; ${w.sessions.length} sessions, ${full?.requests ?? 0} requests each, ${full?.overWindow ?? 0} of full history's over the window ==`,
    formatTable(w.pooled),
    `per session, strata cost / full: ${w.strataVsFull.map((r) => `${r.session} ${r.ratio.toFixed(2)}`).join(', ')}; strata requests over budget: ${strata?.overBudget ?? 0}`,
    w.verdict.line,
    w.moonshot.line,
  ];
}

/** Everything `--json` writes: the base settings, every window's figures, verdict and moonshot, the scaling run; the long panel's windows when it ran. */
export function sweepJson(windows: WindowSummary[], scaling: ScalePoint[], long?: LongWindowSummary[], presets: readonly PresetPoint[] = []): unknown {
  return {
    ...(presets.length ? { presets } : {}),
    ...(long ? { long: long.map((w) => ({ window: w.window, settings: w.settings, strataBudget: w.strataBudget, pooled: w.pooled, sessions: w.sessions, strataVsFull: w.strataVsFull, verdict: w.verdict, moonshot: w.moonshot })) } : {}),
    windows: windows.map((w) => ({
      window: w.window,
      settings: w.settings,
      strataBudget: w.strataBudget,
      pooled: w.pooled,
      sessions: w.sessions,
      strataVsFull: w.strataVsFull,
      verdict: w.verdict,
      moonshot: w.moonshot,
    })),
    verdicts: windows.map((w) => ({ window: w.window, dominates: w.verdict.dominates, line: w.verdict.line })),
    moonshots: windows.map((w) => ({ window: w.window, met: w.moonshot.met, line: w.moonshot.line })),
    scaling,
  };
}
