import { describe, expect, it } from 'vitest';
import { HeaderLines, renderArchiveBlock } from '../../src/engine/archiveBlock';
import type { HeaderRecord } from '../../src/engine/archiveBlock';
import { ReferenceIndex } from '../../src/engine/referenceIndex';

const count = (s: string) => Math.ceil(s.length / 4);

function records(n: number): HeaderRecord[] {
  return Array.from({ length: n }, (_, i) => ({ seq: i + 1, line: `e${i + 1} 09:00 Read a${i % 7}.ts → ok`, tools: [i % 2 ? 'Read' : 'Bash'], files: [`src/a${i % 7}.ts`] }));
}

describe('L2 header lines', () => {
  it('sends every header while they fit maxHeaders', () => {
    expect(new HeaderLines().render(records(200), 200)).toHaveLength(200);
  });

  it('folds the oldest into aligned ranges when over, never exceeding maxHeaders, newest kept one per line', () => {
    const lines = new HeaderLines().render(records(1_000), 200);
    expect(lines.length).toBeLessThanOrEqual(200);
    expect(lines[0]).toBe('e1-e25 (25): Bash×13 Read×12; a0.ts a1.ts');
    expect(lines[lines.length - 1]).toBe('e1000 09:00 Read a5.ts → ok');
  });

  it('fits a token cap tighter than its line count allows, with fewer headers than lines allowed', () => {
    const lines = new HeaderLines().render(records(30), 200, 60, count);
    expect(count(lines.join('\n'))).toBeLessThanOrEqual(60);
    expect(lines[0]).toMatch(/^e1-e\d+ \(\d+\)/);
    expect(lines[lines.length - 1]).toBe('e30 09:00 Read a1.ts → ok');
  });

  it('keeps range lines byte-identical as the session grows (stable prefix)', () => {
    const h = new HeaderLines();
    const a = h.render(records(600), 200);
    const b = new HeaderLines().render(records(700), 200);
    expect(b.slice(0, 3)).toEqual(a.slice(0, 3));
    expect(h.render(records(10_000), 200).length).toBeLessThanOrEqual(200);
  });

  it('stays within both its line and token budgets however long the session (a 10,000-exchange session)', () => {
    const count = (s: string) => Math.ceil(s.length / 4);
    for (const [n, maxHeaders] of [[3_200, 50], [10_000, 50], [10_000, 200], [777, 10]] as const) {
      const lines = new HeaderLines().render(records(n), maxHeaders, maxHeaders * 12, count);
      expect(lines.length).toBeLessThanOrEqual(maxHeaders);
      expect(count(lines.join('\n'))).toBeLessThanOrEqual(maxHeaders * 12);
      expect(lines[lines.length - 1]).toContain(`e${n} `);
    }
  });
});

describe('L4 reference index', () => {
  it('maps keys to the exchanges where they occur and renders within its budget, deterministically', () => {
    const index = new ReferenceIndex();
    for (let seq = 1; seq <= 50; seq++) {
      index.add(seq, 'file', `src/file${seq % 5}.ts`);
      index.add(seq, 'symbol', `symbol${seq}`);
    }
    index.add(51, 'error', 'TypeError: x is undefined');
    expect(index.lookup('file', 'src/file1.ts')).toEqual([21, 26, 31, 36, 41, 46]);
    const text = index.render(60, 51, count);
    expect(count(text)).toBeLessThanOrEqual(60);
    expect(text).toContain('src/file1.ts');
    expect(index.render(60, 51, count)).toBe(text);
    expect(index.render(0, 51, count)).toBe('');
  });
});

describe('<strata_context> block', () => {
  it('lays out condensed summary, headers, summaries and index in a fixed order', () => {
    const text = renderArchiveBlock({ headers: ['e1 h'], summaries: ['e1: s'], index: 'files: a.ts e1', condensed: { throughSeq: 1, text: 'c' } });
    expect(text).toBe(
      '<strata_context>\n## Condensed summary of e1-e1\nc\n## Earlier exchanges (L2 headers)\ne1 h\n## Recent summaries (L3)\ne1: s\n## Reference index (L4)\nfiles: a.ts e1\n</strata_context>',
    );
  });
});
