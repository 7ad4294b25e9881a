import type { StrategyRow } from './report';
import { RIVALS } from './verdict';

/** Issue 19's goal on sessions longer than the window; recalls are shares of span probes found. */
export const LONG_TARGETS = {
  /** Pooled span recall may be this far below the best rival's (pooled). */
  pooledSpanSlack: 0.01,
  /** No session's span recall may be further than this below that session's best rival. */
  sessionSpanSlack: 0.03,
} as const;

/** One long session's span recall against its best rival (among the rivals that fit the window). */
export interface SessionSpan {
  session: string;
  strata: number;
  best: string;
  bestSpan: number;
  /** Strata is more than `sessionSpanSlack` below it. */
  short: boolean;
}

export interface LongVerdict {
  window: number;
  met: boolean;
  /** Rivals with no request over the window, the only ones judged against. */
  fitting: string[];
  /** Every part of the goal missed, e.g. `cost 0.412 > cheapest rival window 0.398`. */
  missed: string[];
  sessions: SessionSpan[];
  line: string;
}

/**
 * The long panel's verdict at one window: Strata's pooled cost no higher than the cheapest rival
 * that fits the window, its pooled span recall at least the best such rival's minus 0.01, no
 * session's span recall more than 0.03 below that session's best such rival, and no Strata
 * request over the window. A rival with any request over the window (pooled) is left out.
 */
export function judgeLong(window: number, pooled: readonly StrategyRow[], sessions: ReadonlyArray<{ session: string; rows: readonly StrategyRow[] }>): LongVerdict {
  const strata = pooled.find((r) => r.strategy === 'strata');
  if (!strata) throw new Error("bench: no 'strata' row to judge; every window runs every strategy");
  const rivals = RIVALS.flatMap((name) => pooled.filter((r) => r.strategy === name));
  const fitting = rivals.filter((r) => r.overWindow === 0);
  const leftOut = rivals.filter((r) => r.overWindow > 0).map((r) => `${r.strategy} left out: ${r.overWindow} requests over the window`);
  const suffix = leftOut.length ? ` (${leftOut.join('; ')})` : '';
  const head = `long verdict @${window}: strata`;
  const over = strata.overWindow > 0 ? [`${strata.overWindow} requests over the window`] : [];
  if (fitting.length === 0) {
    const line = `${head} cannot be judged: no rival fits the window${over.length ? `; ${over[0]}` : ''}${suffix}`;
    return { window, met: false, fitting: [], missed: ['no rival fits the window', ...over], sessions: [], line };
  }
  const cheapest = fitting.reduce((a, b) => (b.costVsFull < a.costVsFull ? b : a));
  const best = fitting.reduce((a, b) => (b.spanRecall > a.spanRecall ? b : a));
  const names = new Set(fitting.map((r) => r.strategy));
  const perSession = sessions.map(({ session, rows }): SessionSpan => {
    const own = rows.find((r) => r.strategy === 'strata')?.spanRecall ?? 0;
    const top = rows.filter((r) => names.has(r.strategy)).reduce((a, b) => (b.spanRecall > a.spanRecall ? b : a));
    return { session, strata: own, best: top.strategy, bestSpan: top.spanRecall, short: own < top.spanRecall - LONG_TARGETS.sessionSpanSlack - 1e-9 };
  });
  const spanFloor = best.spanRecall - LONG_TARGETS.pooledSpanSlack;
  const missed = [
    ...(strata.costVsFull <= cheapest.costVsFull ? [] : [`cost ${strata.costVsFull.toFixed(3)} > cheapest rival ${cheapest.strategy} ${cheapest.costVsFull.toFixed(3)}`]),
    ...(strata.spanRecall >= spanFloor - 1e-9 ? [] : [`span ${strata.spanRecall.toFixed(3)} < best rival ${best.strategy} ${best.spanRecall.toFixed(3)} - ${LONG_TARGETS.pooledSpanSlack}`]),
    ...perSession.filter((s) => s.short).map((s) => `${s.session} span ${s.strata.toFixed(3)} < ${s.best} ${s.bestSpan.toFixed(3)} - ${LONG_TARGETS.sessionSpanSlack}`),
    ...over,
  ];
  const figures = `cost ${strata.costVsFull.toFixed(3)}x full (cheapest rival ${cheapest.strategy} ${cheapest.costVsFull.toFixed(3)}), span ${strata.spanRecall.toFixed(3)} (best rival ${best.strategy} ${best.spanRecall.toFixed(3)}), worst session span gap ${worstGap(perSession)}`;
  const line = missed.length === 0 ? `${head} meets the goal: ${figures}${suffix}` : `${head} misses the goal on ${missed.join('; ')}: ${figures}${suffix}`;
  return { window, met: missed.length === 0, fitting: fitting.map((r) => r.strategy), missed, sessions: perSession, line };
}

/** "0.021 (pi-opus45 vs window)": the session furthest below its best rival; negative when Strata leads everywhere. */
function worstGap(sessions: readonly SessionSpan[]): string {
  if (sessions.length === 0) return 'none';
  const worst = sessions.reduce((a, b) => (b.bestSpan - b.strata > a.bestSpan - a.strata ? b : a));
  return `${(worst.bestSpan - worst.strata).toFixed(3)} (${worst.session} vs ${worst.best})`;
}
