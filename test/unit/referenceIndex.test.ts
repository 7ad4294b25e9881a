import { describe, expect, it } from 'vitest';
import { ReferenceIndex } from '../../src/engine/referenceIndex';
import type { ReferenceKind } from '../../src/engine/referenceIndex';

/** One token a character, so every budget below is an exact line length. */
const chars = (s: string) => s.length;

function indexOf(adds: [number, ReferenceKind, string][]): ReferenceIndex {
  const index = new ReferenceIndex();
  for (const [seq, kind, key] of adds) index.add(seq, kind, key);
  return index;
}

describe('reference index: recording', () => {
  it('records each exchange once per key, keeps kinds apart, and knows nothing of unrecorded keys', () => {
    const index = indexOf([
      [1, 'file', 'src/a.ts'],
      [1, 'file', 'src/a.ts'],
      [2, 'file', 'src/a.ts'],
      [2, 'symbol', 'src/a.ts'],
    ]);
    expect(index.lookup('file', 'src/a.ts')).toEqual([1, 2]);
    expect(index.lookup('symbol', 'src/a.ts')).toEqual([2]);
    expect(index.lookup('error', 'src/a.ts')).toEqual([]);
    expect(index.lookup('file', 'src/b.ts')).toEqual([]);
    expect(index.size).toBe(2);
    expect(new ReferenceIndex().size).toBe(0);
  });

  it('a clone starts equal and then goes its own way, in both directions', () => {
    const index = indexOf([
      [1, 'file', 'src/a.ts'],
      [2, 'file', 'src/a.ts'],
      [2, 'error', 'TS2345'],
    ]);
    const copy = index.clone();
    expect(copy.lookup('file', 'src/a.ts')).toEqual([1, 2]);
    expect(copy.render(100, 2, chars)).toBe(index.render(100, 2, chars));
    copy.add(3, 'file', 'src/a.ts');
    copy.add(3, 'symbol', 'parse');
    index.add(4, 'error', 'TS2345');
    expect(index.lookup('file', 'src/a.ts')).toEqual([1, 2]);
    expect(index.lookup('symbol', 'parse')).toEqual([]);
    expect(copy.lookup('file', 'src/a.ts')).toEqual([1, 2, 3]);
    expect(copy.lookup('error', 'TS2345')).toEqual([2]);
    expect([index.size, copy.size]).toEqual([2, 3]);
  });
});

describe('reference index: rendering', () => {
  it('renders files, then symbols, then errors, one line each, keys in order within a kind', () => {
    const index = indexOf([
      [1, 'symbol', 'parse'],
      [1, 'file', 'src/b.ts'],
      [2, 'error', 'TS2345'],
      [2, 'file', 'src/a.ts'],
      [3, 'file', 'src/b.ts'],
      [3, 'symbol', 'Lexer'],
    ]);
    expect(index.render(1_000, 3, chars)).toBe('files: src/a.ts e2; src/b.ts e1,e3\nsymbols: Lexer e3; parse e1\nerrors: TS2345 e2');
    expect(new ReferenceIndex().render(1_000, 3, chars)).toBe('');
  });

  it('an entry goes in only when its line ("key ids; ") fits within the budget less 6', () => {
    const index = indexOf([
      [1, 'file', 'src/a.ts'],
      [2, 'file', 'src/a.ts'],
    ]);
    // 'src/a.ts e1,e2; ' is 16 characters
    expect(index.render(6 + 16, 2, chars)).toBe('files: src/a.ts e1,e2');
    expect(index.render(6 + 15, 2, chars)).toBe('');
  });

  it('with room for one, the more recent of two equally used keys wins', () => {
    // 'z-new e10; ' is 11 characters, 'a-old e1; ' 10: room for either, not both
    const index = indexOf([
      [1, 'file', 'a-old'],
      [10, 'file', 'z-new'],
    ]);
    expect(index.render(6 + 11, 10, chars)).toBe('files: z-new e10');
  });

  it('a key used once just before beats one used twice ten exchanges back; further back, hits win', () => {
    // scores: b-recent 1 + 8/1.1, a-frequent 2 + 8/2; 'b-recent e19; ' is 14, 'a-frequent e9,e10; ' 19
    const index = indexOf([
      [9, 'symbol', 'a-frequent'],
      [10, 'symbol', 'a-frequent'],
      [19, 'symbol', 'b-recent'],
    ]);
    expect(index.render(6 + 20, 20, chars)).toBe('symbols: b-recent e19');
    expect(index.render(6 + 20, 60, chars)).toBe('symbols: a-frequent e9,e10');
  });

  it("a key's recency is its latest exchange, even when recorded out of order", () => {
    // late: hits 2, last e10; steady: hits 2, last e6. 'late e10,e2; ' is 13, 'steady e5,e6; ' 14
    const index = indexOf([
      [10, 'file', 'late'],
      [2, 'file', 'late'],
      [5, 'file', 'steady'],
      [6, 'file', 'steady'],
    ]);
    expect(index.render(6 + 14, 10, chars)).toBe('files: late e10,e2');
  });

  it('ties go to the key that sorts first, whatever the order they were recorded in', () => {
    const index = indexOf([
      [4, 'file', 'src/m.ts'],
      [4, 'file', 'src/z.ts'],
      [4, 'file', 'src/a.ts'],
    ]);
    // each line 'src/x.ts e4; ' is 13 characters: room for two
    expect(index.render(6 + 26, 4, chars)).toBe('files: src/a.ts e4; src/m.ts e4');
    expect(index.render(6 + 13, 4, chars)).toBe('files: src/a.ts e4');
  });

  it('the same key as a symbol and a file ties on key too: the one recorded first wins', () => {
    const index = indexOf([
      [1, 'symbol', 'config'],
      [1, 'file', 'config'],
    ]);
    // 'config e1; ' is 11 characters: room for one
    expect(index.render(6 + 11, 1, chars)).toBe('symbols: config e1');
  });

  it('ranks at most maxEntries keys, the best first', () => {
    const index = indexOf([
      [1, 'file', 'a-old'],
      [10, 'file', 'z-new'],
      [10, 'error', 'TS2345'],
      [10, 'error', 'TS2345'],
    ]);
    expect(index.render(1_000, 10, chars, 1)).toBe('errors: TS2345 e10');
    expect(index.render(1_000, 10, chars, 2)).toBe('files: z-new e10\nerrors: TS2345 e10');
  });
});
