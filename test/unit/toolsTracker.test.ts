import { rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runToolCall } from '../../src/task/tools/runToolCall';
import { makeToolFixture } from '../support/toolWorkspace';
import type { ToolFixture } from '../support/toolWorkspace';

let fx: ToolFixture;
afterEach(() => fx?.remove());

const call = (name: string, input: unknown) => runToolCall({ name, input }, fx.ctx);
/** Moves a file's mtime forward explicitly, so the test never depends on the clock's resolution. */
const bumpMtime = (path: string, seconds: number) => utimesSync(path, new Date(), new Date(Date.now() + seconds * 1000));

describe('file context tracker', () => {
  it('reports a file changed on disk after the model read it, and forgets it when told', async () => {
    fx = makeToolFixture();
    const a = fx.write('a.ts', 'const a = 1;\n');
    fx.write('b.ts', 'const b = 1;\n');
    await call('read_file', { path: 'a.ts' });
    await call('read_file', { path: 'b.ts' });
    expect(await fx.ctx.tracker.staleFiles()).toEqual([]);
    writeFileSync(a, 'const a = 2;\n');
    bumpMtime(a, 5);
    expect(await fx.ctx.tracker.staleFiles()).toEqual([{ path: 'a.ts', reason: 'changed' }]);
    fx.ctx.tracker.forget('a.ts');
    expect(await fx.ctx.tracker.staleFiles()).toEqual([]);
    await call('read_file', { path: 'a.ts' });
    expect(fx.ctx.tracker.tracked().find((f) => f.path === 'a.ts')).toMatchObject({ lastAction: 'read', reads: 1 });
  });

  it('our own writes and edits are not stale; a later outside change is', async () => {
    fx = makeToolFixture();
    await call('write_file', { path: 'w.ts', content: 'let x = 1;\n' });
    await call('read_file', { path: 'w.ts' });
    await call('edit_file', { path: 'w.ts', edits: [{ search: 'x = 1', replace: 'x = 2' }] });
    expect(await fx.ctx.tracker.staleFiles()).toEqual([]);
    expect(fx.ctx.tracker.tracked()).toEqual([expect.objectContaining({ path: 'w.ts', lastAction: 'edit', reads: 1, edits: 2 })]);
    writeFileSync(join(fx.root, 'w.ts'), 'let x = 3;\n// user\n');
    expect(await fx.ctx.tracker.staleFiles()).toEqual([{ path: 'w.ts', reason: 'changed' }]);
  });

  it('a touch without a change is not stale; a deletion is', async () => {
    fx = makeToolFixture();
    const t = fx.write('t.ts', 'same\n');
    fx.write('gone.ts', 'x\n');
    await call('read_file', { path: 't.ts' });
    await call('read_file', { path: 'gone.ts' });
    bumpMtime(t, 10);
    rmSync(join(fx.root, 'gone.ts'));
    expect(await fx.ctx.tracker.staleFiles()).toEqual([{ path: 'gone.ts', reason: 'deleted' }]);
  });

  it('a same-size change is caught by the hash', async () => {
    fx = makeToolFixture();
    const f = fx.write('s.ts', 'value = 1\n');
    await call('read_file', { path: 's.ts' });
    writeFileSync(f, 'value = 2\n');
    bumpMtime(f, 5);
    expect(await fx.ctx.tracker.staleFiles()).toEqual([{ path: 's.ts', reason: 'changed' }]);
  });
});
