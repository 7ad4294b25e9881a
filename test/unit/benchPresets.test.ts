import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CONTEXT_PRESET_NAMES, resolveEngineSettings } from '../../src/shared/engineSettings';
import { makeTempDir } from '../../src/adapters/tempFiles';
import { runBench } from '../../src/cli/bench/benchCommand';
import { renameSession, sessionLines } from '../support/renameSession';

const temp = makeTempDir('strata-presets-');
afterAll(() => temp.remove());

const shortDir = join(temp.dir, 'short');
const longDir = join(temp.dir, 'long');
mkdirSync(shortDir);
mkdirSync(longDir);
writeFileSync(join(shortDir, 'tiny.jsonl'), sessionLines(renameSession(6)));
writeFileSync(join(longDir, 'tiny-long.jsonl'), sessionLines(renameSession(28)));
// A small base budget, so the ~34k-token long session is long against it and the presets part ways.
const base = { promptBudgetTokens: 4_000 };

async function bench() {
  const lines: string[] = [];
  const json = join(temp.dir, 'presets.json');
  const outcome = await runBench(
    { sessions: shortDir, windows: [200_000], long: { sessions: longDir, windows: [200_000] }, settingsAt: (w) => resolveEngineSettings({ ...base, contextWindow: w }), scale: [], json, presets: true },
    (l) => lines.push(l),
  );
  return { ...outcome, lines, json: JSON.parse(readFileSync(json, 'utf8')) as { presets: unknown[] } };
}
const run = bench();

describe('bench --presets: Strata under every strata.contextPreset, the rivals once', () => {
  it('gives one point per panel, window and preset; the default preset is the run itself', async () => {
    const { presets, summaries, long } = await run;
    expect(presets.map((p) => `${p.panel}@${p.window}:${p.preset}`)).toEqual([
      ...CONTEXT_PRESET_NAMES.map((p) => `short@200000:${p}`),
      ...CONTEXT_PRESET_NAMES.map((p) => `long@200000:${p}`),
    ]);
    const own = resolveEngineSettings(base).contextPreset;
    const strata = (rows: typeof summaries[number]['pooled']) => rows.find((r) => r.strategy === 'strata')!;
    const ownShort = presets.find((p) => p.panel === 'short' && p.preset === own)!;
    const ownLong = presets.find((p) => p.panel === 'long' && p.preset === own)!;
    expect([ownShort.cost, ownShort.span]).toEqual([strata(summaries[0]!.pooled).costVsFull, strata(summaries[0]!.pooled).spanRecall]);
    expect([ownLong.cost, ownLong.span, ownLong.met]).toEqual([strata(long[0]!.pooled).costVsFull, strata(long[0]!.pooled).spanRecall, long[0]!.verdict.met]);
  });

  it('runs each preset with its own growth: on the long session the budget grows economy < balanced <= full-recall', async () => {
    const { presets } = await run;
    const budget = (preset: string) => presets.find((p) => p.panel === 'long' && p.preset === preset)!.budget;
    expect(budget('economy')).toBeLessThan(budget('balanced'));
    // both run half ahead of the history; full-recall from the first exchange, balanced once it is long
    expect(budget('balanced')).toBeLessThanOrEqual(budget('full-recall'));
    const cost = (preset: string) => presets.find((p) => p.panel === 'long' && p.preset === preset)!.cost;
    expect(cost('economy')).toBeLessThan(cost('full-recall'));
  });

  it('prints the presets table, one line per point with its verdict, and writes it to --json', async () => {
    const { presets, lines, json } = await run;
    const at = lines.findIndex((l) => l.startsWith('presets (strata.contextPreset'));
    expect(at).toBeGreaterThan(0);
    expect(lines[at + 1]).toMatch(/^panel\s+window\s+preset\s+budget\s+cost\s+span\s+ref\s+far\s+verdict$/);
    const rows = lines.slice(at + 2, at + 2 + presets.length);
    rows.forEach((row, i) => {
      const p = presets[i]!;
      expect(row.split(/\s{2,}/).slice(0, 3)).toEqual([p.panel, String(p.window), p.preset === resolveEngineSettings(base).contextPreset ? `${p.preset} *` : p.preset]);
      expect(row).toContain(`${p.cost.toFixed(3)}  ${p.span.toFixed(3)}`);
      expect(row.endsWith(p.verdict)).toBe(true);
    });
    expect(json.presets).toEqual(JSON.parse(JSON.stringify(presets)));
  });
});
