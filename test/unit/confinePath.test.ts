import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { confinePath, writeProtection } from '../../src/task/tools/confinePath';
import { makeToolFixture } from '../support/toolWorkspace';
import type { ToolFixture } from '../support/toolWorkspace';

// confinePath and writeProtection on their own, over a real temp workspace: the edges the tools'
// tests do not reach (a missing file, a file named like an ignored folder, the root, the exact
// protection reason of a direct and of a linked path).

let fx: ToolFixture;
afterEach(() => fx?.remove());

describe('confinePath for reads', () => {
  it('resolves a path that does not exist yet (no stat) without refusing it', async () => {
    fx = makeToolFixture();
    expect(await confinePath(fx.ctx, 'missing/file.txt', 'read')).toEqual({ ok: true, rel: 'missing/file.txt', realRel: 'missing/file.txt' });
  });

  it('a folder-only ignore rule refuses the folder, not a file of the same name', async () => {
    fx = makeToolFixture();
    fx.write('.gitignore', 'logs/\n');
    fx.write('logs', 'a file, not the folder');
    fx.write('sub/logs/a.txt', 'x');
    expect(await confinePath(fx.ctx, 'logs', 'read')).toEqual({ ok: true, rel: 'logs', realRel: 'logs' });
    expect(await confinePath(fx.ctx, 'sub/logs', 'read')).toMatchObject({ ok: false });
  });

  it('never refuses the workspace root, whatever the ignore matcher says of it', async () => {
    fx = makeToolFixture();
    fx.ctx.ignore = { isIgnored: async (rel) => rel === '' };
    expect(await confinePath(fx.ctx, '.', 'read')).toEqual({ ok: true, rel: '', realRel: '' });
  });
});

describe('writeProtection', () => {
  it('gives the direct reason for a protected path, and the real path for a link into one', async () => {
    fx = makeToolFixture();
    fx.write('sub/.git/config', '');
    symlinkSync(join(fx.root, 'sub', '.git'), join(fx.root, 'gitlink'));
    expect(await writeProtection(fx.ctx, 'sub/.git/config')).toBe('it is inside a .git folder: git runs its hooks and the commands its config names (core.fsmonitor, core.hooksPath, aliases)');
    expect(await writeProtection(fx.ctx, 'gitlink/config')).toBe(
      'its real path sub/.git/config is protected: it is inside a .git folder: git runs its hooks and the commands its config names (core.fsmonitor, core.hooksPath, aliases)',
    );
    expect(await writeProtection(fx.ctx, 'src/a.ts')).toBeUndefined();
  });

  it('is undefined for a write confinePath refuses anyway (the top-level .git/, an escape)', async () => {
    fx = makeToolFixture();
    expect(await writeProtection(fx.ctx, '.git/hooks/pre-commit')).toBeUndefined();
    expect(await writeProtection(fx.ctx, '../.vscode/settings.json')).toBeUndefined();
  });
});
