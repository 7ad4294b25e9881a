import { describe, expect, it } from 'vitest';
import type { HeaderRecord } from '../../src/engine/archiveBlock';
import { archiveLayerTokens, HeaderLines, renderArchiveBlock } from '../../src/engine/archiveBlock';
import { charTokenizer } from '../support/engineHarness';

const count = (s: string) => charTokenizer.count(s);
const rec = (seq: number, tools: string[] = ['Read'], files: string[] = []): HeaderRecord => ({ seq, line: `e${seq} line`, tools, files });
const records = (n: number, make: (seq: number) => HeaderRecord = (seq) => rec(seq)) => Array.from({ length: n }, (_, i) => make(i + 1));
const lines = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `e${from + i} line`);

describe('HeaderLines.render: which ranges', () => {
  it('folds exactly one aligned range when the oldest exchanges fill it to the last one', () => {
    expect(new HeaderLines().render(records(30), 10)).toEqual(['e1-e25 (25): Read×25', ...lines(26, 30)]);
  });

  it('gives each aligned range its own line', () => {
    const mixed = records(55, (seq) => rec(seq, seq <= 25 ? ['Read'] : ['Bash']));
    expect(new HeaderLines().render(mixed, 10)).toEqual(['e1-e25 (25): Read×25', 'e26-e50 (25): Bash×25', ...lines(51, 55)]);
  });

  it('uses the largest range sizes first', () => {
    expect(new HeaderLines().render(records(230), 10)).toEqual([
      'e1-e100 (100): Read×100',
      'e101-e200 (100): Read×100',
      'e201-e225 (25): Read×25',
      ...lines(226, 230),
    ]);
  });

  it('folds all but maxHeaders - 1 into one range when too few exchanges for an aligned one', () => {
    expect(new HeaderLines().render(records(12), 10)).toEqual(['e1-e3 (3): Read×3', ...lines(4, 12)]);
  });

  it('keeps every line whose tokens meet the limit exactly', () => {
    const all = records(9);
    const exact = count(lines(1, 9).join('\n'));
    expect(new HeaderLines().render(all, 10, exact, count)).toEqual(lines(1, 9));
  });

  it('counts the lines as the block joins them, one per line, and halves until they fit', () => {
    const all = records(9);
    const limit = count(lines(1, 9).join('\n')) - 1;
    expect(count(lines(1, 9).join(''))).toBeLessThanOrEqual(limit);
    expect(new HeaderLines().render(all, 10, limit, count)).toEqual(['e1-e5 (5): Read×5', ...lines(6, 9)]);
  });

  it('has no token limit when given no way to count', () => {
    expect(new HeaderLines().render(records(9), 10, 1)).toEqual(lines(1, 9));
  });
});

describe('HeaderLines.render: what a range line says', () => {
  it('names the three most used tools and two most touched files, most first, ties by name', () => {
    const toolOf = (seq: number) => (seq === 1 ? 'Write' : seq <= 6 ? 'Read' : seq <= 11 ? 'Grep' : seq <= 15 ? 'Edit' : 'Bash');
    const filesOf = (seq: number) => (seq === 1 ? ['src/b.ts'] : seq === 2 ? ['src/a.ts'] : seq >= 16 && seq <= 18 ? ['src/z.ts'] : []);
    const all = records(30, (seq) => rec(seq, [toolOf(seq)], filesOf(seq)));
    expect(new HeaderLines().render(all, 10)[0]).toBe('e1-e25 (25): Bash×10 Grep×5 Read×5; z.ts a.ts');
  });

  it('keeps a range line byte-identical once written, in clones too', () => {
    const headers = new HeaderLines();
    const first = headers.render(records(30), 10);
    const retooled = records(30, (seq) => rec(seq, ['Other'], ['src/other.ts']));
    expect(headers.render(retooled, 10)).toEqual(first);
    expect(headers.clone().render(retooled, 10)).toEqual(first);
    expect(new HeaderLines().render(retooled, 10)[0]).toBe('e1-e25 (25): Other×25; other.ts');
  });
});

describe('renderArchiveBlock and archiveLayerTokens', () => {
  it('leaves out the L2 section when there are no headers', () => {
    expect(renderArchiveBlock({ index: '', headers: [], summaries: ['e1: did a thing'] })).toBe('<strata_context>\n## Recent summaries (L3)\ne1: did a thing\n</strata_context>');
  });

  it('counts each layer as its lines are joined in the block, L3 adding the condensed text', () => {
    const parts = { index: 'src/a.ts: e1', headers: ['abcd', 'abcd'], summaries: ['efgh', 'efgh'], condensed: { throughSeq: 1, text: 'the condensed story' } };
    expect(archiveLayerTokens(parts, charTokenizer)).toEqual({
      L0: 0,
      L2: count('abcd\nabcd'),
      L3: count('efgh\nefgh') + count('the condensed story'),
      L4: count('src/a.ts: e1'),
    });
  });
});
