import { describe, expect, it } from 'vitest';
import { MAX_ANSWER_TOKENS, ModelProfileResolver, sessionEngineSettings, tableProfile } from '../../src/task/modelProfiles';
import type { ModelClient } from '../../src/task/modelClient';
import { priceFor } from '../../src/task/pricing';
import { contextWindowFor, maxOutputFor } from '../../src/engine/modelWindows';

// The price list as published, USD per million tokens (input, cache write, cache read, output),
// and the profile figures a session starts from (found by mutation testing, task-rest: an entry
// dropped from the table fell back to an older model's price and no test saw it).

describe('the price table, as published', () => {
  it.each([
    ['claude-fable-5-1', [10, 12.5, 0.25, 50]],
    ['claude-mythos-5-1', [10, 12.5, 0.25, 50]],
    ['claude-fable-5', [10, 12.5, 1, 50]],
    ['claude-mythos-5', [10, 12.5, 1, 50]],
    ['claude-opus-5-5', [4, 5, 0.2, 20]],
    ['claude-opus-5', [5, 6.25, 0.5, 25]],
    ['claude-sonnet-5-5', [2, 2.5, 0.1, 10]],
    ['claude-sonnet-5', [2, 2.5, 0.2, 10]],
    ['claude-opus-4-8', [5, 6.25, 0.5, 25]],
    ['claude-opus-4-7', [5, 6.25, 0.5, 25]],
    ['claude-opus-4-6', [5, 6.25, 0.5, 25]],
    ['claude-opus-4-5-20251101', [5, 6.25, 0.5, 25]],
    ['claude-opus-4-1', [15, 18.75, 1.5, 75]],
    ['claude-sonnet-4-6', [3, 3.75, 0.3, 15]],
    ['claude-sonnet-4-5-20250929', [3, 3.75, 0.3, 15]],
    ['claude-haiku-4-5', [1, 1.25, 0.1, 5]],
    ['claude-3-7-sonnet-20250219', [3, 3.75, 0.3, 15]],
    ['claude-3-5-sonnet-20241022', [3, 3.75, 0.3, 15]],
    ['claude-3-5-haiku-20241022', [0.8, 1, 0.08, 4]],
    ['claude-3-opus-20240229', [15, 18.75, 1.5, 75]],
    ['claude-3-haiku-20240307', [0.25, 0.3, 0.03, 1.25]],
  ] as const)('%s', (model, [input, cacheWrite, cacheRead, output]) => {
    const price = priceFor(model);
    expect(price).toBeDefined();
    expect(price!.input).toBeCloseTo(input, 9);
    expect(price!.cacheWrite).toBeCloseTo(cacheWrite, 9);
    expect(price!.cacheRead).toBeCloseTo(cacheRead, 9);
    expect(price!.output).toBeCloseTo(output, 9);
  });

  it('long prompts: Sonnet 4 doubles input above 200k tokens; Haiku 5.5 above 100k', () => {
    expect(priceFor('claude-sonnet-4-20250514')?.longPrompt).toEqual({ aboveTokens: 200_000, rates: { input: 6, cacheWrite: 7.5, cacheRead: 0.6000000000000001, output: 22.5 } });
    expect(priceFor('claude-haiku-5-5')?.longPrompt?.aboveTokens).toBe(100_000);
    expect(priceFor('claude-sonnet-4-6')?.longPrompt).toBeUndefined();
  });
});

describe('the profile a session starts from', () => {
  it('the window, the answer room (at most MAX_ANSWER_TOKENS) and the condense point, under what the user set', () => {
    const settings = sessionEngineSettings({ contextWindow: 300_000, maxOutputTokens: 64_000, condensePercent: 70 }, {});
    expect(settings).toMatchObject({ contextWindow: 300_000, reservedOutputTokens: MAX_ANSWER_TOKENS, autoCondensePercent: 70 });
    expect(sessionEngineSettings({ contextWindow: 300_000, maxOutputTokens: 8_000, condensePercent: 70 }, {}).reservedOutputTokens).toBe(8_000);
    expect(sessionEngineSettings({ contextWindow: 300_000, maxOutputTokens: 64_000, condensePercent: 70 }, { autoCondensePercent: 50 }).autoCondensePercent).toBe(50);
  });

  it('the table profile, and a condensing model kept when one is asked for', async () => {
    expect(tableProfile('claude-opus-4-7')).toEqual({ contextWindow: contextWindowFor('claude-opus-4-7'), maxOutputTokens: maxOutputFor('claude-opus-4-7'), condensePercent: 80 });
    const offline = { listModels: async () => { throw new Error('offline'); } } as unknown as ModelClient;
    const resolver = new ModelProfileResolver();
    expect(await resolver.resolve({ model: 'claude-opus-4-7', baseURL: 'http://x', client: offline, condenseModel: 'claude-haiku-4-5' })).toMatchObject({ condenseModel: 'claude-haiku-4-5', source: 'table' });
    expect(await resolver.resolve({ model: 'claude-opus-4-7', baseURL: 'http://x', client: offline })).not.toHaveProperty('condenseModel');
  });
});
