import { describe, expect, it } from 'vitest';
import { sessionGrowth } from '../../src/engine/contextPreset';
import { effectiveBudget, lowWatermark, sessionBudget, sessionLowWatermark } from '../../src/engine/engineState';
import { resolveEngineSettings } from '../../src/shared/engineSettings';
import type { Message } from '../../src/shared/messages';
import { assistant, drive, makeEngine, text, toolResult, toolUse, user } from '../support/engineHarness';

const at200k = resolveEngineSettings({ contextWindow: 200_000 });
const base = effectiveBudget(at200k);
/** promptBudgetPercent of (window - reserve): as far as the window lets the budget grow. */
const cap = Math.floor(0.8 * (200_000 - at200k.reservedOutputTokens));
const SESSION_GROWTH = sessionGrowth(at200k);
const state = (historyTokens: number, settings = at200k) => ({ settings, historyTokens });

describe('a budget that follows the session (issue 19)', () => {
  it('keeps the base budget and watermark while the history is short', () => {
    const short = Math.floor(base / SESSION_GROWTH.historyShare);
    expect(sessionBudget(state(0))).toBe(base);
    expect(sessionBudget(state(short))).toBe(base);
    expect(sessionLowWatermark(state(short))).toBe(lowWatermark(at200k));
  });

  it('grows with the history past that, up to the share of the window the settings allow', () => {
    const long = Math.floor(SESSION_GROWTH.growsPast * base) + 10_000;
    expect(sessionBudget(state(long))).toBe(Math.floor(SESSION_GROWTH.historyShare * long));
    expect(sessionBudget(state(long + 20_000))).toBeGreaterThan(sessionBudget(state(long)));
    expect(sessionBudget(state(2_000_000))).toBe(cap);
    // a small window leaves no room to grow: the base budget is already its share
    const at32k = resolveEngineSettings({ contextWindow: 32_000 });
    expect(sessionBudget(state(2_000_000, at32k))).toBe(effectiveBudget(at32k));
  });

  it('raises the low watermark towards grownLowPercent of the grown budget, reached at twice the base', () => {
    // full-recall grows from the first exchange, so its budget passes through 1.5x the base
    const recall = resolveEngineSettings({ contextWindow: 200_000, contextPreset: 'full-recall' });
    const g = sessionGrowth(recall);
    const half = { settings: recall, historyTokens: Math.floor((base * 1.5) / g.historyShare) };
    const midPercent = (recall.lowWatermarkPercent + g.grownLowPercent) / 2;
    expect(sessionLowWatermark(half)).toBe(Math.floor((midPercent / 100) * sessionBudget(half)));
    // balanced starts growing past 2.5x the base: its low watermark is grownLowPercent at once
    const long = Math.floor(SESSION_GROWTH.growsPast * base) + 10_000;
    expect(sessionLowWatermark(state(long))).toBe(Math.floor((SESSION_GROWTH.grownLowPercent / 100) * sessionBudget(state(long))));
    expect(sessionLowWatermark(state(2_000_000))).toBe(Math.floor((SESSION_GROWTH.grownLowPercent / 100) * cap));
  });

  it('in a long session, sends more than the base budget and keeps a large file read whole that a short one cuts', async () => {
    const { engine } = makeEngine({ contextWindow: 200_000 });
    const file = Array.from({ length: 1_500 }, (_, l) => `export const line${l} = compute(${l});`).join('\n');
    const middle = 'export const line750 = compute(750);';
    const messages: Message[] = [user(text('Refactor the renderer.'))];
    for (let i = 1; i <= 70; i++) {
      messages.push(assistant(toolUse(`r${i}`, 'Read', { file_path: `src/part${i}.ts` })));
      messages.push(user(toolResult(`r${i}`, file.replaceAll('compute', `compute${i}`))));
    }
    messages.push(assistant(text('done')));
    const turns = await drive(engine, messages);
    const first = turns[1]!;
    const last = turns[turns.length - 1]!;
    expect(first.budget).toBeLessThanOrEqual(base);
    expect(JSON.stringify(first.request)).not.toContain(middle.replace('compute', 'compute1'));
    expect(last.budget).toBeGreaterThan(base);
    expect(Math.max(...turns.map((t) => t.tokens))).toBeGreaterThan(base);
    expect(JSON.stringify(last.request)).toContain(middle.replace('compute', 'compute70'));
    for (const t of turns) expect(t.tokens).toBeLessThanOrEqual(t.budget);
  });

  it('keeps a file read whole, however many lines, when it fits a quarter of the budget; cuts a larger one to head and tail', async () => {
    const { engine } = makeEngine({ contextWindow: 200_000 });
    const lines = (n: number, tag: string) => Array.from({ length: n }, (_, l) => `const ${tag}${l} = ${l};`).join('\n');
    // about 15 characters a line, four a token: 1,200 lines are ~4.7k tokens (under 38k / 4), 4,000 lines ~15.6k (over it)
    const fits = lines(1_200, 'small');
    const over = lines(4_000, 'large');
    const turns = await drive(engine, [
      user(text('Read both files.')),
      assistant(toolUse('a', 'Read', { file_path: 'src/small.ts' }), toolUse('b', 'Read', { file_path: 'src/large.ts' })),
      user(toolResult('a', fits), toolResult('b', over)),
      assistant(text('done')),
    ]);
    const sent = JSON.stringify(turns[1]!.request);
    expect(turns[1]!.budget).toBeLessThanOrEqual(base);
    expect(sent).toContain('const small600 = 600;');
    expect(sent).not.toContain('const large2000 = 2000;');
    expect(sent).toContain('const large3999 = 3999;');
  });
});
