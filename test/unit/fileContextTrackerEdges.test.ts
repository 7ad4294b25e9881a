import { mkdirSync, rmSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { NodeWorkspace } from '../../src/adapters/nodeWorkspace';
import { makeTempDir } from '../../src/adapters/tempFiles';
import { FileContextTracker, textHash } from '../../src/task/fileContextTracker';

// When a file the model read counts as changed behind its back (found by mutation testing,
// task-rest): what a new mtime, a new size, a folder in its place and a large file each mean.

let temp: { dir: string; remove: () => void } | undefined;
afterEach(() => temp?.remove());

async function setup() {
  temp = makeTempDir('strata-tracker-');
  const workspace = new NodeWorkspace(temp.dir);
  const tracker = new FileContextTracker(workspace);
  const write = (rel: string, text: string) => {
    writeFileSync(join(temp!.dir, rel), text);
    return join(temp!.dir, rel);
  };
  const read = async (rel: string, withText = true) => {
    const stat = (await workspace.stat(rel))!;
    tracker.recordRead(rel, stat, withText ? await workspace.readText(rel) : undefined);
  };
  const setMtime = (path: string, seconds: number) => utimesSync(path, seconds, seconds);
  return { tracker, write, read, setMtime };
}

describe('FileContextTracker.staleFiles edges', () => {
  it('textHash is 32-bit FNV-1a over the text', () => {
    expect(textHash('')).toBe(0x811c9dc5);
    expect(textHash('a')).toBe(0xe40c292c);
    expect(textHash('foobar')).toBe(0xbf9cf968);
  });

  it('lists stale files sorted by path, whatever the order they were read in', async () => {
    const { tracker, write, read } = await setup();
    for (const name of ['c.ts', 'a.ts', 'b.ts']) write(name, 'x');
    for (const name of ['c.ts', 'a.ts', 'b.ts']) await read(name);
    for (const name of ['c.ts', 'a.ts', 'b.ts']) rmSync(join(temp!.dir, name));
    expect(await tracker.staleFiles()).toEqual(['a.ts', 'b.ts', 'c.ts'].map((path) => ({ path, reason: 'deleted' })));
  });

  it('a folder where the file was counts as deleted', async () => {
    const { tracker, write, read } = await setup();
    write('f', 'x');
    await read('f');
    rmSync(join(temp!.dir, 'f'));
    mkdirSync(join(temp!.dir, 'f'));
    expect(await tracker.staleFiles()).toEqual([{ path: 'f', reason: 'deleted' }]);
  });

  it('a new size with the same mtime is a change', async () => {
    const { tracker, write, read, setMtime } = await setup();
    const path = write('s.ts', 'abc');
    setMtime(path, 1_000_000);
    await read('s.ts');
    writeFileSync(path, 'abcd');
    setMtime(path, 1_000_000);
    expect(await tracker.staleFiles()).toEqual([{ path: 's.ts', reason: 'changed' }]);
  });

  it('a new mtime with the same text is not a change (once compared, not again); the same size with other text is', async () => {
    const { tracker, write, read, setMtime } = await setup();
    const same = write('same.ts', 'one');
    const other = write('other.ts', 'two');
    setMtime(same, 1_000_000);
    setMtime(other, 1_000_000);
    await read('same.ts');
    await read('other.ts');
    setMtime(same, 2_000_000);
    writeFileSync(other, 'TWO');
    setMtime(other, 2_000_000);
    expect(await tracker.staleFiles()).toEqual([{ path: 'other.ts', reason: 'changed' }]);
    expect(tracker.tracked().find((f) => f.path === 'same.ts')?.mtimeMs).toBe(2_000_000_000);
  });

  it('a new mtime is a change when the read saw part of the file (no text to compare)', async () => {
    const { tracker, write, read, setMtime } = await setup();
    const path = write('part.ts', 'text');
    setMtime(path, 1_000_000);
    await read('part.ts', false);
    expect(await tracker.staleFiles()).toEqual([]);
    setMtime(path, 2_000_000);
    expect(await tracker.staleFiles()).toEqual([{ path: 'part.ts', reason: 'changed' }]);
  });

  it('a file of 4 MB is compared by text; a byte more, a new mtime alone makes it stale', async () => {
    const { tracker, write, read, setMtime } = await setup();
    const at = write('at.bin', '');
    truncateSync(at, 4 * 1024 * 1024);
    const over = write('over.bin', '');
    truncateSync(over, 4 * 1024 * 1024 + 1);
    for (const path of [at, over]) setMtime(path, 1_000_000);
    await read('at.bin');
    await read('over.bin');
    for (const path of [at, over]) setMtime(path, 2_000_000);
    expect(await tracker.staleFiles()).toEqual([{ path: 'over.bin', reason: 'changed' }]);
  });
});
