import { execFileSync } from 'node:child_process';
import { getEventListeners } from 'node:events';
import { chmodSync, mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GitignoreMatcher } from '../../src/adapters/gitignoreMatcher';
import { NodeWorkspace } from '../../src/adapters/nodeWorkspace';
import { createTextSearcher, findRipgrep, RipgrepSearcher } from '../../src/adapters/ripgrepSearcher';
import { StrataError } from '../../src/shared/strataError';
import type { TextSearchQuery } from '../../src/task/workspacePort';
import { useTempDirs } from '../support/tempDirs';

const tempDir = useTempDirs('strata-rg-');
// These tests are of the ripgrep adapter: they need rg on PATH (the fallback has its own tests).
const rg = findRipgrep();
if (!rg) throw new Error('ripgrep (rg) is not on PATH: install it (apt-get install ripgrep) to run the ripgrep adapter tests.');

/** A workspace folder `ws` inside a fresh temp folder (so a parent folder can hold ignore files). */
function workspace(files: Record<string, string>): { base: string; root: string } {
  const base = realpathSync(tempDir());
  const root = join(base, 'ws');
  mkdirSync(root);
  for (const [rel, text] of Object.entries(files)) {
    const path = join(base, rel);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  }
  return { base, root };
}

const query = (q: Partial<TextSearchQuery>): TextSearchQuery => ({ pattern: 'token', path: '', maxMatches: 100, includeIgnored: false, ...q });
const found = async (root: string, q: Partial<TextSearchQuery> = {}) => (await new RipgrepSearcher(root, rg!).search(query(q))).matches.map((m) => `${m.path}:${m.line}:${m.text}`);

async function withEnv<T>(vars: Record<string, string>, body: () => Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  Object.assign(process.env, vars);
  try {
    return await body();
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

describe('findRipgrep and createTextSearcher', () => {
  it('skips an rg that is not executable, and reads PATH by default', () => {
    const base = realpathSync(tempDir());
    const [first, second] = [join(base, 'a'), join(base, 'b')];
    mkdirSync(first);
    mkdirSync(second);
    writeFileSync(join(first, 'rg'), '#!/bin/sh\n');
    chmodSync(join(first, 'rg'), 0o644);
    writeFileSync(join(second, 'rg'), '#!/bin/sh\n');
    chmodSync(join(second, 'rg'), 0o755);
    expect(findRipgrep(`${first}:${second}`)).toBe(join(second, 'rg'));
    expect(findRipgrep()).toBe(findRipgrep(process.env.PATH));
  });

  it('an empty rgPath means the JavaScript fallback; a given one means ripgrep at that path', async () => {
    const { root } = workspace({ 'ws/a.txt': 'token\n' });
    const ws = new NodeWorkspace(root);
    expect((await createTextSearcher(ws, new GitignoreMatcher(ws), { rgPath: '' }).search(query({}))).engine).toBe('javascript');
    const missing = join(root, 'no-rg');
    const error: unknown = await createTextSearcher(ws, new GitignoreMatcher(ws), { rgPath: missing }).search(query({})).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StrataError);
    expect(error).toMatchObject({ code: 'search-failed', message: `ripgrep (${missing}) could not run: spawn ${missing} ENOENT.` });
  });
});

describe('RipgrepSearcher: ignore rules match the fallback, whatever the machine has configured', () => {
  it('honours .gitignore without a git repository; ignores .ignore, parent, global, exclude and rg config files', async () => {
    const { base, root } = workspace({
      '.gitignore': 'parent.txt\n',
      'ws/.gitignore': 'gitignored.txt\n',
      'ws/.ignore': 'dot.txt\n',
      'ws/gitignored.txt': 'token\n',
      'ws/dot.txt': 'token\n',
      'ws/parent.txt': 'token\n',
      'ws/global.txt': 'token\n',
      'ws/kept.txt': 'TOKEN\n',
      'xdg/git/ignore': 'global.txt\n',
      'rgrc': '--ignore-case\n',
    });
    const r = await withEnv({ XDG_CONFIG_HOME: join(base, 'xdg'), RIPGREP_CONFIG_PATH: join(base, 'rgrc') }, () => found(root));
    expect(r).toEqual(['dot.txt:1:token', 'global.txt:1:token', 'parent.txt:1:token']);
    expect(await found(root, { includeIgnored: true })).toEqual(['dot.txt:1:token', 'gitignored.txt:1:token', 'global.txt:1:token', 'parent.txt:1:token']);
  });

  it('leaves out what .git/info/exclude lists in a git repository: only .gitignore and .strataignore count', async () => {
    const { root } = workspace({ 'ws/.git/info/exclude': 'excluded.txt\n', 'ws/.git/HEAD': 'token\n', 'ws/excluded.txt': 'token\n' });
    expect(await found(root)).toEqual(['excluded.txt:1:token']);
  });

  it('answers in path order across many folders', async () => {
    const names = ['b/z.txt', 'a/y.txt', 'c.txt', 'a/b/x.txt', 'b/a.txt', 'a.txt', 'd/e/f/g.txt', 'a/a.txt'];
    const { root } = workspace(Object.fromEntries(names.map((n) => [`ws/${n}`, 'token\n'])));
    const r = await found(root);
    // rg sorts each folder's entries by name: `a/a.txt` before `a.txt`.
    const byParts = (x: string, y: string) => {
      const [a, b] = [x.split('/'), y.split('/')];
      for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
      return a.length - b.length;
    };
    expect(r).toEqual([...r].sort(byParts));
    expect(r).toHaveLength(names.length);
  });
});

describe('RipgrepSearcher: paths, globs, lines and the cap', () => {
  it('searches a folder whose name starts with a dash, and strips line endings (LF and CRLF)', async () => {
    const { root } = workspace({ 'ws/-odd/a.txt': 'token lf\ntoken crlf\r\ntoken last' });
    expect(await found(root, { path: '-odd' })).toEqual(['-odd/a.txt:1:token lf', '-odd/a.txt:2:token crlf', '-odd/a.txt:3:token last']);
  });

  it('a file asked for by path is searched whatever the glob says; files found in a folder must match it', async () => {
    const { root } = workspace({ 'ws/src/a.ts': 'token\n', 'ws/src/b.md': 'token\n' });
    expect(await found(root, { path: 'src/a.ts', glob: '*.md' })).toEqual(['src/a.ts:1:token']);
    expect(await found(root, { path: 'src', glob: '*.md' })).toEqual(['src/b.md:1:token']);
  });

  it('exactly maxMatches matches is not truncated; one more is', async () => {
    const { root } = workspace({ 'ws/a.txt': 'token 1\ntoken 2\n', 'ws/b.txt': 'token 3\n' });
    const s = new RipgrepSearcher(root, rg!);
    expect(await s.search(query({ maxMatches: 3 }))).toEqual({ matches: expect.any(Array), truncated: false, engine: 'ripgrep' });
    const capped = await s.search(query({ maxMatches: 2 }));
    expect(capped.matches.map((m) => m.text)).toEqual(['token 1', 'token 2']);
    expect(capped.truncated).toBe(true);
  });

  it('no match is an empty answer, not an error; a bad pattern says what rg said', async () => {
    const { root } = workspace({ 'ws/a.txt': 'nothing\n' });
    const s = new RipgrepSearcher(root, rg!);
    expect(await s.search(query({}))).toEqual({ matches: [], truncated: false, engine: 'ripgrep' });
    const error: unknown = await s.search(query({ pattern: 'a(' })).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'search-pattern', message: expect.stringMatching(/^The search failed: regex parse error:\n/) });
    expect((error as Error).message).not.toMatch(/\s$/);
  });

  it('an abort stops a search that is stuck (reading a pipe nobody writes), one before the search starts none at all, and the signal keeps no listener', async () => {
    const { root } = workspace({ 'ws/a.txt': 'token\n' });
    execFileSync('mkfifo', [join(root, 'stuck')]);
    const s = new RipgrepSearcher(root, rg!);
    const stop = new AbortController();
    const searching = s.search(query({ path: 'stuck', signal: stop.signal }));
    expect(getEventListeners(stop.signal, 'abort')).toHaveLength(1);
    stop.abort();
    expect(await searching).toEqual({ matches: [], truncated: false, engine: 'ripgrep' });
    expect(getEventListeners(stop.signal, 'abort')).toHaveLength(0);
    const done = new AbortController();
    await s.search(query({ signal: done.signal }));
    expect(getEventListeners(done.signal, 'abort')).toHaveLength(0);
    // stopped before it began: no rg is started, so nothing waits on the pipe
    expect(await s.search(query({ path: 'stuck', signal: AbortSignal.abort() }))).toEqual({ matches: [], truncated: false, engine: 'ripgrep' });
  }, 15_000);
});
