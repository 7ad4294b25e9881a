import { appendFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LineTail } from '../../src/adapters/lineTail';
import { useTempDirs } from '../support/tempDirs';

/** LineTail on real files: what each read returns as other writers append, tear and skip. */
const tempDir = useTempDirs('strata-linetail-');
const tempPath = () => join(tempDir(), 'tail.jsonl');
const size = (path: string) => statSync(path).size;

describe('LineTail', () => {
  it('returns each complete line once, numbered from 1 across reads, multi-byte text whole', () => {
    const path = tempPath();
    writeFileSync(path, 'one\ntwo ünï 日本\n');
    const tail = new LineTail(path);
    expect(tail.read()).toEqual([
      { n: 1, text: 'one' },
      { n: 2, text: 'two ünï 日本' },
    ]);
    expect(tail.read()).toEqual([]);
    appendFileSync(path, 'three\n\nfive\n');
    expect(tail.read()).toEqual([
      { n: 3, text: 'three' },
      { n: 4, text: '' },
      { n: 5, text: 'five' },
    ]);
    expect(tail.read()).toEqual([]);
  });

  it('leaves a line without its newline for a later read, and says it is pending', () => {
    const path = tempPath();
    writeFileSync(path, 'whole\nhalf');
    const tail = new LineTail(path);
    expect(tail.pending()).toBe(true);
    expect(tail.read()).toEqual([{ n: 1, text: 'whole' }]);
    expect(tail.pending()).toBe(true);
    expect(tail.read()).toEqual([]);
    appendFileSync(path, ' done\n');
    expect(tail.read()).toEqual([{ n: 2, text: 'half done' }]);
    expect(tail.pending()).toBe(false);
  });

  it('a file with no newline yet gives no line', () => {
    const path = tempPath();
    writeFileSync(path, 'no newline yet');
    const tail = new LineTail(path);
    expect(tail.read()).toEqual([]);
    appendFileSync(path, '\n');
    expect(tail.read()).toEqual([{ n: 1, text: 'no newline yet' }]);
  });

  it('a missing file, or one that shrank, reads as nothing new; a file that is not there is not pending', () => {
    const path = tempPath();
    const tail = new LineTail(path);
    expect(tail.read()).toEqual([]);
    expect(tail.pending()).toBe(false);
    writeFileSync(path, 'a\nb\n');
    expect(tail.read().map((l) => l.text)).toEqual(['a', 'b']);
    truncateSync(path, 2);
    expect(tail.read()).toEqual([]);
    expect(tail.pending()).toBe(false);
  });

  it('a path it cannot stat for another reason than absence is an error, not an empty file', () => {
    const file = tempPath();
    writeFileSync(file, 'x\n');
    const tail = new LineTail(join(file, 'child'));
    expect(() => tail.read()).toThrow(expect.objectContaining({ code: 'ENOTDIR' }));
  });

  it("skipOwn counts the owner's own append as read, so numbering goes on after it", () => {
    const path = tempPath();
    writeFileSync(path, 'theirs\n');
    const tail = new LineTail(path);
    expect(tail.read()).toEqual([{ n: 1, text: 'theirs' }]);
    const own = 'mine 1 ü\nmine 2\n';
    const before = size(path);
    appendFileSync(path, own);
    tail.skipOwn(own, before, size(path));
    expect(tail.pending()).toBe(false);
    appendFileSync(path, 'theirs again\n');
    expect(tail.read()).toEqual([{ n: 4, text: 'theirs again' }]);
  });

  it('skipOwn leaves the append to be read when another writer wrote before it', () => {
    const path = tempPath();
    const tail = new LineTail(path);
    writeFileSync(path, 'theirs\n');
    const before = size(path);
    appendFileSync(path, 'mine\n');
    tail.skipOwn('mine\n', before, size(path));
    expect(tail.read()).toEqual([
      { n: 1, text: 'theirs' },
      { n: 2, text: 'mine' },
    ]);
  });

  it('skipOwn leaves the append to be read when another writer wrote after it', () => {
    const path = tempPath();
    const tail = new LineTail(path);
    appendFileSync(path, 'mine\n');
    appendFileSync(path, 'theirs\n');
    tail.skipOwn('mine\n', 0, size(path));
    expect(tail.read()).toEqual([
      { n: 1, text: 'mine' },
      { n: 2, text: 'theirs' },
    ]);
  });

  it('skipOwn leaves text without a final newline to be read with what completes it', () => {
    const path = tempPath();
    const tail = new LineTail(path);
    appendFileSync(path, 'mine');
    tail.skipOwn('mine', 0, size(path));
    expect(tail.pending()).toBe(true);
    appendFileSync(path, ' and theirs\n');
    expect(tail.read()).toEqual([{ n: 1, text: 'mine and theirs' }]);
  });
});
