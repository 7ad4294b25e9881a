import type { LongVerdict } from './longVerdict';
import { judgeLong } from './longVerdict';
import type { WindowRun, WindowSummary } from './sweepReport';
import { summarizeWindow } from './sweepReport';
import { formatTable } from './report';

/** One window of the long-session panel: the short panel's figures, judged by issue 19's goal instead. */
export interface LongWindowSummary extends Omit<WindowSummary, 'verdict'> {
  verdict: LongVerdict;
}

export function summarizeLongWindow(run: WindowRun): LongWindowSummary {
  const { verdict: _shortRule, ...rest } = summarizeWindow(run);
  return { ...rest, verdict: judgeLong(run.window, rest.pooled, rest.sessions) };
}

/** Heading, table, per-session cost and span, the verdict, the moonshot, then Strata's speed and heap per session. */
export function formatLongWindow(w: LongWindowSummary): string[] {
  const full = w.pooled.find((r) => r.strategy === 'full');
  const strata = w.pooled.find((r) => r.strategy === 'strata');
  const speed = w.sessions.map(({ session, rows }) => {
    const s = rows.find((r) => r.strategy === 'strata');
    return `${session} p50 ${(s?.p50Ms ?? 0).toFixed(2)} / p99 ${(s?.p99Ms ?? 0).toFixed(2)} ms, peak heap ${(s?.peakHeapMb ?? 0).toFixed(0)} MB`;
  });
  return [
    `== long sessions, window ${w.window} tokens: strata's prompt budget ${w.strataBudget} tokens; ${w.sessions.length} sessions, ${full?.requests ?? 0} requests each, ${full?.overWindow ?? 0} of full history's over the window, full history's peak ${full?.peakTokens ?? 0} tokens ==`,
    formatTable(w.pooled),
    `per session, strata cost / full: ${w.strataVsFull.map((r) => `${r.session} ${r.ratio.toFixed(2)}`).join(', ')}; strata requests over budget: ${strata?.overBudget ?? 0}`,
    `per session, span recall strata / best rival that fits: ${w.verdict.sessions.map((s) => `${s.session} ${s.strata.toFixed(3)} / ${s.bestSpan.toFixed(3)} (${s.best})`).join(', ') || 'none'}`,
    w.verdict.line,
    w.moonshot.line,
    `strata per turn on the long sessions (assembly time; heap in use during the replay, whole process): ${speed.join('; ')}`,
  ];
}
