import { describe, expect, it } from 'vitest';
import { resolveEngineSettings } from '../../src/shared/engineSettings';
import { parseProtocolBlocks } from '../../src/shared/protocolSchema';
import { contextWindowFor, DEFAULT_CONTEXT_WINDOW } from '../../src/engine/modelWindows';
import { bandFor, computeUsage } from '../../src/engine/usage';
import { effectiveBudget, lowWatermark } from '../../src/engine/engineState';

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
