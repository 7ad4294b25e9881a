import type { StrategyTotals } from './ledger';
import { quantile } from './ledger';
import { ratio } from './recall';
import type { ScalePoint } from './scaling';

/** One row of the bench table, every figure derived from the totals. */
export interface StrategyRow {
  strategy: string;
  requests: number;
  cost: number;
  costVsFull: number;
  inputTokens: number;
  plain: number;
  cacheWrite: number;
  cacheRead: number;
  outputTokens: number;
  extraOutputTokens: number;
  /** Input of side calls (condensing); 0 when the strategy made none. */
  sideCallInputTokens: number;
  peakTokens: number;
  overWindow: number;
  overBudget: number;
  /** Turns on which it sent less than the whole history (0: it never compacted). */
  compactedTurns: number;
  /** Largest prompt budget in force, tokens (Strata; 0 for the others). */
  budgetMax: number;
  spanRecall: number;
  refRecall: number;
  farRefRecall: number;
  p50Ms: number;
  p99Ms: number;
  /** Strata's largest heap in use during its replay, MB (0 for the others). */
  peakHeapMb: number;
}

export function toRow(strategy: string, t: StrategyTotals, fullCost: number): StrategyRow {
  return {
    strategy,
    requests: t.requests,
    cost: Math.round(t.cost),
    costVsFull: fullCost > 0 ? t.cost / fullCost : 0,
    inputTokens: t.inputTokens,
    plain: t.plain,
    cacheWrite: t.cacheWrite,
    cacheRead: t.cacheRead,
    outputTokens: t.outputTokens,
    extraOutputTokens: t.extraOutputTokens,
    sideCallInputTokens: t.sideCallInputTokens,
    peakTokens: t.peakTokens,
    overWindow: t.overWindow,
    overBudget: t.overBudget,
    compactedTurns: t.compactedTurns,
    budgetMax: t.budgetMax,
    spanRecall: ratio(t.recall.spanHit, t.recall.spanTotal),
    refRecall: ratio(t.recall.refHit, t.recall.refTotal),
    farRefRecall: ratio(t.recall.farHit, t.recall.farTotal),
    p50Ms: quantile(t.assembleMs, 0.5),
    p99Ms: quantile(t.assembleMs, 0.99),
    peakHeapMb: t.peakHeapBytes / 2 ** 20,
  };
}

const HEAD = ['strategy', 'cost', 'vs full', 'input', 'plain', 'write', 'read', 'output', 'peak', '>window', 'span', 'ref', 'far ref', 'p50 ms', 'p99 ms'];

/** The terminal table: one row per strategy. */
export function formatTable(rows: StrategyRow[]): string {
  const cells = rows.map((r) => [
    r.strategy,
    kilo(r.cost),
    r.costVsFull.toFixed(3),
    kilo(r.inputTokens),
    kilo(r.plain),
    kilo(r.cacheWrite),
    kilo(r.cacheRead),
    kilo(r.outputTokens),
    kilo(r.peakTokens),
    String(r.overWindow),
    r.spanRecall.toFixed(3),
    r.refRecall.toFixed(3),
    r.farRefRecall.toFixed(3),
    r.p50Ms.toFixed(2),
    r.p99Ms.toFixed(2),
  ]);
  const widths = HEAD.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) => c.map((x, i) => (i === 0 ? x.padEnd(widths[i]!) : x.padStart(widths[i]!))).join('  ');
  return [line(HEAD), ...cells.map(line)].join('\n');
}

export function formatScaling(points: ScalePoint[]): string {
  const lines = ['exchanges  p50 ms  p99 ms  heap MB  archive MB'];
  for (const p of points) lines.push(`${String(p.exchanges).padStart(9)}  ${p.p50Ms.toFixed(2).padStart(6)}  ${p.p99Ms.toFixed(2).padStart(6)}  ${p.heapMb.toFixed(1).padStart(7)}  ${p.archiveMb.toFixed(1).padStart(10)}`);
  const first = points[0];
  const last = points[points.length - 1];
  if (first && last && first !== last) {
    lines.push(`per-turn time at ${last.exchanges} / at ${first.exchanges}: ${(last.p50Ms / Math.max(first.p50Ms, 1e-6)).toFixed(2)}x; heap ${(last.heapMb / Math.max(first.heapMb, 1e-6)).toFixed(2)}x, archive ${(last.archiveMb / Math.max(first.archiveMb, 1e-6)).toFixed(1)}x`);
  }
  return lines.join('\n');
}

/** 1234567 -> 1235k, 999 -> 999. */
function kilo(n: number): string {
  return Math.abs(n) >= 10_000 ? `${Math.round(n / 1000)}k` : String(Math.round(n));
}
