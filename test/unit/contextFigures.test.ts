import { describe, expect, it } from 'vitest';
import { effectiveBudget, layerBudgets } from '../../src/engine/engineState';
import { contextFigures } from '../../src/extension/contextFigures';
import { resolveEngineSettings } from '../../src/shared/engineSettings';
import { contextFiguresSchema } from '../../src/shared/webviewMessages';
import { contextView } from '../../webview-ui/src/context/contextView';
import { emptyTimeline } from '../../webview-ui/src/context/timeline';
import { drive, makeEngine, syntheticSession } from '../support/engineHarness';

const WINDOW = 200_000;

describe('contextFigures: the context panel figures from one EngineSettings', () => {
  it('names the reserve once and derives usable, budget and condense point from it (default settings, 200k window)', () => {
    const s = resolveEngineSettings({ contextWindow: WINDOW });
    const f = contextFigures(s, 'session');
    expect(contextFiguresSchema.parse(f)).toEqual(f);
    expect(f.window).toBe(WINDOW);
    expect(f.reservedOutput).toBe(s.reservedOutputTokens);
    expect(f.usable).toBe(WINDOW - s.reservedOutputTokens);
    expect(f.budget).toBe(Math.min(s.promptBudgetTokens, Math.floor((s.promptBudgetPercent / 100) * f.usable)));
    expect(f.condenseAt).toBe(Math.floor((s.autoCondensePercent / 100) * f.usable));
    expect(f.lowWatermark).toBe(Math.floor((s.lowWatermarkPercent / 100) * f.budget));
  });

  it("gives L4's index its own cap, at most strata.indexMaxTokens, apart from the file views' share of the budget", () => {
    const s = resolveEngineSettings({ contextWindow: WINDOW });
    const f = contextFigures(s, 'session');
    expect(f.layers.index).toBe(s.indexMaxTokens); // the README's "at most 600" at the defaults
    expect(f.layers.fileViews).toBe(Math.floor((s.fileViewPercent / 100) * f.budget));
    expect(f.layers.narrative).toBeLessThanOrEqual(s.narrativeMaxTokens);
    expect(f.layers.headers).toBeLessThanOrEqual(s.maxHeaders * s.headerMaxTokens);
    expect(f.layers.summaries).toBeLessThanOrEqual(s.summaryCount * s.summaryMaxTokens);
  });

  it('follows the reserve the session uses (the model profile sets 16,000 when the setting is unset), not a second figure', () => {
    const profileReserve = 16_000;
    const a = contextFigures(resolveEngineSettings({ contextWindow: WINDOW, reservedOutputTokens: profileReserve }), 'session');
    expect(a.usable).toBe(WINDOW - profileReserve);
    expect(a.budget).toBe(effectiveBudget(resolveEngineSettings({ contextWindow: WINDOW, reservedOutputTokens: profileReserve })));
    // A small window: the budget is the percent share, not the absolute ceiling.
    const small = resolveEngineSettings({ contextWindow: 20_000, reservedOutputTokens: 4_000 });
    expect(contextFigures(small, 'session').budget).toBe(Math.floor((small.promptBudgetPercent / 100) * 16_000));
    expect(contextFigures(small, 'session').layers.index).toBe(layerBudgets(small).indexTokens);
  });
});

describe('the panel agrees with the engine: figures + view against a real assembled prompt', () => {
  it('every cap the panel shows equals the budget the engine reported for that layer', async () => {
    const { engine } = makeEngine({ contextWindow: WINDOW, promptBudgetTokens: 6_000, workingMemoryMax: 10, workingMemoryMin: 5 });
    const turns = await drive(engine, syntheticSession(40));
    const last = turns[turns.length - 1]!;
    expect(last.mode).toBe('layered'); // the archive layers are in use, so their caps matter
    const usage = last.usage;
    const figures = contextFigures(engine.settings, 'session');
    const view = contextView(figures, usage, emptyTimeline);
    const engineBudget = (layer: string) => usage.layers.find((l) => l.layer === layer)!.budget;
    const shownCap = (layer: string) => view.layers.find((l) => l.key === layer)!.cap;
    for (const layer of ['L0', 'L1', 'L2', 'L3', 'L4']) expect({ layer, cap: shownCap(layer) }).toEqual({ layer, cap: engineBudget(layer) });
    expect(figures.usable).toBe(usage.window - usage.reservedOutput);
    expect(figures.window).toBe(usage.window);
    // Shown used figures are the engine's and add up to the prompt.
    expect(view.layers.reduce((n, l) => n + l.used, 0)).toBe(usage.used);
    expect(view.layers.find((l) => l.key === 'L2')!.used).toBeGreaterThan(0);
    // Before its token count is calibrated the engine holds the request under the budget; the panel says so.
    expect(view.heldTo).toBe(engineBudget('input'));
    // The budget shown is the one in force: this 40-exchange session has grown past its 6,000 base.
    expect(view.figures.budget).toBe(usage.budget);
    expect(usage.budget).toBeGreaterThan(figures.budget);
    expect(view.heldTo).toBeLessThan(view.figures.budget);
  });
});
