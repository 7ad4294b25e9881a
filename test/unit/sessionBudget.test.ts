import { describe, expect, it } from 'vitest';
import { sessionGrowth } from '../../src/engine/contextPreset';
import { effectiveBudget, lowWatermark, sessionBudget, sessionLowWatermark } from '../../src/engine/engineState';
import { resolveEngineSettings } from '../../src/shared/engineSettings';
import type { Message } from '../../src/shared/messages';
import { assistant, charTokenizer, drive, makeEngine, text, toolResult, toolUse, user } from '../support/engineHarness';

const at200k = resolveEngineSettings({ contextWindow: 200_000 });
const base = effectiveBudget(at200k);
/** promptBudgetPercent of (window - reserve): as far as the window lets the budget grow. */
const cap = Math.floor(0.8 * (200_000 - at200k.reservedOutputTokens));
const SESSION_GROWTH = sessionGrowth(at200k);
const state = (historyTokens: number, settings = at200k, largestFileRead = 0, largeFileReads: Record<string, number> = {}) => ({ settings, historyTokens, largestFileRead, largeFileReads });
/** Exchanges that run the tests, parts `from` to `to`, each answered with `output(part)`. */
const testRuns = (from: number, to: number, output: (part: number) => string): Message[] =>
  Array.from({ length: to - from + 1 }, (_, k) => from + k).flatMap((i) => [assistant(toolUse(`t${i}`, 'Bash', { command: `npm test -- part ${i}` })), user(toolResult(`t${i}`, output(i)))]);

/** Drives `messages` and a last 'done' answer at a 64k window: every turn, and the last request's first message (<strata_context>) as JSON. */
async function contextAt64k(messages: Message[]) {
  // at 64k the window's share (44,646 tokens) is the raised base: the budget cannot grow past it, so steps fold
  const turns = await drive(makeEngine({ contextWindow: 64_000 }).engine, [...messages, assistant(text('done'))]);
  return { turns, context: JSON.stringify(turns[turns.length - 1]!.request.messages[0]) };
}

describe('a budget that follows the session (issue 19)', () => {
  it('keeps the base budget and watermark while the history is short', () => {
    const short = Math.floor(base / SESSION_GROWTH.historyShare);
    expect(sessionBudget(state(0))).toBe(base);
    expect(sessionBudget(state(short))).toBe(base);
    expect(sessionLowWatermark(state(short))).toBe(lowWatermark(at200k));
  });

  it('grows with the history past that, up to the share of the window the settings allow', () => {
    const long = Math.floor(SESSION_GROWTH.growsPast * base) + 2_000;
    expect(sessionBudget(state(long))).toBe(Math.floor(SESSION_GROWTH.historyShare * long));
    expect(sessionBudget(state(long + 5_000))).toBeGreaterThan(sessionBudget(state(long)));
    expect(sessionBudget(state(2_000_000))).toBe(cap);
    // a small window leaves no room to grow: the base budget is already its share
    const at32k = resolveEngineSettings({ contextWindow: 32_000 });
    expect(sessionBudget(state(2_000_000, at32k))).toBe(effectiveBudget(at32k));
  });

  it('raises the low watermark towards grownLowPercent of the grown budget, reached at twice the base', () => {
    // full-recall grows from the first exchange, so its budget passes through 1.5x the base
    const recall = resolveEngineSettings({ contextWindow: 200_000, contextPreset: 'full-recall' });
    const g = sessionGrowth(recall);
    const half = { settings: recall, historyTokens: Math.floor((base * 1.5) / g.historyShare), largestFileRead: 0, largeFileReads: {} };
    const midPercent = (recall.lowWatermarkPercent + g.grownLowPercent) / 2;
    expect(sessionLowWatermark(half)).toBe(Math.floor((midPercent / 100) * sessionBudget(half)));
    // balanced starts growing past 2.5x the base: its low watermark is grownLowPercent at once
    const long = Math.floor(SESSION_GROWTH.growsPast * base) + 2_000;
    expect(sessionLowWatermark(state(long))).toBe(Math.floor((SESSION_GROWTH.grownLowPercent / 100) * sessionBudget(state(long))));
    expect(sessionLowWatermark(state(2_000_000))).toBe(Math.floor((SESSION_GROWTH.grownLowPercent / 100) * cap));
  });

  it('in a long session, sends more than the base budget: the history, past 2.5x the base', async () => {
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
    // the first read already raised the base to hold it (four times its size), the history then grew past that
    expect(last.budget).toBeGreaterThan(first.budget);
    expect(last.budget).toBeGreaterThan(2.5 * base);
    expect(Math.max(...turns.map((t) => t.tokens))).toBeGreaterThan(base);
    expect(JSON.stringify(last.request)).toContain(middle.replace('compute', 'compute70'));
    for (const t of turns) expect(t.tokens).toBeLessThanOrEqual(t.budget);
  });

  it('keeps a file read whole, however many lines, when it fits a quarter of the budget: a larger one raises the budget to hold it, as far as the window allows', async () => {
    const lines = (n: number, tag: string) => Array.from({ length: n }, (_, l) => `const ${tag}${l} = ${l};`).join('\n');
    // about 20 characters a line, four a token: 1,200 lines are ~6k tokens (under 38k / 4), 2,400 lines ~13.2k (over it)
    const fits = lines(1_200, 'small');
    const over = lines(2_400, 'large');
    const readBoth = [
      user(text('Read both files.')),
      assistant(toolUse('a', 'Read', { file_path: 'src/small.ts' }), toolUse('b', 'Read', { file_path: 'src/large.ts' })),
      user(toolResult('a', fits), toolResult('b', over)),
      assistant(text('done')),
    ];
    const at200 = await drive(makeEngine({ contextWindow: 200_000 }).engine, readBoth);
    const sent = JSON.stringify(at200[1]!.request);
    expect(sent).toContain('const small600 = 600;');
    expect(sent).toContain('const large1200 = 1200;');
    expect(at200[1]!.budget).toBeGreaterThan(base);
    expect(at200[1]!.budget).toBeGreaterThanOrEqual(4 * 0.95 * charTokenizer.count(over));
    // at 64k the window's share (44,646 tokens) cannot hold four times 13.2k: the large file is cut head and tail
    const at64 = await drive(makeEngine({ contextWindow: 64_000 }).engine, readBoth);
    const cut = JSON.stringify(at64[1]!.request);
    expect(cut).toContain('const small600 = 600;');
    expect(cut).not.toContain('const large1200 = 1200;');
    expect(cut).toContain('const large2399 = 2399;');
  });

  it('sizes the base by the largest file the session read: the budget, its low watermark and the cap', () => {
    expect(sessionBudget(state(0, at200k, 12_000))).toBe(48_000);
    expect(sessionLowWatermark(state(0, at200k, 12_000))).toBe(Math.floor((at200k.lowWatermarkPercent / 100) * 48_000));
    expect(sessionBudget(state(0, at200k, 5_000))).toBe(base);
    expect(sessionBudget(state(0, at200k, 100_000))).toBe(cap);
    // the history's growth still counts from the settings' base, and takes over once larger
    const long = Math.floor(SESSION_GROWTH.growsPast * base) + 2_000;
    expect(sessionBudget(state(long, at200k, 12_000))).toBe(Math.floor(SESSION_GROWTH.historyShare * long));
  });

  it('grows a session that read whole a file the settings\' base could not hold from the start, not only past 2.5x the base', () => {
    const early = 60_000;
    expect(early).toBeLessThan(SESSION_GROWTH.growsPast * base);
    // a 12k read raised the base to 48k; the same history without a large read holds it
    expect(sessionBudget(state(early, at200k, 12_000))).toBe(48_000);
    expect(sessionBudget(state(early, at200k, 12_000, { 'src/big.ts': 12_000 }))).toBe(Math.floor(SESSION_GROWTH.historyShare * early));
    // a read the base holds whole (under a quarter of it) is no such signal
    expect(sessionBudget(state(early, at200k, 9_000))).toBe(base);
  });

  it('shows a large file whole in its view once its read is folded, beside the other files: the views grow by it', async () => {
    // ~10.9k tokens: over a quarter of the settings' base (40k), under a quarter of the raised one (44,646), and with the small file over the views' 35% share (14k)
    const large = Array.from({ length: 1_950 }, (_, l) => `const large${l} = ${l};`).join('\n');
    const small = Array.from({ length: 400 }, (_, l) => `const small${l} = ${l};`).join('\n');
    const messages: Message[] = [
      user(text('Read the files, then run the tests.')),
      assistant(toolUse('r', 'Read', { file_path: 'src/large.ts' })),
      user(toolResult('r', large)),
      assistant(toolUse('s', 'Read', { file_path: 'src/small.ts' })),
      user(toolResult('s', small)),
      ...testRuns(1, 40, (i) => `run ${i}: ${'ok '.repeat(2_500)}`),
    ];
    const { context } = await contextAt64k(messages);
    // views show only folded reads: both have left working memory
    expect(context).toContain('### src/small.ts (as shown in e3)');
    expect(context).toContain('### src/large.ts (as shown in e2)');
    expect(context).toContain('const large1200 = 1200;');
    expect(context).toContain('const small200 = 200;');
  });

  it('once the budget grows past the base, takes back into working memory exchanges the base had folded', async () => {
    const { engine } = makeEngine({ contextWindow: 200_000 });
    // ~3k tokens an output, each with a line no header or summary carries (in its middle)
    const output = (i: number) => Array.from({ length: 120 }, (_, l) => (l === 60 ? `marker-${i}-kept-verbatim` : `run ${i} line ${l}: ${'ok '.repeat(30)}`)).join('\n');
    const messages: Message[] = [user(text('Run the checks one by one.'))];
    for (let i = 1; i <= 45; i++) {
      messages.push(assistant(toolUse(`t${i}`, 'Bash', { command: `npm run check -- ${i}` })));
      messages.push(user(toolResult(`t${i}`, output(i))));
    }
    messages.push(assistant(text('done')));
    const turns = await drive(engine, messages);
    const grew = turns.findIndex((t) => t.budget > base);
    expect(grew).toBeGreaterThan(1);
    const before = JSON.stringify(turns[grew - 1]!.request);
    const after = JSON.stringify(turns[grew]!.request);
    // outputs the base had folded away (none is this turn's own input, e${grew + 1}'s)
    const back = Array.from({ length: grew }, (_, i) => `marker-${i}-kept-verbatim`).filter((m) => !before.includes(m) && after.includes(m));
    expect(back.length).toBeGreaterThan(3);
    for (const t of turns) expect(t.tokens).toBeLessThanOrEqual(t.budget);
  });

  it('shows two large files whole in their views once their reads are folded: the views grow by every file the base could not hold, and a step leaves them room', async () => {
    // ~10.9k and ~10.4k tokens: both over a quarter of the settings' base; together (21k) over the raised base's low watermark (13.4k)
    const file = (tag: string) => Array.from({ length: 1_950 }, (_, l) => `const ${tag}${l} = ${l};`).join('\n');
    const messages: Message[] = [
      user(text('Read both renderers, then run the tests.')),
      assistant(toolUse('a', 'Read', { file_path: 'src/alpha.ts' }), toolUse('b', 'Read', { file_path: 'src/beta.ts' })),
      user(toolResult('a', file('alpha')), toolResult('b', file('beta'))),
      ...testRuns(1, 10, (i) => `run ${i}: ${'ok '.repeat(1_300)}`),
      // a large answer (a plan written whole, ~11k tokens) takes the prompt past the budget: the step
      // must keep it, so only views that count outside the watermarks survive the step
      assistant(toolUse('w', 'Write', { file_path: 'docs/plan.md', content: 'plan step '.repeat(4_400) })),
      user(toolResult('w', 'written')),
      ...testRuns(11, 13, (i) => `run ${i}: ok`),
    ];
    const { turns, context } = await contextAt64k(messages);
    expect(turns.some((t) => t.events.some((e) => e.type === 'relayer'))).toBe(true);
    expect(context).toContain('### src/alpha.ts (as shown in e2)');
    expect(context).toContain('### src/beta.ts (as shown in e2)');
    expect(context).toContain('const alpha1200 = 1200;');
    expect(context).toContain('const beta1200 = 1200;');
  });
});
