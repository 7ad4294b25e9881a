import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GitignoreMatcher } from '../../src/adapters/gitignoreMatcher';
import { JsTextSearcher } from '../../src/adapters/jsTextSearcher';
import { NodeWorkspace } from '../../src/adapters/nodeWorkspace';
import { createTextSearcher, findEditorRipgrep, findRipgrep, RipgrepSearcher, vscodeRipgrepCandidates } from '../../src/adapters/ripgrepSearcher';
import { StrataError } from '../../src/shared/strataError';
import { compileGlob } from '../../src/task/tools/globMatcher';
import type { TextSearcher, TextSearchQuery } from '../../src/task/workspacePort';
import { makeToolFixture } from '../support/toolWorkspace';
import type { ToolFixture } from '../support/toolWorkspace';

let fx: ToolFixture;
afterEach(() => fx?.remove());

function seed(f: ToolFixture): void {
  f.write('.gitignore', 'node_modules/\n*.log\n');
  f.write('.strataignore', 'private/\n');
  f.write('src/.gitignore', 'gen.ts\n');
  f.write('src/a.ts', 'export const token = 1;\nconst other = 2;\n');
  f.write('src/b.test.ts', 'test("token", () => {});\n');
  f.write('src/gen.ts', 'token generated\n');
  f.write('src/deep/c.js', 'TOKEN upper\ntoken lower\n');
  f.write('.github/ci.yml', 'token: hidden file\n');
  f.write('node_modules/x/index.js', 'token in deps\n');
  f.write('private/notes.md', 'token private\n');
  f.write('run.log', 'token log\n');
  f.write('bin.dat', new Uint8Array([116, 111, 107, 101, 110, 0, 1, 2]));
  f.write('.git/HEAD', 'token in git\n');
}

const query = (q: Partial<TextSearchQuery>): TextSearchQuery => ({ pattern: 'token', path: '', maxMatches: 100, includeIgnored: false, ...q });
const brief = async (s: TextSearcher, q: Partial<TextSearchQuery>) => (await s.search(query(q))).matches.map((m) => `${m.path}:${m.line}:${m.text}`);

/** The same expectations hold for ripgrep and for the fallback. */
async function checkSearcher(s: TextSearcher): Promise<void> {
  expect(await brief(s, {})).toEqual(['.github/ci.yml:1:token: hidden file', 'src/a.ts:1:export const token = 1;', 'src/b.test.ts:1:test("token", () => {});', 'src/deep/c.js:2:token lower']);
  expect(await brief(s, { glob: '*.ts' })).toEqual(['src/a.ts:1:export const token = 1;', 'src/b.test.ts:1:test("token", () => {});']);
  expect(await brief(s, { glob: 'src/**/*.js' })).toEqual(['src/deep/c.js:2:token lower']);
  expect(await brief(s, { pattern: '(?i)^token', path: 'src/deep' })).toEqual(['src/deep/c.js:1:TOKEN upper', 'src/deep/c.js:2:token lower']);
  expect(await brief(s, { path: 'src/a.ts' })).toEqual(['src/a.ts:1:export const token = 1;']);
  expect(await brief(s, { path: 'private', includeIgnored: true })).toEqual(['private/notes.md:1:token private']);
  const capped = await s.search(query({ maxMatches: 2 }));
  expect(capped.matches).toHaveLength(2);
  expect(capped.truncated).toBe(true);
  const err = await s.search(query({ pattern: 'token(' })).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(StrataError);
  expect((err as StrataError).code).toBe('search-pattern');
}

describe('text search', () => {
  it('the JavaScript fallback honours ignore rules, globs, hidden files, binaries and the cap', async () => {
    fx = makeToolFixture();
    seed(fx);
    const ws = new NodeWorkspace(fx.root);
    const s = new JsTextSearcher(ws, new GitignoreMatcher(ws));
    await checkSearcher(s);
    expect((await s.search(query({}))).engine).toBe('javascript');
  });

  it('ripgrep gives the same answers when it is on PATH; without it the factory falls back', async () => {
    fx = makeToolFixture();
    seed(fx);
    const ws = new NodeWorkspace(fx.root);
    const rg = findRipgrep();
    if (rg) {
      const s = new RipgrepSearcher(fx.root, rg);
      await checkSearcher(s);
      expect((await s.search(query({}))).engine).toBe('ripgrep');
    }
    const auto = createTextSearcher(ws, new GitignoreMatcher(ws));
    expect((await auto.search(query({}))).engine).toBe(rg ? 'ripgrep' : 'javascript');
    const forced = createTextSearcher(ws, new GitignoreMatcher(ws), { rgPath: null });
    expect((await forced.search(query({}))).engine).toBe('javascript');
  });

  it('finds rg only where PATH points', () => {
    fx = makeToolFixture();
    const bin = join(fx.outside, 'bin');
    mkdirSync(bin);
    expect(findRipgrep(bin)).toBeUndefined();
    writeFileSync(join(bin, 'rg'), '#!/bin/sh\n');
    chmodSync(join(bin, 'rg'), 0o755);
    expect(findRipgrep(`/nonexistent:${bin}`)).toBe(join(bin, 'rg'));
    expect(findRipgrep('')).toBeUndefined();
  });

  it("prefers the editor's bundled rg (asar-unpacked layout first), then PATH", () => {
    fx = makeToolFixture();
    const fakeRg = (path: string) => {
      mkdirSync(join(path, '..'), { recursive: true });
      writeFileSync(path, '#!/bin/sh\n');
      chmodSync(path, 0o755);
      return path;
    };
    const appRoot = join(fx.outside, 'app');
    const onPath = fakeRg(join(fx.outside, 'bin', 'rg'));
    const pathVar = join(fx.outside, 'bin');
    expect(findEditorRipgrep(appRoot, pathVar)).toBe(onPath);
    const plain = fakeRg(join(appRoot, 'node_modules', '@vscode', 'ripgrep', 'bin', 'rg'));
    expect(findEditorRipgrep(appRoot, pathVar)).toBe(plain);
    const unpacked = fakeRg(join(appRoot, 'node_modules.asar.unpacked', '@vscode', 'ripgrep', 'bin', 'rg'));
    expect(findEditorRipgrep(appRoot, pathVar)).toBe(unpacked);
    chmodSync(unpacked, 0o644);
    expect(findEditorRipgrep(appRoot, pathVar)).toBe(plain);
    expect(vscodeRipgrepCandidates('C:\\VS Code\\resources\\app', 'win32').every((c) => c.endsWith('rg.exe'))).toBe(true);
  });

  it('search_files turns a bad pattern into a clear error', async () => {
    fx = makeToolFixture();
    fx.write('a.txt', 'x');
    const { runToolCall } = await import('../../src/task/tools/runToolCall');
    const r = await runToolCall({ name: 'search_files', input: { regex: 'a(' } }, fx.ctx);
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/^The search pattern is not a valid regular expression: .*Escape special characters/);
  });

  it('globs follow ripgrep: base names anywhere unless the glob has a slash', () => {
    expect(compileGlob('*.ts').test('a/b/c.ts')).toBe(true);
    expect(compileGlob('*.ts').test('a/b/c.tsx')).toBe(false);
    expect(compileGlob('src/*.ts').test('src/a.ts')).toBe(true);
    expect(compileGlob('src/*.ts').test('src/x/a.ts')).toBe(false);
    expect(compileGlob('src/**/*.ts').test('src/a.ts')).toBe(true);
    expect(compileGlob('src/**/*.ts').test('src/x/y/a.ts')).toBe(true);
    expect(compileGlob('*.{js,ts}').test('a.js')).toBe(true);
    expect(compileGlob('*.{js,ts}').test('a.py')).toBe(false);
    expect(compileGlob('file?.[ch]').test('d/file1.c')).toBe(true);
    expect(compileGlob('file?.[!ch]').test('d/file1.c')).toBe(false);
    expect(compileGlob('a.b').test('axb')).toBe(false);
    expect(compileGlob('src/**').test('src/x/y/a.ts')).toBe(true);
    expect(compileGlob('**/test/*.ts').test('test/a.ts')).toBe(true);
    expect(compileGlob('**/test/*.ts').test('a/b/test/c/d.ts')).toBe(false);
    expect(compileGlob('/src/*.ts').test('src/a.ts')).toBe(true);
    expect(compileGlob('{src,lib}/**/*.{ts,tsx}').test('lib/ui/a.tsx')).toBe(true);
    expect(compileGlob('{src,lib}/**/*.{ts,tsx}').test('app/ui/a.tsx')).toBe(false);
    expect(compileGlob('*.{js,{m,c}ts}').test('a.cts')).toBe(true);
    expect(compileGlob('\\*.md').test('*.md')).toBe(true);
    expect(compileGlob('\\*.md').test('a.md')).toBe(false);
    expect(compileGlob('[a-c]?x').test('d/bzx')).toBe(true);
    expect(compileGlob('*.ts').test('a/b/ts')).toBe(false);
  });
});
