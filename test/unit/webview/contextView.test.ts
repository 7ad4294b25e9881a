import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { contextFigures } from '../../../src/extension/contextFigures';
import { resolveEngineSettings } from '../../../src/shared/engineSettings';
import type { UsageView } from '../../../src/shared/webviewMessages';
import { LayerView } from '../../../webview-ui/src/components/LayerView';
import { SessionTimeline } from '../../../webview-ui/src/components/SessionTimeline';
import { LAYER_ORDER, contextView, fmt } from '../../../webview-ui/src/context/contextView';
import { addCall, addEvent, cacheHitRate, emptyTimeline, TIMELINE_MAX_TURNS } from '../../../webview-ui/src/context/timeline';

/** The session's settings at a 200k window with the reserve the model profile sets (16,000). */
const settings = resolveEngineSettings({ contextWindow: 200_000, reservedOutputTokens: 16_000 });
const figures = contextFigures(settings, 'session');

function usageOf(layers: Record<string, number>, budget = figures.budget): UsageView {
  const used = Object.values(layers).reduce((a, b) => a + b, 0);
  const percent = Math.round((used / figures.usable) * 1000) / 10;
  return {
    used,
    window: figures.window,
    reservedOutput: figures.reservedOutput,
    available: figures.usable - used,
    percent,
    band: 'green',
    layers: Object.entries(layers).map(([layer, u]) => ({ layer: layer as UsageView['layers'][number]['layer'], used: u, budget: layer === 'input' ? budget : 0 })),
  };
}

describe('contextView: the layer bar and legend', () => {
  it('stacks the layers in prompt order, each as its share of the budget, and sums to the prompt', () => {
    const usage = usageOf({ system: 2_000, L0: 100, L1: 6_000, L2: 500, L3: 400, L4: 1_000, input: 2_000 });
    const v = contextView(figures, usage, emptyTimeline);
    expect(v.layers.map((l) => l.key)).toEqual(LAYER_ORDER.filter((k) => k !== 'retrieved'));
    expect(v.barTokens).toBe(figures.budget);
    for (const l of v.layers) expect(l.width).toBeCloseTo((100 * l.used) / figures.budget, 1);
    expect(v.budgetPercent).toBe(Math.round((100 * usage.used) / figures.budget));
    expect(v.budgetMark).toBe(100);
    expect(v.heldTo).toBeUndefined();
  });

  it('writes the L4 cap as index + file views, the index capped at strata.indexMaxTokens', () => {
    const v = contextView(figures, usageOf({ system: 1_000, input: 10 }), emptyTimeline);
    const l4 = v.layers.find((l) => l.key === 'L4')!;
    expect(l4.capText).toBe(`${fmt(settings.indexMaxTokens)} + ${fmt(figures.layers.fileViews)}`);
    expect(l4.cap).toBe(settings.indexMaxTokens + figures.layers.fileViews);
  });

  it('scales the bar to the prompt when it is over budget and marks where the budget is', () => {
    const over = figures.budget * 2;
    const v = contextView(figures, usageOf({ system: 1_000, L1: over - 1_000 }), emptyTimeline);
    expect(v.barTokens).toBe(over);
    expect(v.budgetMark).toBe(50);
  });

  it('puts the budget and auto-condense marks on the window meter as shares of the usable window', () => {
    const v = contextView(figures, undefined, emptyTimeline);
    expect(v.marks.budgetAt).toBeCloseTo((100 * figures.budget) / figures.usable, 1);
    expect(v.marks.condenseAt).toBeCloseTo(settings.autoCondensePercent, 1);
    expect(v.used).toBeUndefined();
  });

  it('says when the engine held the request under the budget (token count not yet calibrated)', () => {
    const held = Math.floor(figures.budget * 0.95);
    expect(contextView(figures, usageOf({ system: 1_000, input: 10 }, held), emptyTimeline).heldTo).toBe(held);
  });
});

describe('LayerView: the figures a user reads, all from the one computation', () => {
  it('shows window, the reserve once, budget and auto-condense point for default settings at a 200k window', () => {
    const html = renderToStaticMarkup(createElement(LayerView, { view: contextView(figures, usageOf({ system: 2_950, L1: 350, input: 53 }), emptyTimeline) }));
    const text = html.replace(/<[^>]+>/g, '');
    expect(text).toContain(`Prompt ${fmt(3_353)} of ${fmt(figures.budget)} budget`);
    expect(text).toContain(`Window ${fmt(figures.window)} · output reserve ${fmt(figures.reservedOutput)} · auto-condense at ${settings.autoCondensePercent}% (${fmt(figures.condenseAt)})`);
    expect(text.split('reserve').length - 1).toBe(1); // named once
    expect(text).toContain(`L4 index + file views0 / ${fmt(settings.indexMaxTokens)} + ${fmt(figures.layers.fileViews)}`);
    expect(text).not.toContain('from settings');
  });
});

describe('timeline: turns, marks, cost and cache hit rate', () => {
  it('adds a tool loop’s calls into one turn, marks re-layering and condensing, and counts condense cost', () => {
    let t = addCall(emptyTimeline, { requestId: 'r1', promptTokens: 3_000, cost: 0.01, apiPromptTokens: 3_000, cacheReadTokens: 0 });
    t = addEvent(t, 'r2', { type: 'relayer', turn: 2, foldedThrough: 1, pressure: 0, masked: 0 });
    t = addCall(t, { requestId: 'r2', promptTokens: 2_500, cost: 0.002, apiPromptTokens: 2_500, cacheReadTokens: 2_000 });
    t = addCall(t, { requestId: 'r2', promptTokens: 2_700, cost: 0.003, apiPromptTokens: 2_700, cacheReadTokens: 2_500 });
    // The event's cost is in engine units (2,700 + 5 x 100); the turn counts the dollars the host priced.
    t = addEvent(t, 'condense-1', { type: 'condense_context', turn: 3, tokensBefore: 2_700, tokensAfter: 1_200, inputTokens: 2_700, outputTokens: 100, cost: 3_200 }, 0.004);
    expect(t.turns.map((x) => x.requestId)).toEqual(['r1', 'r2', 'condense-1']);
    expect(t.turns[1]).toMatchObject({ promptTokens: 2_700, marks: ['relayer'], apiPromptTokens: 5_200, cacheReadTokens: 4_500 });
    expect(t.turns[1]!.cost).toBeCloseTo(0.005, 10);
    expect(t.turns[2]).toMatchObject({ promptTokens: 1_200, marks: ['condense'], cost: 0.004 });
    expect(cacheHitRate(t.turns)).toBeCloseTo(4_500 / 8_200, 10);
    expect(cacheHitRate([])).toBeUndefined();
  });

  it('keeps the newest turns only', () => {
    let t = emptyTimeline;
    for (let i = 0; i < TIMELINE_MAX_TURNS + 5; i++) t = addCall(t, { requestId: `r${i}`, promptTokens: i, cost: 0 });
    expect(t.turns).toHaveLength(TIMELINE_MAX_TURNS);
    expect(t.turns[0]!.requestId).toBe('r5');
  });

  it('renders the session cost, the last turn, the cache hit rate and the marks', () => {
    let t = addCall(emptyTimeline, { requestId: 'r1', promptTokens: 3_000, cost: 0.01, apiPromptTokens: 4_000, cacheReadTokens: 1_000 });
    t = addEvent(t, 'r2', { type: 'relayer', turn: 2, foldedThrough: 1, pressure: 0, masked: 0 });
    t = addCall(t, { requestId: 'r2', promptTokens: 2_000, cost: 0.02, apiPromptTokens: 4_000, cacheReadTokens: 3_000 });
    const html = renderToStaticMarkup(createElement(SessionTimeline, { view: contextView(figures, undefined, t), sessionCost: 0.03 }));
    const text = html.replace(/<[^>]+>/g, '');
    expect(text).toContain('Session $0.0300 · last turn $0.0200 · cache hit 50% · 2 turns');
    expect(html).toContain('data-marks="relayer"');
    expect(html).toContain('codicon-layers');
  });
});
