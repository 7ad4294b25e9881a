import { describe, expect, it } from 'vitest';
import { resolveEngineSettings } from '../../src/shared/engineSettings';
import { parseProtocolBlocks } from '../../src/shared/protocolSchema';
import { contextWindowFor, DEFAULT_CONTEXT_WINDOW } from '../../src/engine/modelWindows';
import { bandFor, computeUsage } from '../../src/engine/usage';
import type { HeaderRecord } from '../../src/engine/archiveBlock';
import { activeHeaders, effectiveBudget, layerBudgets, lowWatermark, newEngineState, resetEngineState } from '../../src/engine/engineState';
import { emptyNarrative } from '../../src/engine/narrative';
import { charTokenizer } from '../support/engineHarness';

describe('engine settings', () => {
  it('applies the documented defaults', () => {
    const s = resolveEngineSettings();
    expect(s).toMatchObject({ contextWindow: 200_000, reservedOutputTokens: 8_192, narrativeMaxTokens: 300, promptBudgetPercent: 80, promptBudgetTokens: 40_000, lowWatermarkPercent: 30, workingMemoryMin: 2, workingMemoryMax: 1_000, headerMaxTokens: 12, maxHeaders: 200, summaryMaxTokens: 120, summaryCount: 5, codeMaxLines: 500, outputMaxLines: 200, autoCondensePercent: 80 });
  });

  it('rejects out-of-range values with a message that names the setting and what to do', () => {
    expect(() => resolveEngineSettings({ autoCondensePercent: 3 })).toThrow(/autoCondensePercent.*Fix them in settings/);
    expect(() => resolveEngineSettings({ autoCondensePercent: 101 })).toThrow(/autoCondensePercent/);
    expect(() => resolveEngineSettings({ workingMemoryMin: 8, workingMemoryMax: 4 })).toThrow(/workingMemoryMax \(4\) is below workingMemoryMin \(8\)/);
    expect(() => resolveEngineSettings({ contextWindow: 'big' })).toThrow(/contextWindow/);
  });
});

describe('the budget follows the window', () => {
  it('is a share of (window - reserve), capped by the absolute ceiling', () => {
    expect(effectiveBudget(resolveEngineSettings({ contextWindow: 32_000 }))).toBe(Math.floor(0.8 * (32_000 - 8_192)));
    expect(effectiveBudget(resolveEngineSettings({ contextWindow: 32_000, promptBudgetPercent: 50 }))).toBe(Math.floor(0.5 * (32_000 - 8_192)));
    expect(effectiveBudget(resolveEngineSettings({ contextWindow: 64_000 }))).toBe(40_000);
    expect(effectiveBudget(resolveEngineSettings({ contextWindow: 200_000 }))).toBe(40_000);
    expect(effectiveBudget(resolveEngineSettings({ contextWindow: 200_000, promptBudgetTokens: 100_000, promptBudgetPercent: 100 }))).toBe(100_000);
    expect(lowWatermark(resolveEngineSettings({ contextWindow: 200_000, lowWatermarkPercent: 40 }))).toBe(16_000);
  });
});

describe('layerBudgets: each layer gets its share of the budget, capped by its token setting', () => {
  // Shares of the budget (LAYER_SHARES): headers 8%, summaries 10%, index 2%, narrative 1%, file views fileViewPercent (35%).
  it('at a 2,000-token budget the shares bind, with at least 10 headers and a 50-token narrative', () => {
    const s = resolveEngineSettings({ promptBudgetTokens: 2_000, headerMaxTokens: 60 });
    expect(effectiveBudget(s)).toBe(2_000);
    expect(layerBudgets(s)).toEqual({
      headerTokens: 160, // 8% of 2,000, under 200 headers x 60 tokens
      maxHeaders: 10, // 160 / 60 = 2 headers would fit: raised to the floor of 10
      summaryCount: 1, // 10% = 200 tokens, one 120-token summary
      indexTokens: 40, // 2%, under indexMaxTokens 600
      fileViewTokens: 700,
      narrativeTokens: 50, // 1% = 20, raised to the floor of 50
    });
  });

  it('at a 10,000-token budget the header and index shares bind, and the header count follows the header tokens', () => {
    const s = resolveEngineSettings({ promptBudgetTokens: 10_000 });
    expect(effectiveBudget(s)).toBe(10_000);
    expect(layerBudgets(s)).toEqual({
      headerTokens: 800, // 8%, under 200 headers x 12 tokens = 2,400
      maxHeaders: 66, // 800 / 12 tokens a header
      summaryCount: 5, // 10% = 1,000 tokens would hold 8 summaries of 120: summaryCount 5 caps it
      indexTokens: 200, // 2%, under indexMaxTokens 600
      fileViewTokens: 3_500,
      narrativeTokens: 100, // 1%, under narrativeMaxTokens 300
    });
  });

  it('at a 100,000-token budget every token setting caps its layer', () => {
    const s = resolveEngineSettings({ promptBudgetTokens: 100_000, promptBudgetPercent: 100 });
    expect(effectiveBudget(s)).toBe(100_000);
    expect(layerBudgets(s)).toEqual({
      headerTokens: 2_400, // 200 headers x 12 tokens, under 8% = 8,000
      maxHeaders: 200,
      summaryCount: 5,
      indexTokens: 600, // indexMaxTokens, under 2% = 2,000
      fileViewTokens: 35_000,
      narrativeTokens: 300, // narrativeMaxTokens, under 1% = 1,000
    });
  });
});

describe('engine state headers', () => {
  const header = (seq: number): HeaderRecord => ({ seq, line: `e${seq} step`, tools: ['text'], files: [] });
  const fresh = () => newEngineState(resolveEngineSettings(), charTokenizer, [{ type: 'text', text: 'sys' }], [], emptyNarrative(''));

  it('a new or reset state has no headers', () => {
    const state = fresh();
    expect(activeHeaders(state)).toEqual([]);
    state.headers = [header(1), header(2)];
    resetEngineState(state, emptyNarrative(''));
    expect(activeHeaders(state)).toEqual([]);
  });

  it('activeHeaders skips the holes superseded exchanges leave, stored or sparse, up to throughSeq', () => {
    const state = fresh();
    state.headers = [header(1), undefined, header(3), undefined, header(5)];
    state.headers[7] = header(8);
    expect(activeHeaders(state).map((h) => h.seq)).toEqual([1, 3, 5, 8]);
    expect(activeHeaders(state, 4).map((h) => h.seq)).toEqual([1, 3]);
  });
});

describe('model windows', () => {
  it('knows Claude models by prefix and falls back to a safe default', () => {
    expect(contextWindowFor('claude-sonnet-4-5-20250929')).toBe(200_000);
    expect(contextWindowFor('claude-opus-4-7')).toBe(200_000);
    expect(contextWindowFor('deepseek/deepseek-chat')).toBe(64_000);
    expect(contextWindowFor('some-new-model')).toBe(DEFAULT_CONTEXT_WINDOW);
    expect(contextWindowFor(undefined)).toBe(DEFAULT_CONTEXT_WINDOW);
  });
});

describe('usage', () => {
  it('computes available, percent and the green/yellow/red band on the usable window', () => {
    expect(bandFor(60.9)).toBe('green');
    expect(bandFor(61)).toBe('yellow');
    expect(bandFor(85.9)).toBe('yellow');
    expect(bandFor(86)).toBe('red');
    const u = computeUsage(95_904, 200_000, 8_192, []);
    expect(u.available).toBe(200_000 - 8_192 - 95_904);
    expect(u.percent).toBe(50);
    expect(u.band).toBe('green');
  });
});

describe('protocol blocks in answers', () => {
  it('reads housekeeping and context requests, and reports malformed blocks without throwing', () => {
    const parsed = parseProtocolBlocks(
      'Done. <housekeeping>{"summaries":{"e3":"fixed parser"}}</housekeeping> <context_request>{"ids":["e1"],"format":"full"}</context_request> <context_request>{oops}</context_request> <context_request>{"ids":[]}</context_request>',
    );
    expect(parsed.housekeeping?.summaries).toEqual({ e3: 'fixed parser' });
    expect(parsed.contextRequests).toEqual([{ ids: ['e1'], format: 'full' }]);
    expect(parsed.problems).toHaveLength(2);
    expect(parsed.problems[0]).toMatch(/not valid JSON/);
  });

  it('defaults the retrieval format to summary', () => {
    expect(parseProtocolBlocks('<context_request>{"ids":["e2"]}</context_request>').contextRequests[0]!.format).toBe('summary');
  });
});
