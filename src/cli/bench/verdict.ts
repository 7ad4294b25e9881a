import type { StrategyRow } from './report';

/** The strategies Strata must dominate (issue 9): the ones that compact to fit a window. */
export const RIVALS = ['window', 'cline', 'condense', 'clear-tool-uses'] as const;

/**
 * Issue 9's targets, with issue 19's point where no rival compacts (0.60 at 0.95 was withdrawn:
 * output and first cache writes alone are about 35% of full history's cost). Costs are shares of
 * full history's cost; recalls are shares of probes found.
 */
export const TARGETS = {
  /** No session may cost more than this times full history. */
  worstSession: 1.05,
  /** Where no rival compacts: cost at most this share of full... */
  absoluteCost: 0.8,
  /** ...at span, reference and far-reference recall at least these. */
  span: 0.975,
  reference: 0.95,
  far: 0.85,
  /** Moonshot: this share of the cheapest rival's cost at the best rival's span recall. */
  moonshotCost: 0.8,
} as const;

/** How one rival stood at a window. */
export interface RivalStanding {
  strategy: string;
  costVsFull: number;
  spanRecall: number;
  /** Requests larger than the window: a rival with any cannot run there and is left out. */
  overWindow: number;
  /** It sent the whole history every turn (never fewer message tokens than given, no side calls): it did not compact. */
  equalsFull: boolean;
}

export interface Verdict {
  window: number;
  /** `rivals`: held against the rivals that fit; `absolute`: no rival that fits compacts, so the absolute target. */
  basis: 'rivals' | 'absolute';
  dominates: boolean;
  rivals: RivalStanding[];
  /** Rivals (that fit) cheaper than Strata / with higher span recall. */
  beatenOnCost: string[];
  beatenOnSpan: string[];
  /** Absolute basis: the parts of the target missed, e.g. `cost 0.715 > 0.60`. */
  missed: string[];
  worstSession: { session: string; ratio: number };
  line: string;
}

export interface Moonshot {
  window: number;
  /** `null` when no rival fits the window, so there is nothing to beat. */
  target: { cheapest: string; cheapestCost: number; cost: number; best: string; span: number } | null;
  strataCost: number;
  strataSpan: number;
  met: boolean;
  /** How far Strata is from the target: cost above it (share of full) and span below it; 0 where met. */
  costOver: number;
  spanShort: number;
  line: string;
}

/** Strata's cost over full, per session: the worst one is held against TARGETS.worstSession. */
export interface SessionRatio {
  session: string;
  ratio: number;
}

/** What the verdict needs of one window: the pooled rows (full, the rivals, strata) and per-session ratios. */
export interface WindowFigures {
  window: number;
  rows: StrategyRow[];
  perSession: SessionRatio[];
}

/**
 * Issue 9's verdict for one window. Strata dominates when its cost is no higher and its span
 * recall no lower than each rival that fits the window, and no session costs more than 1.05x
 * full. Where no rival that fits compacts (each equals full), it must meet the absolute target instead.
 */
export function judgeWindow(f: WindowFigures): Verdict {
  const strata = row(f.rows, 'strata');
  const rivals = standings(f.rows);
  const fitting = rivals.filter((r) => r.overWindow === 0);
  const worstSession = f.perSession.reduce((a, b) => (b.ratio > a.ratio ? b : a), { session: '(none)', ratio: 0 });
  const worstOk = worstSession.ratio <= TARGETS.worstSession;
  const worstText = `worst session ${worstSession.ratio.toFixed(3)}x full (${worstSession.session}) ${worstOk ? '<=' : '>'} ${TARGETS.worstSession}`;
  const leftOut = rivals.filter((r) => r.overWindow > 0).map((r) => `${r.strategy} left out: ${r.overWindow} requests over the window`);
  const suffix = leftOut.length ? ` (${leftOut.join('; ')})` : '';
  const head = `verdict @${f.window}: strata`;

  if (fitting.length === 0 || fitting.every((r) => r.equalsFull)) {
    const missed = [
      ...(strata.costVsFull <= TARGETS.absoluteCost ? [] : [`cost ${strata.costVsFull.toFixed(3)} > ${TARGETS.absoluteCost}`]),
      ...(strata.spanRecall >= TARGETS.span ? [] : [`span ${strata.spanRecall.toFixed(3)} < ${TARGETS.span}`]),
      ...(strata.refRecall >= TARGETS.reference ? [] : [`reference ${strata.refRecall.toFixed(3)} < ${TARGETS.reference}`]),
      ...(strata.farRefRecall >= TARGETS.far ? [] : [`far ${strata.farRefRecall.toFixed(3)} < ${TARGETS.far}`]),
      ...(worstOk ? [] : [`worst session ${worstSession.ratio.toFixed(3)} > ${TARGETS.worstSession}`]),
    ];
    const why = fitting.length === 0 ? 'no rival fits the window' : `no rival compacts: ${fitting.map((r) => r.strategy).join(', ')} = full`;
    const figures = `cost ${strata.costVsFull.toFixed(3)}x full, span ${strata.spanRecall.toFixed(3)}, reference ${strata.refRecall.toFixed(3)}, far ${strata.farRefRecall.toFixed(3)}`;
    const target = `target cost <= ${TARGETS.absoluteCost} at span >= ${TARGETS.span}, reference >= ${TARGETS.reference}, far >= ${TARGETS.far}`;
    const line =
      missed.length === 0
        ? `${head} dominates: absolute target met (${why}; ${target}): ${figures}; ${worstText}${suffix}`
        : `${head} misses the absolute target on ${missed.join(', ')} (${why}; ${target}): ${figures}; ${worstText}${suffix}`;
    return { window: f.window, basis: 'absolute', dominates: missed.length === 0, rivals, beatenOnCost: [], beatenOnSpan: [], missed, worstSession, line };
  }

  const beatenOnCost = fitting.filter((r) => r.costVsFull < strata.costVsFull).map((r) => r.strategy);
  const beatenOnSpan = fitting.filter((r) => r.spanRecall > strata.spanRecall).map((r) => r.strategy);
  const dominates = beatenOnCost.length === 0 && beatenOnSpan.length === 0 && worstOk;
  const cheapest = fitting.reduce((a, b) => (b.costVsFull < a.costVsFull ? b : a));
  const best = fitting.reduce((a, b) => (b.spanRecall > a.spanRecall ? b : a));
  const figures = `cost ${strata.costVsFull.toFixed(3)}x full (cheapest rival ${cheapest.strategy} ${cheapest.costVsFull.toFixed(3)}), span ${strata.spanRecall.toFixed(3)} (best rival ${best.strategy} ${best.spanRecall.toFixed(3)})`;
  let line: string;
  if (dominates) line = `${head} dominates: ${figures}; ${worstText}${suffix}`;
  else if (beatenOnCost.length === 0 && beatenOnSpan.length === 0) line = `${head} does not dominate: no rival beats it on cost or span, but ${worstText}; ${figures}${suffix}`;
  else line = `${head} dominated ${beatenBy(fitting, beatenOnCost, beatenOnSpan)}; ${figures}; ${worstText}${suffix}`;
  return { window: f.window, basis: 'rivals', dominates, rivals, beatenOnCost, beatenOnSpan, missed: [], worstSession, line };
}

/**
 * The moonshot at one window: cost at most 0.8x the cheapest rival's at span recall at least the
 * best rival's, among the rivals that fit the window.
 */
export function moonshot(f: WindowFigures): Moonshot {
  const strata = row(f.rows, 'strata');
  const fitting = standings(f.rows).filter((r) => r.overWindow === 0);
  const base = { window: f.window, strataCost: strata.costVsFull, strataSpan: strata.spanRecall };
  if (fitting.length === 0) return { ...base, target: null, met: false, costOver: 0, spanShort: 0, line: `moonshot @${f.window}: no rival fits the window, nothing to beat` };
  const cheapest = fitting.reduce((a, b) => (b.costVsFull < a.costVsFull ? b : a));
  const best = fitting.reduce((a, b) => (b.spanRecall > a.spanRecall ? b : a));
  const target = { cheapest: cheapest.strategy, cheapestCost: cheapest.costVsFull, cost: TARGETS.moonshotCost * cheapest.costVsFull, best: best.strategy, span: best.spanRecall };
  const costOver = Math.max(0, strata.costVsFull - target.cost);
  const spanShort = Math.max(0, target.span - strata.spanRecall);
  const met = costOver === 0 && spanShort === 0;
  const goal = `cost <= ${target.cost.toFixed(3)}x full (${TARGETS.moonshotCost} x ${cheapest.strategy} ${cheapest.costVsFull.toFixed(3)}) at span >= ${target.span.toFixed(3)} (${best.strategy})`;
  const gaps = [...(costOver > 0 ? [`${costOver.toFixed(3)}x full on cost`] : []), ...(spanShort > 0 ? [`${spanShort.toFixed(3)} on span`] : [])];
  const state = met ? 'met' : `missed by ${gaps.join(' and ')}`;
  return { ...base, target, met, costOver, spanShort, line: `moonshot @${f.window}: ${goal}: ${state} (strata ${strata.costVsFull.toFixed(3)}, span ${strata.spanRecall.toFixed(3)})` };
}

function standings(rows: StrategyRow[]): RivalStanding[] {
  return RIVALS.flatMap((name) => {
    const r = rows.find((x) => x.strategy === name);
    if (!r) return [];
    const equalsFull = r.compactedTurns === 0 && r.sideCallInputTokens === 0;
    return [{ strategy: name, costVsFull: r.costVsFull, spanRecall: r.spanRecall, overWindow: r.overWindow, equalsFull }];
  });
}

/** "by window on cost and on span, by cline on span" in rival order. */
function beatenBy(rivals: RivalStanding[], onCost: string[], onSpan: string[]): string {
  return rivals
    .filter((r) => onCost.includes(r.strategy) || onSpan.includes(r.strategy))
    .map((r) => `by ${r.strategy} on ${[...(onCost.includes(r.strategy) ? ['cost'] : []), ...(onSpan.includes(r.strategy) ? ['span'] : [])].join(' and on ')}`)
    .join(', ');
}

function row(rows: StrategyRow[], name: string): StrategyRow {
  const found = rows.find((r) => r.strategy === name);
  if (!found) throw new Error(`bench: no '${name}' row to judge; every window runs every strategy`);
  return found;
}
