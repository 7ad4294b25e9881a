import { execFileSync } from 'node:child_process';
import { chmodSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { GitignoreMatcher } from '../../src/adapters/gitignoreMatcher';
import { JsTextSearcher } from '../../src/adapters/jsTextSearcher';
import { NodeWorkspace } from '../../src/adapters/nodeWorkspace';
import { createTextSearcher } from '../../src/adapters/ripgrepSearcher';
import { compileGlob, GLOB_MAX_ALTERNATIVES } from '../../src/task/tools/globMatcher';
import { runToolCall } from '../../src/task/tools/runToolCall';
import type { DirEntry } from '../../src/task/workspacePort';
import { makeToolFixture } from '../support/toolWorkspace';
import type { ToolFixture } from '../support/toolWorkspace';

// Tools whose work the model's input decides must not hang the host: the freeze was
// `(a+)+$` on a 41-byte file through the JavaScript fallback (no ripgrep on PATH).

let fx: ToolFixture;
afterEach(() => fx?.remove());

/** 40 a's then a character that makes `(a+)+$` fail only after trying every split: 2^40 steps on one thread. */
const EVIL_LINE = `${'a'.repeat(40)}!`;
const EVIL = '(a+)+$';

describe('search_files cannot hang the host', () => {
  it('stops a backtracking pattern at the time limit and says what to do', async () => {
    fx = makeToolFixture({ rgPath: null });
    fx.write('ok.txt', 'aaa\n');
    fx.write('zz-evil.txt', EVIL_LINE);
    expect(EVIL_LINE.length).toBe(41);
    fx.ctx.limits = { searchSeconds: 1 };
    const started = Date.now();
    const r = await runToolCall({ name: 'search_files', input: { regex: EVIL } }, fx.ctx);
    const took = Date.now() - started;
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/^search stopped after 1 s: the pattern \/\(a\+\)\+\$\/ took too long in '\.' .*simplify it or narrow the path/);
    // What was found before the stop is kept.
    expect(r.text).toContain('ok.txt:1: aaa');
    expect(took).toBeGreaterThanOrEqual(900);
    expect(took).toBeLessThan(5_000);
  });

  it("stops at the user's Stop, long before the time limit", async () => {
    fx = makeToolFixture({ rgPath: null });
    fx.write('evil.txt', EVIL_LINE);
    const stop = new AbortController();
    fx.ctx.signal = stop.signal;
    fx.ctx.limits = { searchSeconds: 60 };
    const started = Date.now();
    setTimeout(() => stop.abort(), 300);
    const r = await runToolCall({ name: 'search_files', input: { regex: EVIL } }, fx.ctx);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(r.text).toBe(`The user stopped the search for /${EVIL}/. No match had been found yet.`);
  });

  it('the fallback searcher keeps the calling thread free while a match runs', async () => {
    fx = makeToolFixture({ rgPath: null });
    fx.write('evil.txt', EVIL_LINE);
    const ws = new NodeWorkspace(fx.root);
    const searcher = new JsTextSearcher(ws, new GitignoreMatcher(ws));
    const stop = new AbortController();
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 20);
    setTimeout(() => stop.abort(), 500);
    const r = await searcher.search({ pattern: EVIL, path: '', maxMatches: 10, includeIgnored: false, signal: stop.signal });
    clearInterval(ticker);
    expect(r.matches).toEqual([]);
    // Timers fired while the pattern ran: the event loop was never blocked.
    expect(ticks).toBeGreaterThan(10);
  });
});

describe('file_pattern globs cannot stall the host', () => {
  it('matches a star-heavy glob against a long name at once (a backtracking RegExp took 38 s)', () => {
    const started = Date.now();
    const glob = compileGlob('*a*a*a*a*a*a*a*a*b');
    expect(glob.test('a'.repeat(250))).toBe(false);
    expect(glob.test(`${'a'.repeat(250)}b`)).toBe(true);
    expect(compileGlob('**/**/**/**/**/x').test('a/'.repeat(120) + 'y')).toBe(false);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('refuses a glob whose braces expand past the limit, with what to do', async () => {
    fx = makeToolFixture({ rgPath: null });
    fx.write('a.txt', 'needle');
    const braces = '{a,b}'.repeat(Math.ceil(Math.log2(GLOB_MAX_ALTERNATIVES)) + 1);
    const r = await runToolCall({ name: 'search_files', input: { regex: 'needle', file_pattern: braces } }, fx.ctx);
    expect(r.text).toBe(`The file_pattern '${braces}' expands to more than ${GLOB_MAX_ALTERNATIVES} alternatives through {a,b}; use fewer braces or a plainer pattern.`);
    const bad = await runToolCall({ name: 'search_files', input: { regex: 'needle', file_pattern: '[z-a].txt' } }, fx.ctx);
    expect(bad.text).toBe('The file_pattern has an invalid character class [z-a]; write ranges low to high, e.g. [a-z].');
  });
});

describe('list_files and read_file cannot hang the host', () => {
  /** A file system that answers each folder listing slowly, as a network drive or a huge tree would. */
  class SlowWorkspace extends NodeWorkspace {
    override async listDir(rel: string): Promise<DirEntry[]> {
      await sleep(60);
      return super.listDir(rel);
    }
  }

  it('stops a recursive listing at the time limit and says what to do', async () => {
    fx = makeToolFixture();
    for (let i = 0; i < 40; i++) fx.write(`d${i}/f.txt`, 'x');
    fx.ctx.workspace = new SlowWorkspace(fx.root);
    fx.ctx.limits = { listSeconds: 0.5 };
    const started = Date.now();
    const r = await runToolCall({ name: 'list_files', input: { recursive: true } }, fx.ctx);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/^listing stopped after 0\.5 s: the tree is too large to walk; list a sub-folder, or without recursive\. Entries found before it stopped: \d+\.\nd0\//);
  });

  it('walks a tree with a symbolic link loop once', async () => {
    fx = makeToolFixture();
    fx.write('a/b.txt', 'x');
    symlinkSync(join(fx.root, 'a'), join(fx.root, 'a', 'loop'));
    expect((await runToolCall({ name: 'list_files', input: { recursive: true } }, fx.ctx)).text).toBe('a/\na/b.txt\na/loop@');
  });

  it('refuses to read or write a FIFO, which would block', async () => {
    fx = makeToolFixture();
    execFileSync('mkfifo', [join(fx.root, 'pipe')]);
    expect((await runToolCall({ name: 'read_file', input: { path: 'pipe' } }, fx.ctx)).text).toBe("'pipe' is not a regular file (a pipe, socket or device); only files can be read.");
    expect((await runToolCall({ name: 'write_file', input: { path: 'pipe', content: 'x' } }, fx.ctx)).text).toBe("'pipe' is not a regular file (a pipe, socket or device); it is not written.");
  });
});

describe('read_file on a huge file', () => {
  it('stops scanning for a far line range at the time limit and says what to do', async () => {
    fx = makeToolFixture();
    fx.write('huge.log', `${'x'.repeat(99)}\n`.repeat(300_000)); // 30 MB, 300,000 lines
    fx.ctx.limits = { readSeconds: 0.001 };
    const r = await runToolCall({ name: 'read_file', input: { path: 'huge.log', start_line: 299_999 } }, fx.ctx);
    expect(r.text).toMatch(/^read stopped after 0\.001 s: 'huge\.log' \(28\.6 MB\) was scanned to line \d+, short of line 299999\. Find the lines you need with search_files/);
    fx.ctx.limits = {};
    expect((await runToolCall({ name: 'read_file', input: { path: 'huge.log', start_line: 299_999 } }, fx.ctx)).text).toMatch(/^huge\.log \(lines 299999-300000 of 300000\)/);
  });
});

describe('search_files through ripgrep', () => {
  it('kills an rg that does not finish at the time limit', async () => {
    fx = makeToolFixture();
    // A stand-in rg that never answers, as one blocked on a pipe or a network drive would.
    const rg = join(fx.outside, 'rg');
    writeFileSync(rg, '#!/bin/sh\nexec sleep 30\n');
    chmodSync(rg, 0o755);
    fx.ctx.searcher = createTextSearcher(fx.ctx.workspace, fx.ctx.ignore, { rgPath: rg });
    fx.ctx.limits = { searchSeconds: 0.5 };
    const started = Date.now();
    const r = await runToolCall({ name: 'search_files', input: { regex: 'x' } }, fx.ctx);
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(r.text).toMatch(/^search stopped after 0\.5 s: the pattern \/x\/ took too long in '\.'/);
  });
});
