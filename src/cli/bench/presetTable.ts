import type { ContextPreset } from '../../shared/engineSettings';
import type { StrategyTotals } from './ledger';
import { summarizeLongWindow } from './longPanel';
import type { WindowRun } from './sweepReport';
import { summarizeWindow } from './sweepReport';
import type { Verdict } from './verdict';

/** Strata's pooled point under one preset at one window of one panel, judged against the same rivals. */
export interface PresetPoint {
  panel: 'short' | 'long';
  window: number;
  preset: ContextPreset;
  /** Largest prompt budget in force, tokens. */
  budget: number;
  cost: number;
  span: number;
  ref: number;
  far: number;
  /** The panel's goal: dominance or the absolute point (short), issue 19's long goal (long). */
  met: boolean;
  /** `dominates` / `meets the goal`, or every target missed and by how much. */
  verdict: string;
}

/**
 * Strata's point with `strata` (one total per session of `run`, in its order) in place of the
 * run's own Strata: the rivals, the probes and the verdict rules are the run's.
 */
export function presetPoint(panel: PresetPoint['panel'], run: WindowRun, preset: ContextPreset, strata: readonly StrategyTotals[]): PresetPoint {
  if (strata.length !== run.perSession.length) throw new Error(`bench --presets: ${strata.length} Strata runs for ${run.perSession.length} sessions at window ${run.window}`);
  const swapped: WindowRun = {
    ...run,
    settings: { ...run.settings, contextPreset: preset },
    perSession: run.perSession.map((s, i) => ({ name: s.name, results: { ...s.results, strata: strata[i]! } })),
  };
  const summary = panel === 'short' ? summarizeWindow(swapped) : summarizeLongWindow(swapped);
  const row = summary.pooled.find((r) => r.strategy === 'strata')!;
  const point = { panel, window: run.window, preset, budget: summary.strataBudget, cost: row.costVsFull, span: row.spanRecall, ref: row.refRecall, far: row.farRefRecall };
  if ('dominates' in summary.verdict) return { ...point, met: summary.verdict.dominates, verdict: shortVerdict(summary.verdict, row.costVsFull, row.spanRecall) };
  const long = summary.verdict;
  return { ...point, met: long.met, verdict: long.met ? 'meets the goal' : `misses: ${long.missed.join('; ')}` };
}

function shortVerdict(v: Verdict, cost: number, span: number): string {
  if (v.dominates) return v.basis === 'absolute' ? 'meets the point' : 'dominates';
  const rival = (name: string) => v.rivals.find((r) => r.strategy === name)!;
  const missed = [
    ...v.missed,
    ...v.beatenOnCost.map((r) => `cost ${cost.toFixed(3)} > ${r} ${rival(r).costVsFull.toFixed(3)}`),
    ...v.beatenOnSpan.map((r) => `span ${span.toFixed(3)} < ${r} ${rival(r).spanRecall.toFixed(3)}`),
  ];
  return `misses: ${missed.length ? missed.join('; ') : `worst session ${v.worstSession.session} ${v.worstSession.ratio.toFixed(2)}x full`}`;
}

/** The presets table: one line per panel, window and preset, `*` on the default preset. */
export function formatPresetTable(points: readonly PresetPoint[], defaultPreset: ContextPreset): string[] {
  const head = ['panel', 'window', 'preset', 'budget', 'cost', 'span', 'ref', 'far', 'verdict'];
  const rows = points.map((p) => [
    p.panel,
    String(p.window),
    `${p.preset}${p.preset === defaultPreset ? ' *' : ''}`,
    String(p.budget),
    p.cost.toFixed(3),
    p.span.toFixed(3),
    p.ref.toFixed(3),
    p.far.toFixed(3),
    p.verdict,
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join('  ');
  return [`presets (strata.contextPreset; * the default; each against the same rivals):`, line(head), ...rows.map(line)];
}
