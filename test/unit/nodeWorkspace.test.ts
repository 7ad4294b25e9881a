import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, realpathSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NodeWorkspace } from '../../src/adapters/nodeWorkspace';
import { useTempDirs } from '../support/tempDirs';

// The Workspace port over node:fs, on real files, folders and symbolic links.

const tempDir = useTempDirs('strata-workspace-');

/** A workspace `ws/` beside a folder `outside/`, both real paths. */
function fixture() {
  const base = realpathSync(tempDir());
  const root = join(base, 'ws');
  const outside = join(base, 'outside');
  mkdirSync(root);
  mkdirSync(outside);
  return { base, root, outside, ws: new NodeWorkspace(root) };
}

describe('NodeWorkspace', () => {
  it('resolves its root to an absolute path and reads POSIX-relative paths under it', async () => {
    const { root, base } = fixture();
    mkdirSync(join(root, 'src/deep'), { recursive: true });
    writeFileSync(join(root, 'src/deep/a.txt'), 'déjà vu\n');
    const ws = new NodeWorkspace(relative(process.cwd(), root));
    expect(ws.root).toBe(root);
    expect(await ws.readText('src/deep/a.txt')).toBe('déjà vu\n');
    expect((await ws.stat(''))?.kind).toBe('directory');
    expect(await ws.realpath('')).toBe(join(base, 'ws'));
  });

  it('stats files, folders and other things, following links; nothing there is undefined', async () => {
    const { root, ws } = fixture();
    writeFileSync(join(root, 'a.txt'), 'hello');
    mkdirSync(join(root, 'dir'));
    symlinkSync('/dev/null', join(root, 'device'));
    symlinkSync('a.txt', join(root, 'link'));
    symlinkSync('missing', join(root, 'dangling'));
    const disk = statSync(join(root, 'a.txt'));
    expect(await ws.stat('a.txt')).toEqual({ kind: 'file', size: 5, mtimeMs: disk.mtimeMs });
    expect((await ws.stat('dir'))?.kind).toBe('directory');
    expect((await ws.stat('device'))?.kind).toBe('other');
    expect(await ws.stat('link')).toEqual({ kind: 'file', size: 5, mtimeMs: disk.mtimeMs });
    expect(await ws.stat('missing')).toBeUndefined();
    expect(await ws.stat('a.txt/below')).toBeUndefined();
    expect(await ws.stat('dangling')).toBeUndefined();
    expect([await ws.exists('a.txt'), await ws.exists('dir'), await ws.exists('missing'), await ws.exists('a.txt/below')]).toEqual([true, true, false, false]);
  });

  it('reports a link loop as an error, not as nothing there', async () => {
    const { root, ws } = fixture();
    symlinkSync('loop-b', join(root, 'loop-a'));
    symlinkSync('loop-a', join(root, 'loop-b'));
    await expect(ws.stat('loop-a')).rejects.toMatchObject({ code: 'ELOOP' });
  });

  it('reads a byte range, fewer bytes at the end of the file', async () => {
    const { root, ws } = fixture();
    writeFileSync(join(root, 'b.bin'), Buffer.from('0123456789'));
    expect(Buffer.from(await ws.readBytes('b.bin', 2, 3)).toString()).toBe('234');
    expect(Buffer.from(await ws.readBytes('b.bin', 7, 100)).toString()).toBe('789');
    expect((await ws.readBytes('b.bin', 10, 4)).length).toBe(0);
    await expect(ws.readBytes('missing', 0, 1)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('lists a folder sorted by name, telling links, folders, files and others apart', async () => {
    const { root, ws } = fixture();
    for (const name of ['zeta.txt', 'b.txt', 'B.txt', 'a.txt', '_x', '10', '9', 'é']) writeFileSync(join(root, name), '');
    mkdirSync(join(root, 'mid'));
    symlinkSync('mid', join(root, 'link'));
    execFileSync('mkfifo', [join(root, 'pipe')]);
    expect(await ws.listDir('')).toEqual([
      { name: '10', kind: 'file' },
      { name: '9', kind: 'file' },
      { name: 'B.txt', kind: 'file' },
      { name: '_x', kind: 'file' },
      { name: 'a.txt', kind: 'file' },
      { name: 'b.txt', kind: 'file' },
      { name: 'link', kind: 'symlink' },
      { name: 'mid', kind: 'directory' },
      { name: 'pipe', kind: 'other' },
      { name: 'zeta.txt', kind: 'file' },
      { name: 'é', kind: 'file' },
    ]);
    await expect(ws.listDir('missing')).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('writes UTF-8 text, creating the missing folders', async () => {
    const { root, ws } = fixture();
    await ws.writeText('new/deeper/c.txt', 'naïve ✓');
    expect(readFileSync(join(root, 'new/deeper/c.txt'), 'utf8')).toBe('naïve ✓');
    await ws.writeText('new/deeper/c.txt', 'second');
    expect(await ws.readText('new/deeper/c.txt')).toBe('second');
  });

  it('realpath follows links, and for paths not there yet answers where a write would land', async () => {
    const { root, outside, ws } = fixture();
    mkdirSync(join(root, 'real'));
    symlinkSync('real', join(root, 'alias'));
    symlinkSync(outside, join(root, 'out'));
    expect(await ws.realpath('alias')).toBe(join(root, 'real'));
    expect(await ws.realpath('alias/new/file.txt')).toBe(join(root, 'real/new/file.txt'));
    expect(await ws.realpath('out/x.txt')).toBe(join(outside, 'x.txt'));
    expect(await ws.realpath('plain/new.txt')).toBe(join(root, 'plain/new.txt'));
  });

  it('realpath follows dangling links, relative and absolute, to their targets', async () => {
    const { root, outside, ws } = fixture();
    symlinkSync('../outside/later.txt', join(root, 'relative'));
    symlinkSync(join(outside, 'abs.txt'), join(root, 'absolute'));
    symlinkSync('relative', join(root, 'chain'));
    mkdirSync(join(root, 'sub'));
    symlinkSync('../../outside/deep/x', join(root, 'sub/up'));
    expect(await ws.realpath('relative')).toBe(join(outside, 'later.txt'));
    expect(await ws.realpath('absolute')).toBe(join(outside, 'abs.txt'));
    expect(await ws.realpath('chain')).toBe(join(outside, 'later.txt'));
    expect(await ws.realpath('sub/up')).toBe(join(outside, 'deep/x'));
    expect(await ws.realpath('sub/up/below.txt')).toBe(join(outside, 'deep/x/below.txt'));
  });

  it('realpath of a link loop answers a path of the loop instead of following it forever', async () => {
    const { root, ws } = fixture();
    symlinkSync('loop-b', join(root, 'loop-a'));
    symlinkSync('loop-a', join(root, 'loop-b'));
    expect([join(root, 'loop-a'), join(root, 'loop-b')]).toContain(await ws.realpath('loop-a'));
    expect([join(root, 'loop-a/x'), join(root, 'loop-b/x')]).toContain(await ws.realpath('loop-a/x'));
  });

  it('realpath answers for a workspace whose folder is gone, up to the file system root', async () => {
    const gone = `/strata-gone-${process.pid}-${Date.now()}/ws`;
    expect(await new NodeWorkspace(gone).realpath('a/b.txt')).toBe(`${gone}/a/b.txt`);
  });

  it('realpath passes on errors other than a missing path', async () => {
    const { ws } = fixture();
    await expect(ws.realpath(`${'n'.repeat(300)}/x`)).rejects.toMatchObject({ code: 'ENAMETOOLONG' });
  });
});
