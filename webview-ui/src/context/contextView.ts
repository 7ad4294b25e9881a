import type { ContextFigures, UsageView } from '../../../src/shared/webviewMessages';
import { cacheHitRate, type Timeline, type TimelineMark } from './timeline';

/** The layers in the order the bar stacks them (the prompt's own order, least to most volatile). */
export const LAYER_ORDER = ['system', 'L0', 'L2', 'L3', 'L4', 'L1', 'input', 'retrieved'] as const;
export type LayerKey = (typeof LAYER_ORDER)[number];

export const LAYER_LABELS: Readonly<Record<LayerKey, string>> = {
  system: 'System + tools',
  L0: 'L0 narrative',
  L2: 'L2 headers',
  L3: 'L3 summaries',
  L4: 'L4 index + file views',
  L1: 'Working memory',
  input: 'Input',
  retrieved: 'Retrieved',
};

/** One segment of the stacked bar and its legend entry. `cap` is undefined where the layer has no cap of its own. */
export interface LayerRow {
  key: LayerKey;
  label: string;
  used: number;
  cap: number | undefined;
  /** Cap text for the legend: one number, or the sum's parts (L4: index + file views). */
  capText: string | undefined;
  /** Share of the bar, percent of `barTokens`. */
  width: number;
}

/** Where the budget and the auto-condense point sit on the window meter, percent of the usable window (window - reserve). */
export interface MeterMarks {
  budgetAt: number;
  condenseAt: number;
}

export interface TimelineBar {
  /** Percent of the session's largest prompt (the shape of the session, whatever its size). */
  height: number;
  promptTokens: number;
  cost: number;
  cacheHit: number | undefined;
  marks: TimelineMark[];
  title: string;
}

/** Everything the context panel shows, computed once; the components only lay it out. */
export interface ContextView {
  figures: ContextFigures;
  /** Tokens the full stacked bar stands for: the budget, or the prompt when it is over budget. */
  barTokens: number;
  /** Where the budget sits on the stacked bar, percent (100 unless the prompt is over it). */
  budgetMark: number;
  layers: LayerRow[];
  used: number | undefined;
  /** Percent of the budget the last prompt used (rounded). */
  budgetPercent: number | undefined;
  /** Percent of the usable window (the engine's own figure) and its band. */
  usablePercent: number | undefined;
  band: UsageBand | undefined;
  /** The engine held the request to less than the budget (its margin before the token count is calibrated). */
  heldTo: number | undefined;
  marks: MeterMarks;
  turns: TimelineBar[];
  lastTurnCost: number | undefined;
  sessionCacheHit: number | undefined;
}

type UsageBand = UsageView['band'];

/**
 * The panel's figures from the host's `figures` (window, reserve, budget, layer caps: one
 * computation from the engine's settings) and the last prompt's `usage` (tokens used per layer).
 * Pure: the same inputs give the same picture.
 */
export function contextView(settingsFigures: ContextFigures, usage: UsageView | undefined, timeline: Timeline): ContextView {
  // A long session's budget grows past the settings' base (engineState.sessionBudget): the engine's figure wins.
  const figures = usage?.budget !== undefined ? { ...settingsFigures, budget: usage.budget } : settingsFigures;
  const used = usage?.used;
  const barTokens = Math.max(1, figures.budget, used ?? 0);
  const usedBy = (layer: LayerKey) => usage?.layers.find((l) => l.layer === layer)?.used ?? 0;
  const caps = figures.layers;
  const archiveCaps = caps.headers + caps.summaries + caps.index + caps.fileViews;
  // The budget the engine held this request to: less than `budget` until its token count is calibrated.
  const enforced = usage?.layers.find((l) => l.layer === 'input')?.budget;
  // Working memory gets what that budget leaves after the system, the archive layers' caps and L0.
  const workingCap = Math.max(0, (enforced ?? figures.budget) - usedBy('system') - archiveCaps - caps.narrative);
  const capOf: Record<LayerKey, [number | undefined, string | undefined]> = {
    system: [undefined, undefined],
    L0: [caps.narrative, fmt(caps.narrative)],
    L2: [caps.headers, fmt(caps.headers)],
    L3: [caps.summaries, fmt(caps.summaries)],
    L4: [caps.index + caps.fileViews, `${fmt(caps.index)} + ${fmt(caps.fileViews)}`],
    L1: [workingCap, fmt(workingCap)],
    input: [undefined, undefined],
    retrieved: [undefined, undefined],
  };
  const layers = LAYER_ORDER.filter((key) => key !== 'retrieved' || usedBy(key) > 0).map((key) => ({
    key,
    label: LAYER_LABELS[key],
    used: usedBy(key),
    cap: capOf[key][0],
    capText: capOf[key][1],
    width: pct(usedBy(key), barTokens),
  }));
  const usable = Math.max(1, figures.usable);
  const turns = timeline.turns;
  const scale = Math.max(1, ...turns.map((t) => t.promptTokens));
  return {
    figures,
    barTokens,
    budgetMark: pct(figures.budget, barTokens),
    layers,
    used,
    budgetPercent: used === undefined ? undefined : Math.round((100 * used) / Math.max(1, figures.budget)),
    usablePercent: usage?.percent,
    band: usage?.band,
    heldTo: enforced !== undefined && enforced < figures.budget ? enforced : undefined,
    marks: { budgetAt: pct(figures.budget, usable), condenseAt: pct(figures.condenseAt, usable) },
    turns: turns.map((t, i) => {
      const hit = cacheHitRate([t]);
      const marks = t.marks.map((m) => MARK_WORDS[m]).join(', ');
      return {
        height: pct(t.promptTokens, scale),
        promptTokens: t.promptTokens,
        cost: t.cost,
        cacheHit: hit,
        marks: t.marks,
        title: `Turn ${i + 1}: prompt ${fmt(t.promptTokens)} tokens · ${money(t.cost)}${hit !== undefined ? ` · cache hit ${Math.round(hit * 100)}%` : ''}${marks ? ` · ${marks}` : ''}`,
      };
    }),
    lastTurnCost: turns.at(-1)?.cost,
    sessionCacheHit: cacheHitRate(turns),
  };
}

export const MARK_WORDS: Readonly<Record<TimelineMark, string>> = {
  relayer: 're-layered',
  condense: 'condensed',
  slide: 'sliding window',
  mask: 'outputs masked',
};

/** Tokens as the panel writes them (thousands separated, en-US so figures read the same everywhere). */
export function fmt(tokens: number): string {
  return Math.round(tokens).toLocaleString('en-US');
}

export function money(dollars: number): string {
  return `$${dollars.toFixed(4)}`;
}

function pct(part: number, whole: number): number {
  return whole > 0 ? Math.min(100, Math.round((10_000 * part) / whole) / 100) : 0;
}
