import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ModelUsage } from '../../src/task/modelClient';
import { condenseUsd, DEFAULT_MODEL, priceFor, SessionCost, turnCost } from '../../src/task/pricing';

const usage = (inputTokens: number, cacheWriteTokens: number, cacheReadTokens: number, outputTokens: number): ModelUsage => ({
  inputTokens,
  cacheWriteTokens,
  cacheReadTokens,
  outputTokens,
});

describe('pricing', () => {
  it('prices a Sonnet 4.6 turn by kind of token (hand-computed: $3 in, $3.75 write, $0.30 read, $15 out per MTok)', () => {
    // 2,000 x 3 = 6,000; 10,000 x 3.75 = 37,500; 100,000 x 0.30 = 30,000; 1,500 x 15 = 22,500 (micro-USD)
    const cost = turnCost(usage(2_000, 10_000, 100_000, 1_500), 'claude-sonnet-4-6');
    expect(cost.inputUsd).toBeCloseTo(0.006, 10);
    expect(cost.cacheWriteUsd).toBeCloseTo(0.0375, 10);
    expect(cost.cacheReadUsd).toBeCloseTo(0.03, 10);
    expect(cost.outputUsd).toBeCloseTo(0.0225, 10);
    expect(cost.totalUsd).toBeCloseTo(0.096, 10);
    expect(cost.priced).toBe(true);
  });

  it('prices a condensing call from its tokens, as plain input and output (hand-computed for Sonnet 4.6: 5,054 x $3 + 100 x $15 per MTok)', () => {
    expect(condenseUsd({ inputTokens: 5_054, outputTokens: 100 }, 'claude-sonnet-4-6')).toBeCloseTo(0.016662, 10);
    expect(condenseUsd({ inputTokens: 5_054, outputTokens: 100 }, 'a-gateway-model')).toBe(0);
  });

  it('uses the stated rates where a model departs from 1.25x / 0.1x (Sonnet 5.5 reads at $0.10)', () => {
    // 1,000,000 cache-read tokens at $0.10 = $0.10 (0.1x of $2 would give $0.20)
    expect(turnCost(usage(0, 0, 1_000_000, 0), 'claude-sonnet-5-5').totalUsd).toBeCloseTo(0.1, 10);
    // Opus 4 (dated id) matches the claude-opus-4 row: 1M out at $75
    expect(turnCost(usage(0, 0, 0, 1_000_000), 'claude-opus-4-20250514').totalUsd).toBeCloseTo(75, 10);
    // ... while Opus 4.5 has its own row: 1M out at $25
    expect(turnCost(usage(0, 0, 0, 1_000_000), 'claude-opus-4-5-20251101').totalUsd).toBeCloseTo(25, 10);
  });

  it('bills a long prompt at the long-prompt rates (Haiku 5.5 above 100K tokens)', () => {
    // 60,000 in + 50,000 read = 110,000 > 100,000: 60,000 x 0.50 + 50,000 x 0.05 + 1,000 x 2.50 = 35,000 micro-USD
    expect(turnCost(usage(60_000, 0, 50_000, 1_000), 'claude-haiku-5-5').totalUsd).toBeCloseTo(0.035, 10);
    // 60,000 + 40,000 = 100,000, not above: 60,000 x 0.10 + 40,000 x 0.01 + 1,000 x 0.50 = 6,900 micro-USD
    expect(turnCost(usage(60_000, 0, 40_000, 1_000), 'claude-haiku-5-5').totalUsd).toBeCloseTo(0.0069, 10);
  });

  it('says when a model has no price instead of inventing one', () => {
    const cost = turnCost(usage(1_000, 0, 0, 1_000), 'some-gateway/llama');
    expect(cost).toEqual({ inputUsd: 0, cacheWriteUsd: 0, cacheReadUsd: 0, outputUsd: 0, totalUsd: 0, priced: false });
  });

  it('keeps session totals across models, counting unpriced turns', () => {
    const session = new SessionCost();
    session.add(usage(2_000, 10_000, 100_000, 1_500), 'claude-sonnet-4-6'); // $0.096
    session.add(usage(1_000, 0, 0, 200), 'claude-haiku-4-5'); // 1,000 x 1 + 200 x 5 = 2,000 micro-USD
    session.add(usage(5, 0, 0, 5), 'unknown-model');
    const totals = session.totals;
    expect(totals.totalUsd).toBeCloseTo(0.098, 10);
    expect(totals.usage).toEqual(usage(3_005, 10_000, 100_000, 1_705));
    expect(totals.turns).toBe(3);
    expect(totals.unpricedTurns).toBe(1);
  });

  it('defaults to a current Sonnet from the SDK model list that the SDK does not call deprecated', () => {
    // Resolved as Node resolves it, so the test also runs from a copy of the project (Stryker's sandbox).
    const sdk = dirname(createRequire(__filename).resolve('@anthropic-ai/sdk'));
    const modelType = readFileSync(join(sdk, 'resources', 'messages', 'messages.d.ts'), 'utf8').match(/export type Model = ([^;]+);/)?.[1] ?? '';
    expect(modelType).toContain(`'${DEFAULT_MODEL}'`);
    expect(DEFAULT_MODEL).toMatch(/sonnet/);
    const deprecated = readFileSync(join(sdk, 'resources', 'messages', 'messages.js'), 'utf8').match(/const DEPRECATED_MODELS = \{([^}]*)\}/)?.[1];
    expect(deprecated).toBeDefined();
    expect(deprecated).not.toContain(`'${DEFAULT_MODEL}'`);
    expect(priceFor(DEFAULT_MODEL)).toBeDefined();
  });
});
