import { describe, expect, it } from 'vitest';
import type { StrategyRow } from '../../src/cli/bench/report';
import { judgeLong, LONG_TARGETS } from '../../src/cli/bench/longVerdict';

/** A row with only what the long verdict reads set. */
function row(strategy: string, costVsFull: number, spanRecall: number, overWindow = 0): StrategyRow {
  return {
    strategy,
    requests: 100,
    cost: Math.round(costVsFull * 1_000_000),
    costVsFull,
    inputTokens: 0,
    plain: 0,
    cacheWrite: 0,
    cacheRead: 0,
    outputTokens: 0,
    extraOutputTokens: 0,
    sideCallInputTokens: 0,
    peakTokens: 0,
    overWindow,
    overBudget: 0,
    compactedTurns: 40,
    budgetMax: 0,
    spanRecall,
    refRecall: 1,
    farRefRecall: 1,
    p50Ms: 0,
    p99Ms: 0,
    peakHeapMb: 0,
  };
}

/** The 200k picture (Roo window 0.635 / 0.997, Cline 0.553 / 0.997), with Strata's figures to vary. */
function pooled(strata: StrategyRow, o: { clearOver?: number } = {}): StrategyRow[] {
  return [row('full', 1, 1, 50), row('window', 0.635, 0.96), row('cline', 0.553, 0.95), row('condense', 0.6, 0.9), row('masking', 3, 0.8), row('clear-tool-uses', 0.5, 0.99, o.clearOver ?? 0), strata];
}

/** Two sessions; `b`'s best rival is cline at 0.93. */
function sessions(strataA: number, strataB: number): Array<{ session: string; rows: StrategyRow[] }> {
  return [
    { session: 'a', rows: [row('window', 0.6, 0.97), row('cline', 0.5, 0.96), row('clear-tool-uses', 0.5, 0.99), row('strata', 0.5, strataA)] },
    { session: 'b', rows: [row('window', 0.6, 0.91), row('cline', 0.5, 0.93), row('clear-tool-uses', 0.5, 0.9), row('strata', 0.5, strataB)] },
  ];
}

const CLEAR_OVER = { clearOver: 3 };

describe('long-session verdict (issue 19)', () => {
  it('meets the goal at no more cost than the cheapest rival that fits, span within 0.01 of the best, every session within 0.03', () => {
    const v = judgeLong(200_000, pooled(row('strata', 0.55, 0.951), CLEAR_OVER), sessions(0.97, 0.9));
    expect(v.met).toBe(true);
    expect(v.missed).toEqual([]);
    expect(v.fitting).toEqual(['window', 'cline', 'condense']);
    expect(v.line).toBe(
      'long verdict @200000: strata meets the goal: cost 0.550x full (cheapest rival cline 0.553), span 0.951 (best rival window 0.960), worst session span gap 0.030 (b vs cline) (clear-tool-uses left out: 3 requests over the window)',
    );
  });

  it('misses on cost when a rival that fits is cheaper', () => {
    const v = judgeLong(200_000, pooled(row('strata', 0.56, 0.97), CLEAR_OVER), sessions(0.97, 0.93));
    expect(v.met).toBe(false);
    expect(v.missed).toEqual(['cost 0.560 > cheapest rival cline 0.553']);
  });

  it('allows exactly 0.01 below the best rival pooled, not more', () => {
    expect(judgeLong(200_000, pooled(row('strata', 0.5, 0.95), CLEAR_OVER), sessions(0.97, 0.93)).met).toBe(true);
    const v = judgeLong(200_000, pooled(row('strata', 0.5, 0.949), CLEAR_OVER), sessions(0.97, 0.93));
    expect(v.missed).toEqual([`span 0.949 < best rival window 0.960 - ${LONG_TARGETS.pooledSpanSlack}`]);
  });

  it('names each session more than 0.03 below its own best rival, even when the pooled figures pass', () => {
    const v = judgeLong(200_000, pooled(row('strata', 0.5, 0.96), CLEAR_OVER), sessions(0.97, 0.899));
    expect(v.met).toBe(false);
    expect(v.missed).toEqual([`b span 0.899 < cline 0.930 - ${LONG_TARGETS.sessionSpanSlack}`]);
    expect(v.sessions).toEqual([
      { session: 'a', strata: 0.97, best: 'window', bestSpan: 0.97, short: false },
      { session: 'b', strata: 0.899, best: 'cline', bestSpan: 0.93, short: true },
    ]);
  });

  it('holds strata to a rival over the window neither pooled nor per session, and to one that fits on both', () => {
    // clear-tool-uses (0.5 / 0.99, 0.99 on session a) is over the window: left out
    expect(judgeLong(200_000, pooled(row('strata', 0.55, 0.951), CLEAR_OVER), sessions(0.95, 0.9)).met).toBe(true);
    const fits = judgeLong(200_000, pooled(row('strata', 0.55, 0.951)), sessions(0.95, 0.9));
    expect(fits.met).toBe(false);
    expect(fits.missed).toEqual(['cost 0.550 > cheapest rival clear-tool-uses 0.500', 'span 0.951 < best rival clear-tool-uses 0.990 - 0.01', 'a span 0.950 < clear-tool-uses 0.990 - 0.03']);
  });

  it('misses when strata itself sends a request over the window', () => {
    const v = judgeLong(128_000, pooled(row('strata', 0.5, 0.99, 2), CLEAR_OVER), sessions(0.97, 0.93));
    expect(v.met).toBe(false);
    expect(v.missed).toEqual(['2 requests over the window']);
  });

  it('cannot be judged when no rival fits the window', () => {
    const rows = [row('full', 1, 1, 9), row('window', 0.6, 0.9, 1), row('cline', 0.6, 0.9, 1), row('condense', 0.6, 0.9, 1), row('clear-tool-uses', 0.6, 0.9, 1), row('strata', 0.5, 0.99)];
    const v = judgeLong(128_000, rows, sessions(0.97, 0.93));
    expect(v).toMatchObject({ met: false, fitting: [], sessions: [] });
    expect(v.line).toMatch(/^long verdict @128000: strata cannot be judged: no rival fits the window \(window left out: 1 requests over the window;/);
  });
});
