import { closeSync, existsSync, ftruncateSync, openSync, readdirSync, readFileSync, symlinkSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runToolCall } from '../../src/task/tools/runToolCall';
import { resolveWorkspacePath } from '../../src/task/tools/workspacePath';
import { makeToolFixture } from '../support/toolWorkspace';
import type { ToolFixture } from '../support/toolWorkspace';

let fx: ToolFixture;
afterEach(() => fx?.remove());

const call = (name: string, input: unknown) => runToolCall({ name, input }, fx.ctx);

describe('workspace confinement', () => {
  it('refuses .. escapes, absolute paths outside and ~ for every path-taking tool', async () => {
    fx = makeToolFixture();
    fx.write('inside.txt', 'ok');
    const secret = join(fx.outside, 'secret.txt');
    writeFileSync(secret, 'top secret');
    const attempts: Array<[string, Record<string, unknown>]> = [
      ['read_file', { path: '../outside/secret.txt' }],
      ['read_file', { path: 'a/../../outside/secret.txt' }],
      ['read_file', { path: secret }],
      ['read_file', { path: '~/.bashrc' }],
      ['list_files', { path: '..' }],
      ['search_files', { regex: 'secret', path: fx.outside }],
      ['list_definitions', { path: '../outside' }],
      ['write_file', { path: '../outside/new.txt', content: 'x' }],
      ['write_file', { path: join(fx.outside, 'new2.txt'), content: 'x' }],
      ['edit_file', { path: secret, edits: [{ search: 'top', replace: 'no' }] }],
      ['execute_command', { command: 'touch escaped', cwd: '..' }],
    ];
    for (const [name, input] of attempts) {
      const r = await call(name, input);
      expect(r.isError, `${name} ${JSON.stringify(input)}`).toBe(true);
      expect(r.text, `${name} ${JSON.stringify(input)}`).toMatch(/^Refused: .*(outside the workspace|climbs out of the workspace)/);
    }
    expect(readFileSync(secret, 'utf8')).toBe('top secret');
    for (const f of ['new.txt', 'new2.txt', 'escaped']) expect(existsSync(join(fx.outside, f))).toBe(false);
    expect((await call('read_file', { path: join(fx.root, 'inside.txt') })).text).toContain('1 | ok');
  });

  it('refuses symbolic links that lead outside: to a file, to a folder, dangling, and in a parent', async () => {
    fx = makeToolFixture();
    writeFileSync(join(fx.outside, 'secret.txt'), 'top secret');
    symlinkSync(join(fx.outside, 'secret.txt'), join(fx.root, 'link.txt'));
    symlinkSync(fx.outside, join(fx.root, 'outdir'));
    symlinkSync(join(fx.outside, 'not-yet.txt'), join(fx.root, 'dangling.txt'));
    const attempts: Array<[string, Record<string, unknown>]> = [
      ['read_file', { path: 'link.txt' }],
      ['read_file', { path: 'outdir/secret.txt' }],
      ['list_files', { path: 'outdir' }],
      ['search_files', { regex: 'secret', path: 'outdir' }],
      ['write_file', { path: 'dangling.txt', content: 'written through a link' }],
      ['write_file', { path: 'outdir/sub/new.txt', content: 'x' }],
      ['edit_file', { path: 'link.txt', edits: [{ search: 'top', replace: 'no' }] }],
      ['execute_command', { command: 'touch escaped', cwd: 'outdir' }],
    ];
    for (const [name, input] of attempts) {
      const r = await call(name, input);
      expect(r.text, `${name} ${JSON.stringify(input)}`).toMatch(/^Refused: .* goes through a symbolic link to a place outside the workspace/);
    }
    expect(readdirSync(fx.outside)).toEqual(['secret.txt']);
    expect(readFileSync(join(fx.outside, 'secret.txt'), 'utf8')).toBe('top secret');
  });

  it('follows symbolic links that stay inside, and never walks through links', async () => {
    fx = makeToolFixture();
    fx.write('real/a.txt', 'needle');
    symlinkSync(join(fx.root, 'real'), join(fx.root, 'alias'));
    symlinkSync(fx.outside, join(fx.root, 'outdir'));
    writeFileSync(join(fx.outside, 'o.txt'), 'needle');
    expect((await call('read_file', { path: 'alias/a.txt' })).text).toContain('1 | needle');
    expect((await call('list_files', { recursive: true })).text).toBe('alias@\noutdir@\nreal/\nreal/a.txt');
    expect((await call('search_files', { regex: 'needle' })).text).toBe('1 match in 1 file\nreal/a.txt:1: needle');
  });

  it('resolves Windows roots case-insensitively with either separator', () => {
    expect(resolveWorkspacePath('C:\\Work\\ws', 'c:/work/WS/src\\a.ts')).toEqual({ ok: true, rel: 'src/a.ts' });
    expect(resolveWorkspacePath('C:\\Work\\ws', 'src\\..\\..\\x').ok).toBe(false);
    expect(resolveWorkspacePath('C:\\Work\\ws', 'D:\\x').ok).toBe(false);
    expect(resolveWorkspacePath('/ws', '/ws2/a').ok).toBe(false);
    expect(resolveWorkspacePath('/ws', '/ws/./a/../b')).toEqual({ ok: true, rel: 'b' });
  });
});

describe('large and binary files', () => {
  it('answers a binary file clearly without its content', async () => {
    fx = makeToolFixture();
    fx.write('img.png', new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 13, 0x49, 0x48]));
    const r = await call('read_file', { path: 'img.png' });
    expect(r).toEqual({ isError: true, text: "'img.png' is a binary file (10 bytes); its content is not shown." });
  });

  it('answers a 50 MB file with its size, and serves a line range from it without the rest', async () => {
    fx = makeToolFixture();
    const path = join(fx.root, 'big.log');
    const fd = openSync(path, 'w');
    const line = 'x'.repeat(99) + '\n'; // 100 bytes a line
    writeSync(fd, Array.from({ length: 1000 }, (_, i) => `line ${i + 1} `.padEnd(99, '.') + '\n').join(''));
    ftruncateSync(fd, 50 * 1024 * 1024);
    writeSync(fd, line, 50 * 1024 * 1024 - 100);
    closeSync(fd);
    const whole = await call('read_file', { path: 'big.log' });
    expect(whole.isError).toBe(true);
    expect(whole.text).toBe("'big.log' is 50.0 MB, over the 1.0 MB limit for reading a whole file. Read a part with start_line and end_line, or find lines with search_files.");
    const part = await call('read_file', { path: 'big.log', start_line: 500, end_line: 502 });
    expect(part.isError).toBe(false);
    expect(part.text.split('\n').map((l) => l.slice(0, 20))).toEqual(['big.log (lines 500-5', '500 | line 500 .....', '501 | line 501 .....', '502 | line 502 .....']);
    expect(part.text.length).toBeLessThan(1_000);
  });
});

describe('ignore rules', () => {
  it('honours .gitignore (root and nested, negation) and .strataignore for read, list and search', async () => {
    fx = makeToolFixture();
    fx.write('.gitignore', 'dist/\n*.log\n!keep.log\n');
    fx.write('.strataignore', 'secrets.env\n');
    fx.write('src/.gitignore', 'generated.ts\n');
    fx.write('dist/out.js', 'needle');
    fx.write('app.log', 'needle');
    fx.write('keep.log', 'needle');
    fx.write('secrets.env', 'needle');
    fx.write('src/generated.ts', 'needle');
    fx.write('src/main.ts', 'needle');
    fx.write('.git/config', 'needle');
    expect((await call('list_files', { recursive: true })).text).toBe('.gitignore\n.strataignore\nkeep.log\nsrc/\nsrc/.gitignore\nsrc/main.ts');
    expect((await call('search_files', { regex: 'needle' })).text).toBe('2 matches in 2 files\nkeep.log:1: needle\n\nsrc/main.ts:1: needle');
    for (const path of ['dist/out.js', 'app.log', 'secrets.env', 'src/generated.ts', '.git/config']) {
      const r = await call('read_file', { path });
      expect(r.text, path).toMatch(/^Refused: '.*' is excluded by \.gitignore or \.strataignore\. It can be used only when the user mentions it/);
    }
    expect((await call('list_files', { path: 'dist' })).text).toMatch(/^Refused: 'dist' is excluded/);
    expect((await call('search_files', { regex: 'needle', path: 'dist' })).text).toMatch(/^Refused: 'dist' is excluded/);
  });

  it('lets the user open ignored files by mentioning them (or a folder above)', async () => {
    fx = makeToolFixture({ mentioned: ['dist', 'secrets.env'] });
    fx.write('.gitignore', 'dist/\nsecrets.env\nother.env\n');
    fx.write('dist/out.js', 'needle');
    fx.write('secrets.env', 'KEY=1');
    fx.write('other.env', 'KEY=2');
    expect((await call('read_file', { path: 'secrets.env' })).text).toContain('1 | KEY=1');
    expect((await call('read_file', { path: 'dist/out.js' })).text).toContain('1 | needle');
    expect((await call('list_files', { path: 'dist' })).text).toBe('dist/out.js');
    expect((await call('search_files', { regex: 'needle', path: 'dist' })).text).toContain('dist/out.js:1: needle');
    expect((await call('read_file', { path: 'other.env' })).text).toMatch(/^Refused/);
  });

  it('writes to ignored files are allowed, into .git/ never', async () => {
    fx = makeToolFixture();
    fx.write('.gitignore', 'build/\n');
    expect((await call('write_file', { path: 'build/x.txt', content: 'y' })).isError).toBe(false);
    const git = await call('write_file', { path: '.git/hooks/pre-commit', content: 'rm -rf /' });
    expect(git.text).toMatch(/^Refused: '.git\/hooks\/pre-commit' is inside .git\//);
    expect(existsSync(join(fx.root, '.git/hooks/pre-commit'))).toBe(false);
  });
});
