import { describe, expect, it } from 'vitest';
import { CONTEXT_PRESETS, sessionGrowth } from '../../src/engine/contextPreset';
import { arrivalBudget, effectiveBudget, lowWatermark, sessionBudget, sessionLowWatermark } from '../../src/engine/engineState';
import { assistant, drive, makeEngine, text, toolResult, toolUse, user } from '../support/engineHarness';
import { CONTEXT_PRESET_NAMES, resolveEngineSettings, type ContextPreset, type EngineSettings } from '../../src/shared/engineSettings';
import { cliSettings, parseSet } from '../../src/cli/cliSettings';
import { clampSettings } from '../../src/extension/clampSettings';
import { engineSettingSpecs } from '../../src/extension/settingsSpec';
import { buildConfigurationContribution } from '../../src/extension/settingsManifest';

const at = (contextPreset: ContextPreset, more: Partial<EngineSettings> = {}) => resolveEngineSettings({ contextWindow: 200_000, contextPreset, ...more });
const state = (settings: EngineSettings, historyTokens: number) => ({ settings, historyTokens, largestFileRead: 0, largeFileReads: {} });
/** As far as the window lets a budget grow: promptBudgetPercent of (window - reserve). */
const capOf = (s: EngineSettings) => Math.floor((s.promptBudgetPercent / 100) * (s.contextWindow - s.reservedOutputTokens));

describe('strata.contextPreset: one setting for how far the budget follows a long session (issue 19)', () => {
  it('maps each preset to the growth stated in contextPreset.ts, and the settings default to balanced', () => {
    expect(Object.keys(CONTEXT_PRESETS)).toEqual([...CONTEXT_PRESET_NAMES]);
    expect(CONTEXT_PRESETS).toEqual({
      economy: { growsPast: 2.5, historyShare: 0, grownLowPercent: 30, cutsAtWindow: false, holdsLargestRead: false },
      balanced: { growsPast: 2.5, historyShare: 1.5, grownLowPercent: 50, cutsAtWindow: false, holdsLargestRead: true },
      'full-recall': { growsPast: 0, historyShare: 1.5, grownLowPercent: 40, cutsAtWindow: true, holdsLargestRead: true },
    });
    expect(resolveEngineSettings({}).contextPreset).toBe('balanced');
    for (const name of CONTEXT_PRESET_NAMES) expect(sessionGrowth(at(name))).toBe(CONTEXT_PRESETS[name]);
  });

  it('economy keeps the base budget and watermark however long the session', () => {
    const s = at('economy');
    expect(sessionBudget(state(s, 2_000_000))).toBe(effectiveBudget(s));
    expect(sessionLowWatermark(state(s, 2_000_000))).toBe(lowWatermark(s));
  });

  it('balanced grows with historyShare of the session once it passes growsPast times the base', () => {
    const s = at('balanced');
    const g = sessionGrowth(s);
    const base = effectiveBudget(s);
    expect(sessionBudget(state(s, Math.floor(g.growsPast * base)))).toBe(base);
    // just past it, under the window's share
    const long = Math.floor(g.growsPast * base) + 2_000;
    expect(sessionBudget(state(s, long))).toBe(Math.floor(g.historyShare * long));
    expect(sessionBudget(state(s, long))).toBeLessThan(capOf(s));
  });

  it('full-recall runs ahead of the history from the start (never below the base), to the window\'s share, keeps grownLowPercent of it at a step, and cuts outputs against that share', () => {
    const s = at('full-recall');
    const g = sessionGrowth(s);
    const base = effectiveBudget(s);
    expect(sessionBudget(state(s, Math.floor(base / g.historyShare)))).toBe(base);
    expect(sessionBudget(state(s, base))).toBe(Math.floor(g.historyShare * base));
    expect(sessionBudget(state(s, 2_000_000))).toBe(capOf(s));
    expect(sessionLowWatermark(state(s, 2_000_000))).toBe(Math.floor((g.grownLowPercent / 100) * capOf(s)));
    // a session the balanced preset still holds at the base
    expect(sessionBudget(state(s, 2 * base))).toBeGreaterThan(sessionBudget(state(at('balanced'), 2 * base)));
    // from the first turn, outputs are cut against the window's share, not the base
    expect(arrivalBudget(state(s, 0))).toBe(capOf(s));
    expect(arrivalBudget(state(at('balanced'), 0))).toBe(base);
  });

  it('balanced and full-recall keep a first read whole that economy cuts to head and tail on arrival', async () => {
    // ~2,500 lines, ~40k characters: over a quarter of the base budget (4 characters a token), under a quarter of the window's share
    const lines = Array.from({ length: 2_500 }, (_, l) => `const value${l} = ${l};`).join('\n');
    const sent = async (contextPreset: ContextPreset) => {
      const { engine } = makeEngine({ contextWindow: 200_000, contextPreset });
      const turns = await drive(engine, [user(text('Read it.')), assistant(toolUse('a', 'Read', { file_path: 'src/big.ts' })), user(toolResult('a', lines)), assistant(text('done'))]);
      return JSON.stringify(turns[1]!.request);
    };
    expect(await sent('full-recall')).toContain('const value1250 = 1250;');
    expect(await sent('balanced')).toContain('const value1250 = 1250;');
    expect(await sent('economy')).not.toContain('const value1250 = 1250;');
  });

  it('explicit budget settings bound every preset: the base, the share of the window, and a higher low watermark win', () => {
    // promptBudgetPercent caps the growth
    const capped = at('full-recall', { promptBudgetPercent: 50 });
    expect(sessionBudget(state(capped, 2_000_000))).toBe(capOf(capped));
    expect(capOf(capped)).toBeLessThan(capOf(at('full-recall')));
    // promptBudgetTokens is the base: no preset goes below it
    const roomy = at('full-recall', { promptBudgetTokens: 100_000 });
    const history = Math.floor(effectiveBudget(roomy) / sessionGrowth(roomy).historyShare) - 1_000;
    expect(sessionBudget(state(roomy, history))).toBe(effectiveBudget(roomy));
    expect(effectiveBudget(roomy)).toBeGreaterThan(effectiveBudget(at('full-recall')));
    // a low watermark above the preset's grown one is kept
    const high = at('full-recall', { lowWatermarkPercent: 70 });
    expect(sessionLowWatermark(state(high, 2_000_000))).toBe(Math.floor(0.7 * capOf(high)));
    // economy never grows, even under a large share of the window
    const wide = at('economy', { promptBudgetPercent: 100 });
    expect(sessionBudget(state(wide, 2_000_000))).toBe(effectiveBudget(wide));
  });

  it('is set on the command line with --set contextPreset=..., and a wrong name is a usage error naming the choices', () => {
    expect(cliSettings({ ...parseSet('contextPreset=full-recall'), contextWindow: 200_000 }).contextPreset).toBe('full-recall');
    expect(() => cliSettings({ ...parseSet('contextPreset=everything'), contextWindow: 200_000 })).toThrow(/--set contextPreset=<value>: .*economy.*balanced.*full-recall/);
  });

  it('is a setting with its choices in the manifest; a bad value in settings.json falls back to the default with a warning', () => {
    const spec = engineSettingSpecs().find((s) => s.key === 'contextPreset');
    expect(spec).toEqual({ key: 'contextPreset', kind: 'enum', default: resolveEngineSettings({}).contextPreset, options: [...CONTEXT_PRESET_NAMES] });
    const property = buildConfigurationContribution().flatMap((g) => Object.entries(g.properties)).find(([name]) => name === 'strata.contextPreset')![1];
    expect(property).toMatchObject({ type: 'string', enum: [...CONTEXT_PRESET_NAMES], default: resolveEngineSettings({}).contextPreset });
    const good = clampSettings((name) => (name === 'strata.contextPreset' ? 'economy' : undefined));
    expect(good.engine.contextPreset).toBe('economy');
    expect(good.warnings).toEqual([]);
    const bad = clampSettings((name) => (name === 'strata.contextPreset' ? 'max' : undefined));
    expect(bad.engine.contextPreset).toBe(resolveEngineSettings({}).contextPreset);
    expect(bad.warnings).toEqual([expect.stringMatching(/^strata\.contextPreset is one of economy, balanced, full-recall \(got "max"\); using /)]);
  });
});
