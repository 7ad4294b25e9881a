import { describe, expect, it } from 'vitest';
import type { StrategyRow } from '../../src/cli/bench/report';
import type { WindowFigures } from '../../src/cli/bench/verdict';
import { judgeWindow, moonshot } from '../../src/cli/bench/verdict';

/** A pooled row with only what the verdict reads set; `compacts` false means it sent the whole history every turn. */
function row(strategy: string, costVsFull: number, span: number, o: { ref?: number; far?: number; overWindow?: number; compacts?: boolean } = {}): StrategyRow {
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
    overWindow: o.overWindow ?? 0,
    overBudget: 0,
    compactedTurns: o.compacts === false ? 0 : 40,
    budgetMax: 0,
    spanRecall: span,
    refRecall: o.ref ?? 1,
    farRefRecall: o.far ?? 1,
    p50Ms: 0,
    p99Ms: 0,
    peakHeapMb: 0,
  };
}

/** The 32k picture, with Strata's figures to vary. */
function figures(strata: StrategyRow, rivals: Partial<Record<string, StrategyRow>> = {}, worst = 1.0): WindowFigures {
  return {
    window: 32_000,
    rows: [
      row('full', 1, 1, { compacts: false }),
      rivals.window ?? row('window', 0.701, 0.918),
      rivals.cline ?? row('cline', 0.776, 0.904),
      rivals.condense ?? row('condense', 0.759, 0.889),
      row('masking', 4.22, 0.891),
      rivals['clear-tool-uses'] ?? row('clear-tool-uses', 0.9, 0.91),
      strata,
    ],
    perSession: [
      { session: 'a', ratio: 0.7 },
      { session: 'worst-one', ratio: worst },
    ],
  };
}

describe('verdict per window (issue 9)', () => {
  it('says strata dominates when no rival is cheaper or recalls more and no session passes 1.05x full', () => {
    const v = judgeWindow(figures(row('strata', 0.65, 0.93)));
    expect(v).toMatchObject({ basis: 'rivals', dominates: true, beatenOnCost: [], beatenOnSpan: [] });
    expect(v.line).toMatch(/^verdict @32000: strata dominates: cost 0\.650x full \(cheapest rival window 0\.701\), span 0\.930 \(best rival window 0\.918\)/);
  });

  it('counts a tie as no higher cost and no lower recall', () => {
    expect(judgeWindow(figures(row('strata', 0.701, 0.918))).dominates).toBe(true);
  });

  it('names each rival cheaper than strata', () => {
    const v = judgeWindow(figures(row('strata', 0.72, 0.93)));
    expect(v.dominates).toBe(false);
    expect(v.beatenOnCost).toEqual(['window']);
    expect(v.beatenOnSpan).toEqual([]);
    expect(v.line).toContain('strata dominated by window on cost;');
  });

  it('names each rival with higher span recall, and both axes when a rival wins both', () => {
    const v = judgeWindow(figures(row('strata', 0.74, 0.91)));
    expect(v.beatenOnCost).toEqual(['window']);
    expect(v.beatenOnSpan).toEqual(['window']);
    expect(v.line).toContain('dominated by window on cost and on span;');
    const spanOnly = judgeWindow(figures(row('strata', 0.6, 0.9)));
    expect(spanOnly.beatenOnSpan).toEqual(['window', 'cline', 'clear-tool-uses']);
    expect(spanOnly.line).toContain('dominated by window on span, by cline on span, by clear-tool-uses on span;');
  });

  it('does not dominate when one session costs more than 1.05x full, and says which', () => {
    const v = judgeWindow(figures(row('strata', 0.6, 0.95), {}, 1.2));
    expect(v.dominates).toBe(false);
    expect(v.worstSession).toEqual({ session: 'worst-one', ratio: 1.2 });
    expect(v.line).toContain('does not dominate: no rival beats it on cost or span, but worst session 1.200x full (worst-one) > 1.05');
    expect(judgeWindow(figures(row('strata', 0.6, 0.95), {}, 1.05)).dominates).toBe(true);
  });

  it('leaves out a rival that sends requests over the window (it could not run there)', () => {
    const v = judgeWindow(figures(row('strata', 0.65, 0.93), { 'clear-tool-uses': row('clear-tool-uses', 0.5, 1, { overWindow: 413, compacts: false }) }));
    expect(v.dominates).toBe(true);
    expect(v.rivals.find((r) => r.strategy === 'clear-tool-uses')).toMatchObject({ overWindow: 413 });
    expect(v.line).toContain('clear-tool-uses left out: 413 requests over the window');
  });

  describe('where no rival compacts (each equals full), the absolute target', () => {
    const allFull = {
      window: row('window', 1.002, 1, { compacts: false }),
      cline: row('cline', 1.004, 1, { compacts: false }),
      condense: row('condense', 1, 1, { compacts: false }),
      'clear-tool-uses': row('clear-tool-uses', 1, 1, { compacts: false }),
    };

    it('dominates at cost <= 0.80x full with span >= 0.975, reference >= 0.95 and far >= 0.85 (issue 19)', () => {
      const v = judgeWindow(figures(row('strata', 0.8, 0.975, { ref: 0.95, far: 0.85 }), allFull));
      expect(v).toMatchObject({ basis: 'absolute', dominates: true, missed: [] });
      expect(v.line).toContain('strata dominates: absolute target met (no rival compacts: window, cline, condense, clear-tool-uses = full; target cost <= 0.8 at span >= 0.975');
      expect(judgeWindow(figures(row('strata', 0.801, 0.99), allFull)).missed).toEqual(['cost 0.801 > 0.8']);
      expect(judgeWindow(figures(row('strata', 0.7, 0.974), allFull)).missed).toEqual(['span 0.974 < 0.975']);
    });

    it('says which part of the target it misses', () => {
      const v = judgeWindow(figures(row('strata', 0.815, 0.925, { ref: 0.945, far: 0.84 }), allFull));
      expect(v.basis).toBe('absolute');
      expect(v.dominates).toBe(false);
      expect(v.missed).toEqual(['cost 0.815 > 0.8', 'span 0.925 < 0.975', 'reference 0.945 < 0.95', 'far 0.840 < 0.85']);
      expect(v.line).toContain('misses the absolute target on cost 0.815 > 0.8, span 0.925 < 0.975, reference 0.945 < 0.95, far 0.840 < 0.85 (no rival compacts');
      const worst = judgeWindow(figures(row('strata', 0.5, 0.99), allFull, 1.1));
      expect(worst.missed).toEqual(['worst session 1.100 > 1.05']);
    });

    it('holds strata to the rivals again as soon as one of them compacts', () => {
      const v = judgeWindow(figures(row('strata', 0.715, 0.925), { ...allFull, condense: row('condense', 0.9, 0.97) }));
      expect(v.basis).toBe('rivals');
      expect(v.beatenOnSpan).toEqual(['window', 'cline', 'condense', 'clear-tool-uses']);
    });
  });
});

describe('moonshot: 0.8x the cheapest rival at the best rival span recall', () => {
  it('reports how far strata is from it on each axis', () => {
    const m = moonshot(figures(row('strata', 0.863, 0.876)));
    expect(m.target).toMatchObject({ cheapest: 'window', best: 'window', span: 0.918 });
    expect(m.target!.cost).toBeCloseTo(0.5608, 6);
    expect(m.met).toBe(false);
    expect(m.costOver).toBeCloseTo(0.863 - 0.5608, 6);
    expect(m.spanShort).toBeCloseTo(0.042, 6);
    expect(m.line).toContain('missed by 0.302x full on cost and 0.042 on span');
  });

  it('is met at or below the target cost and at or above the target span', () => {
    const m = moonshot(figures(row('strata', 0.5608, 0.918)));
    expect(m).toMatchObject({ met: true, costOver: 0, spanShort: 0 });
    expect(m.line).toContain(': met (');
    expect(moonshot(figures(row('strata', 0.5, 0.917))).met).toBe(false);
  });

  it('takes cheapest and best among the rivals that fit the window only', () => {
    const m = moonshot(figures(row('strata', 0.5, 0.95), { 'clear-tool-uses': row('clear-tool-uses', 0.3, 1, { overWindow: 5 }) }));
    expect(m.target).toMatchObject({ cheapest: 'window', best: 'window' });
  });
});
