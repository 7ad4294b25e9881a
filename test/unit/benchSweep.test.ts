import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveEngineSettings } from '../../src/shared/engineSettings';
import { makeTempDir } from '../../src/adapters/tempFiles';
import { runBench } from '../../src/cli/bench/benchCommand';
import { STRATEGY_NAMES } from '../../src/cli/bench/benchSession';
import { frontierSvg, paretoFrontier } from '../../src/cli/bench/frontierPlot';
import { renameSession, sessionLines } from '../support/renameSession';

const temp = makeTempDir('strata-sweep-');
afterAll(() => temp.remove());

/** 14 reads and edits: about 17k tokens in all, over a 12k window, far under 200k. */
const dir = join(temp.dir, 'sessions');
mkdirSync(dir);
writeFileSync(join(dir, 'tiny.jsonl'), sessionLines(renameSession(14)));
const windows = [12_000, 200_000];
/** The long panel's folder: the tiny session twice as long (about 34k tokens), over its window. */
const longDir = join(temp.dir, 'long');
mkdirSync(longDir);
writeFileSync(join(longDir, 'tiny-long.jsonl'), sessionLines(renameSession(28)));
const longWindows = [20_000];

async function sweep() {
  const lines: string[] = [];
  const json = join(temp.dir, 'sweep.json');
  const plot = join(temp.dir, 'frontier.svg');
  const sessionPlot = join(temp.dir, 'session.svg');
  const { summaries, long } = await runBench({ sessions: dir, windows, long: { sessions: longDir, windows: longWindows }, settingsAt: (w) => resolveEngineSettings({ contextWindow: w }), scale: [], json, plot, sessionPlot }, (l) => lines.push(l));
  return { summaries, long, lines, json: JSON.parse(readFileSync(json, 'utf8')) as Record<string, unknown>, plot: readFileSync(plot, 'utf8'), sessionPlot: readFileSync(sessionPlot, 'utf8') };
}
const run = sweep();

describe('bench --windows: every strategy at each window in one run', () => {
  it('runs each window with its own engine settings, so the budget in force follows the window', async () => {
    const { summaries } = await run;
    expect(summaries.map((s) => s.window)).toEqual(windows);
    expect(summaries.map((s) => s.settings.contextWindow)).toEqual(windows);
    const [small, large] = summaries;
    expect(small!.strataBudget).toBeLessThanOrEqual(12_000 - small!.settings.reservedOutputTokens);
    expect(small!.strataBudget).toBeLessThan(large!.strataBudget);
    expect(small!.pooled.find((r) => r.strategy === 'strata')!.peakTokens).toBeLessThanOrEqual(small!.strataBudget);
  });

  it("scales the rivals' triggers with the window: the sliding window compacts at 12k, nobody does at 200k", async () => {
    const { summaries } = await run;
    const [small, large] = summaries;
    const at = (s: typeof small, name: string) => s!.pooled.find((r) => r.strategy === name)!;
    expect(at(small, 'window').compactedTurns).toBeGreaterThan(0);
    expect(at(small, 'window').peakTokens).toBeLessThan(12_000);
    expect(at(large, 'window').compactedTurns).toBe(0);
    // full history does not depend on the window
    expect(at(small, 'full').cost).toBe(at(large, 'full').cost);
    expect(small!.verdict.basis).toBe('rivals');
    expect(large!.verdict.basis).toBe('absolute');
  });

  it('prints one table per window, then its verdict and moonshot lines', async () => {
    const { lines, summaries } = await run;
    const text = lines.join('\n');
    for (const s of summaries) {
      const at = lines.findIndex((l) => l.startsWith(`== window ${s.window} tokens`));
      expect(at).toBeGreaterThanOrEqual(0);
      const table = lines[at + 1]!.split('\n');
      expect(table.slice(1).map((l) => l.split(/\s+/)[0])).toEqual([...STRATEGY_NAMES]);
      expect(lines.slice(at, at + 5)).toEqual(expect.arrayContaining([s.verdict.line, s.moonshot.line]));
    }
    expect(text).toMatch(/^verdict @12000: strata /m);
    expect(text).toMatch(/^moonshot @200000: /m);
  });

  it('writes every window, verdict and moonshot to --json', async () => {
    const { json, summaries } = await run;
    expect(Object.keys(json).sort()).toEqual(['long', 'moonshots', 'scaling', 'verdicts', 'windows']);
    const ws = json.windows as Array<Record<string, unknown>>;
    expect(ws.map((w) => w.window)).toEqual(windows);
    for (const w of ws) {
      expect(Object.keys(w).sort()).toEqual(['moonshot', 'pooled', 'sessions', 'settings', 'strataBudget', 'strataVsFull', 'verdict', 'window']);
      expect((w.pooled as Array<{ strategy: string }>).map((r) => r.strategy)).toEqual([...STRATEGY_NAMES]);
      expect((w.sessions as Array<{ session: string }>).map((s) => s.session)).toEqual(['tiny']);
      expect(Object.keys(w.verdict as object)).toEqual(expect.arrayContaining(['basis', 'dominates', 'beatenOnCost', 'beatenOnSpan', 'missed', 'worstSession', 'line']));
      expect(Object.keys(w.moonshot as object)).toEqual(expect.arrayContaining(['target', 'met', 'costOver', 'spanShort', 'line']));
    }
    expect(json.verdicts).toEqual(summaries.map((s) => ({ window: s.window, dominates: s.verdict.dominates, line: s.verdict.line })));
  });

  it('draws one frontier panel per window with every strategy a point, and keeps the per-session plot', async () => {
    const { plot, sessionPlot } = await run;
    expect(plot.startsWith('<svg')).toBe(true);
    expect(plot.trimEnd().endsWith('</svg>')).toBe(true);
    expect(plot).toContain('window 12,000 tokens');
    expect(plot).toContain('window 200,000 tokens');
    expect(plot).toContain('long sessions, window 20,000 tokens');
    const panels = windows.length + longWindows.length;
    const drawn = [...plot.matchAll(/data-strategy="([^"]+)"/g)].flatMap((m) => m[1]!.split(','));
    for (const name of STRATEGY_NAMES) expect(drawn.filter((d) => d === name)).toHaveLength(panels);
    expect(plot.match(/class="frontier"/g)).toHaveLength(panels);
    expect(sessionPlot).toContain('tiny, window 12000');
    expect(sessionPlot.match(/<polyline/g)).toHaveLength(2 * STRATEGY_NAMES.length);
  });
});

describe('bench: the long-session panel', () => {
  it('runs every strategy on the long sessions at each long window, and says which day sessions it could not build', async () => {
    const { long, lines } = await run;
    expect(long.map((w) => w.window)).toEqual(longWindows);
    const [w] = long;
    expect(w!.sessions.map((s) => s.session)).toEqual(['tiny-long']);
    expect(w!.pooled.map((r) => r.strategy)).toEqual([...STRATEGY_NAMES]);
    expect(w!.pooled.find((r) => r.strategy === 'full')!.overWindow).toBeGreaterThan(0);
    expect(lines.join('\n')).toContain(`the day sessions built from ${dir} (not built: day-cc-cclog-sample (no cc-cclog-sample-fe869ecb, cc-cclog-sample-37f83ec9, cc-cclog-sample-12a546d1), day-mini-sqlfluff`);
  });

  it('prints the table, per-session cost and span, the long verdict, the moonshot and strata\'s speed and heap', async () => {
    const { long, lines } = await run;
    const w = long[0]!;
    const at = lines.findIndex((l) => l.startsWith('== long sessions, window 20000 tokens'));
    expect(at).toBeGreaterThan(0);
    expect(lines[at + 1]!.split('\n').slice(1).map((l) => l.split(/\s+/)[0])).toEqual([...STRATEGY_NAMES]);
    expect(lines[at + 3]).toMatch(/^per session, span recall strata \/ best rival that fits: tiny-long \d\.\d{3} \/ \d\.\d{3} \(\w/);
    expect(lines[at + 4]).toBe(w.verdict.line);
    expect(w.verdict.line).toMatch(/^long verdict @20000: strata (meets|misses) the goal/);
    expect(lines[at + 5]).toBe(w.moonshot.line);
    expect(lines[at + 6]).toMatch(/tiny-long p50 \d+\.\d\d \/ p99 \d+\.\d\d ms, peak heap [1-9]\d* MB/);
    expect(lines).toContain(`long verdicts: @20000 ${w.verdict.met ? 'meets the goal' : 'misses the goal'}`);
  });

  it('writes the long windows to --json', async () => {
    const { json, long } = await run;
    const ws = json.long as Array<Record<string, unknown>>;
    expect(ws.map((w) => w.window)).toEqual(longWindows);
    expect((ws[0]!.verdict as { line: string }).line).toBe(long[0]!.verdict.line);
  });
});

describe('frontier plot', () => {
  it('keeps the points no other point beats on both axes, cheapest first', () => {
    const points = [
      { strategy: 'full', cost: 1, span: 1, fits: true },
      { strategy: 'window', cost: 0.7, span: 0.92, fits: true },
      { strategy: 'cline', cost: 0.78, span: 0.9, fits: true },
      { strategy: 'strata', cost: 0.86, span: 0.88, fits: true },
      { strategy: 'condense', cost: 0.76, span: 0.95, fits: true },
    ];
    expect(paretoFrontier(points).map((p) => p.strategy)).toEqual(['window', 'condense', 'full']);
  });

  it('shares one dot between strategies at the same place and labels costs off the chart with their value', () => {
    const svg = frontierSvg([{ window: 200_000, points: [{ strategy: 'full', cost: 1, span: 1, fits: true }, { strategy: 'condense', cost: 1, span: 1, fits: true }, { strategy: 'masking', cost: 4.22, span: 0.89, fits: true }, { strategy: 'strata', cost: 0.7, span: 0.93, fits: true }] }]);
    expect(svg.match(/<circle/g)).toHaveLength(3);
    expect(svg).toContain('>full, condense<');
    expect(svg).toContain('masking (4.22)');
  });

  it('draws a strategy that overflows the window hollow and leaves it off the frontier', () => {
    const svg = frontierSvg([{ window: 32_000, points: [{ strategy: 'full', cost: 1, span: 1, fits: false }, { strategy: 'window', cost: 0.7, span: 0.92, fits: true }, { strategy: 'strata', cost: 0.86, span: 0.88, fits: true }] }]);
    expect(svg).toContain('full (over window)');
    expect(svg).toMatch(/data-strategy="full"[^>]*fill="white"/);
    const frontier = /class="frontier"[^>]*points="([^"]*)"/.exec(svg)![1]!.trim().split(' ');
    expect(frontier).toHaveLength(1);
  });
});
