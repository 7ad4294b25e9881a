import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { typescriptServerSpec } from '../../src/adapters/languageServerSpec';
import { LspLanguageService } from '../../src/adapters/lspLanguageService';
import { StrataError } from '../../src/shared/strataError';
import { languageProblems } from '../../src/task/languageProblems';
import { resolveColumn } from '../../src/task/tools/lspTarget';
import { runToolCall } from '../../src/task/tools/runToolCall';
import { workspaceTools, WORKSPACE_TOOLS } from '../../src/task/tools/toolRegistry';
import { textAnswer, toolAnswer } from '../support/messagesApiEvents';
import { MessagesApiServer } from '../support/messagesApiServer';
import { makeToolFixture } from '../support/toolWorkspace';
import type { ToolFixture } from '../support/toolWorkspace';
import { alive, waitGone } from '../support/processAlive';
import { onLspMessages } from '../support/fakeLanguageServer';

// One real typescript-language-server for the whole file: starting it and loading the project
// takes seconds, each request after that milliseconds.
let fx: ToolFixture;
let service: LspLanguageService;

const MATH = [
  'export function add(a: number, b: number): number {',
  '  return a + b;',
  '}',
  '',
  'export class Calculator {',
  '  total = 0;',
  '  plus(n: number): this {',
  '    this.total = add(this.total, n);',
  '    return this;',
  '  }',
  '}',
  '',
].join('\n');
const MAIN = [
  "import { add, Calculator } from './math';",
  '',
  'const addAll = (xs: number[]) => xs.reduce(add, 0);',
  'export const sum = addAll([1, 2]) + add(3, 4);',
  'export const calc = new Calculator().plus(sum);',
  '',
].join('\n');
const BAD = "import { add } from './math';\nexport const label: string = add(1, 2);\n";

const tools = () => workspaceTools(service);
const call = (name: string, input: unknown) => runToolCall({ name, input }, fx.ctx, tools());

beforeAll(() => {
  fx = makeToolFixture();
  fx.write('tsconfig.json', JSON.stringify({ compilerOptions: { strict: true, target: 'ES2022', module: 'ESNext', moduleResolution: 'Bundler', noEmit: true }, include: ['src'] }));
  fx.write('src/math.ts', MATH);
  fx.write('src/main.ts', MAIN);
  fx.write('src/bad.ts', BAD);
  fx.write('notes.xyz', 'add add add\n');
  const server = typescriptServerSpec();
  if (!server) throw new Error('typescript-language-server is a dependency of this package and must resolve');
  service = new LspLanguageService({ root: fx.root, server });
  fx.ctx.language = service;
});

afterAll(async () => {
  await service?.close();
  fx?.remove();
});

describe('LSP tools over a real typescript-language-server', () => {
  it('lsp_definition goes from a use in one file to the declaration in another, the column found from the symbol name', async () => {
    // Line 4 holds `addAll` first: the whole word `add` is the call after it.
    const r = await call('lsp_definition', { path: 'src/main.ts', line: 4, symbol: 'add' });
    expect(r).toEqual({ isError: false, text: `Definition of 'add' at src/main.ts:4:37:\nsrc/math.ts:1:17 (to line 3): export function add(a: number, b: number): number {` });
    // The same place given by column answers the same, and a column on `addAll` finds addAll instead.
    expect((await call('lsp_definition', { path: 'src/main.ts', line: 4, column: 37 })).text).toContain('src/math.ts:1:17');
    expect((await call('lsp_definition', { path: 'src/main.ts', line: 4, column: 20 })).text).toContain('src/main.ts:3:7');
  }, 60_000);

  it('lsp_references lists every use, its declaration included, sorted by file and line', async () => {
    const r = await call('lsp_references', { path: 'src/math.ts', line: 1, symbol: 'add' });
    expect(r.isError).toBe(false);
    expect(r.text.split('\n')).toEqual([
      "7 references to 'add' at src/math.ts:1:17 in 3 files:",
      "src/bad.ts:1:10: import { add } from './math';",
      'src/bad.ts:2:30: export const label: string = add(1, 2);',
      "src/main.ts:1:10: import { add, Calculator } from './math';",
      'src/main.ts:3:44: const addAll = (xs: number[]) => xs.reduce(add, 0);',
      'src/main.ts:4:37: export const sum = addAll([1, 2]) + add(3, 4);',
      'src/math.ts:1:17: export function add(a: number, b: number): number {',
      'src/math.ts:8:18: this.total = add(this.total, n);',
    ]);
  });

  it('lsp_document_symbols gives the outline, methods nested under their class', async () => {
    const r = await call('lsp_document_symbols', { path: 'src/math.ts' });
    expect(r.text).toBe(['src/math.ts: 4 symbols', 'function add (lines 1-3)', 'class Calculator (lines 5-11)', '  property total (line 6)', '  method plus (lines 7-10)'].join('\n'));
  });

  it('lsp_hover shows the type; a dotted symbol points at its last part', async () => {
    const r = await call('lsp_hover', { path: 'src/main.ts', line: 4, symbol: 'add' });
    expect(r.text).toContain('add(a: number, b: number): number');
    const member = await call('lsp_hover', { path: 'src/main.ts', line: 5, symbol: 'Calculator().plus' });
    expect(member.text).toContain('Calculator.plus(n: number): Calculator');
  });

  it('lsp_diagnostics reports a type error, follows the file on disk, and feeds @problems', async () => {
    const r = await call('lsp_diagnostics', { path: 'src/bad.ts' });
    expect(r).toEqual({ isError: false, text: "1 error, 0 warnings in src/bad.ts:\nsrc/bad.ts:2:14: error TS2322: Type 'number' is not assignable to type 'string'." });
    expect((await call('lsp_diagnostics', { path: 'src/math.ts' })).text).toBe('No errors or warnings in src/math.ts.');
    const problems = await languageProblems(service, () => ['src/bad.ts', 'notes.xyz'])();
    expect(problems).toContain("src/bad.ts:2:14: error TS2322: Type 'number' is not assignable to type 'string'.");

    // A fix written to disk (as write_file would) is what the server checks next.
    fx.write('src/bad.ts', "import { add } from './math';\nexport const label: string = String(add(1, 2));\n");
    expect((await call('lsp_diagnostics', { path: 'src/bad.ts' })).text).toBe('No errors or warnings in src/bad.ts.');
    fx.write('src/bad.ts', BAD);
  });

  it('refuses paths outside the workspace and answers plainly for files no server handles', async () => {
    for (const path of ['../outside/x.ts', `${fx.outside}/x.ts`]) {
      const r = await call('lsp_definition', { path, line: 1, symbol: 'x' });
      expect(r.isError).toBe(true);
      expect(r.text).toMatch(/^Refused: /);
    }
    const xyz = await call('lsp_references', { path: 'notes.xyz', line: 1, symbol: 'add' });
    expect(xyz).toEqual({ isError: true, text: "No language server handles .xyz files here, so 'notes.xyz' has no definitions, references or diagnostics to ask for; use search_files and read_file instead." });
    expect((await call('lsp_diagnostics', { path: 'notes.xyz' })).text).toMatch(/No language server handles \.xyz files/);
    await expect(service.hover('notes.xyz', 1, 1, new AbortController().signal)).rejects.toMatchObject({ code: 'lsp-unsupported' });
  });

  it('says where a symbol is missing instead of guessing a column', async () => {
    const r = await call('lsp_hover', { path: 'src/main.ts', line: 3, symbol: 'Calculator' });
    expect(r).toEqual({ isError: true, text: "'Calculator' is not on line 3 of 'src/main.ts'. The line reads: const addAll = (xs: number[]) => xs.reduce(add, 0);\nCheck the line number (read_file shows numbered lines) or the spelling." });
    expect((await call('lsp_hover', { path: 'src/main.ts', line: 99, symbol: 'add' })).text).toBe("'src/main.ts' has 6 lines; line 99 is past its end.");
    expect((await call('lsp_hover', { path: 'src/main.ts', line: 1 })).text).toMatch(/give symbol \(its name as written on that line\) or column/);
  });

  it('stops a request when the signal aborts', async () => {
    const stop = new AbortController();
    stop.abort();
    await expect(service.references('src/math.ts', 1, 17, stop.signal)).rejects.toMatchObject({ code: 'aborted' });
  });

  it('leaves no process behind after close: the server and its tsserver children are gone', async () => {
    const pid = service.pid;
    expect(pid).toBeGreaterThan(0);
    expect(liveGroupMembers(pid!).length).toBeGreaterThan(1); // the server and its tsserver
    expect(processesIn(fx.root)).toContain(pid);
    await service.close();
    // SIGKILL is delivered asynchronously: give the kernel a moment, not the processes a choice.
    for (let i = 0; i < 50 && liveGroupMembers(pid!).length > 0; i++) await new Promise((r) => setTimeout(r, 100));
    expect(liveGroupMembers(pid!)).toEqual([]);
    await expect(service.definition('src/main.ts', 4, 37, new AbortController().signal)).rejects.toMatchObject({ code: 'lsp-closed' });
  });
});

describe('LSP tools: wiring and failures that need no server', () => {
  it('are offered after the workspace tools, and only with a language service', () => {
    expect(workspaceTools(undefined)).toBe(WORKSPACE_TOOLS);
    const names = workspaceTools(service).map((t) => t.name);
    expect(names.slice(0, WORKSPACE_TOOLS.length)).toEqual(WORKSPACE_TOOLS.map((t) => t.name));
    expect(names.slice(WORKSPACE_TOOLS.length)).toEqual(['lsp_definition', 'lsp_references', 'lsp_document_symbols', 'lsp_hover', 'lsp_diagnostics']);
  });

  it('a session without a language service says so', async () => {
    const { language: _none, ...ctx } = fx.ctx;
    const r = await runToolCall({ name: 'lsp_definition', input: { path: 'src/main.ts', line: 4, symbol: 'add' } }, ctx, workspaceTools(service));
    expect(r).toEqual({ isError: true, text: 'No language server runs in this session; use list_definitions, search_files and read_file instead.' });
  });

  it('a missing server binary fails the first call with a clear error, and nothing else', async () => {
    const missing = new LspLanguageService({
      root: fx.root,
      server: { name: 'no-such-server', command: '/nonexistent/no-such-server', args: [], languages: { '.ts': 'typescript' }, installHint: 'npm install no-such-server' },
    });
    const error: unknown = await missing.documentSymbols('src/math.ts', new AbortController().signal).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StrataError);
    expect(error).toMatchObject({ code: 'lsp-missing' });
    expect((error as Error).message).toMatch(/^no-such-server could not start \(spawn \/nonexistent\/no-such-server ENOENT\)\. Install it \(npm install no-such-server\)/);
    await missing.close();
  });

  it('a server that never answers initialize fails the call after the start timeout, and is killed', async () => {
    const mute = new LspLanguageService({ root: fx.root, server: fakeServer('mute'), startTimeoutMs: 300 });
    const error: unknown = await mute.documentSymbols('src/math.ts', new AbortController().signal).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'lsp-timeout', message: expect.stringMatching(/^fake-server initialize gave no answer within 0\.3 s/) });
    await waitGone(mute.pid!);
    expect(alive(mute.pid!)).toBe(false);
    await mute.close();
  });

  it('a server that ignores requests and shutdown times out per request and is killed on close', async () => {
    const stuck = new LspLanguageService({ root: fx.root, server: fakeServer('stuck'), requestTimeoutMs: 300, shutdownTimeoutMs: 300 });
    const error: unknown = await stuck.documentSymbols('src/math.ts', new AbortController().signal).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'lsp-timeout', message: expect.stringMatching(/^fake-server document symbols gave no answer within 0\.3 s/) });
    const pid = stuck.pid!;
    expect(alive(pid)).toBe(true); // it ignores SIGTERM and keeps running
    await stuck.close();
    expect(alive(pid)).toBe(false);
  });

  it('resolves a column from a symbol: whole word first, dotted names at their last part', () => {
    const v = (symbol: string) => resolveColumn('const addAll = add(x) + y.add;', 'a.ts', { path: 'a.ts', line: 1, symbol });
    expect(v('add')).toMatchObject({ ok: true, column: 16 });
    expect(v('dAll')).toMatchObject({ ok: true, column: 9 }); // no whole word: the first occurrence
    expect(v('y.add')).toMatchObject({ ok: true, column: 27 });
    expect(v('zzz')).toMatchObject({ ok: false });
    expect(resolveColumn('ab', 'a.ts', { path: 'a.ts', line: 1, column: 9 })).toMatchObject({ ok: false });
  });
});

describe('strata chat with the TypeScript server (the built CLI against a local Messages API)', () => {
  const CLI = join(__dirname, '..', '..', 'dist', 'cli.js');
  const chat = (args: string[], home: string) =>
    new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [CLI, 'chat', ...args], { env: { PATH: process.env.PATH, HOME: home, ANTHROPIC_API_KEY: 'sk-ant-lsp-test' }, stdio: ['pipe', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('close', (code) => resolve({ code, stderr }));
      child.stdin.end('What type has add?\n');
    });

  it('offers the LSP tools, answers lsp_hover from a real server, and leaves no server running; --no-lsp offers none', async () => {
    const api = await MessagesApiServer.start({ models: [{ id: 'claude-sonnet-5-5', max_input_tokens: 200_000, max_tokens: 64_000 }] });
    const home = makeToolFixture();
    try {
      home.write('tsconfig.json', JSON.stringify({ compilerOptions: { strict: true, noEmit: true }, include: ['src'] }));
      home.write('src/math.ts', MATH);
      const args = ['--workspace', home.root, '--base-url', api.url, '--archive', join(home.outside, 'a.sqlite'), '--yes'];
      api.enqueue(toolAnswer('lsp_hover', { path: 'src/math.ts', line: 8, symbol: 'add' }), textAnswer('It takes two numbers.'));
      const withLsp = await chat(args, home.outside);
      expect(withLsp.stderr).not.toMatch(/error \(/);
      expect(withLsp.code).toBe(0);
      const toolNames = (i: number) => ((api.messageRequests[i]?.body as { tools: { name: string }[] }).tools ?? []).map((t) => t.name);
      expect(toolNames(0).filter((n) => n.startsWith('lsp_'))).toEqual(['lsp_definition', 'lsp_references', 'lsp_document_symbols', 'lsp_hover', 'lsp_diagnostics']);
      expect(JSON.stringify(api.messageRequests[1]?.body)).toContain("Hover for 'add' at src/math.ts:8:18");
      expect(JSON.stringify(api.messageRequests[1]?.body)).toContain('function add(a: number, b: number): number');
      for (let i = 0; i < 50 && processesIn(home.root).length > 0; i++) await new Promise((r) => setTimeout(r, 100));
      expect(processesIn(home.root)).toEqual([]);

      api.enqueue(textAnswer('No tools needed.'));
      const without = await chat([...args, '--no-lsp'], home.outside);
      expect(without.code).toBe(0);
      expect(toolNames(2).filter((n) => n.startsWith('lsp_'))).toEqual([]);
    } finally {
      await api.close();
      home.remove();
    }
  }, 60_000);
});

/**
 * A stand-in server over stdio that answers `initialize` ('stuck') or nothing at all ('mute'),
 * ignores every other message and SIGTERM, and never exits by itself.
 */
function fakeServer(mode: 'stuck' | 'mute') {
  const script = `
    process.on('SIGTERM', () => {});
    setInterval(() => {}, 1000);
    ${onLspMessages(`
        if (msg.method === 'initialize' && ${JSON.stringify(mode)} === 'stuck') {
          const body = JSON.stringify({ jsonrpc: '2.0', id: msg.id, result: { capabilities: {} } });
          process.stdout.write('Content-Length: ' + Buffer.byteLength(body) + '\\r\\n\\r\\n' + body);
        }
    `)}`;
  return { name: 'fake-server', command: process.execPath, args: ['-e', script], languages: { '.ts': 'typescript' }, installHint: 'nothing to install' };
}

/** Live processes whose working folder is `dir` (the language server runs in the workspace root), from /proc. */
function processesIn(dir: string): number[] {
  return readdirSync('/proc')
    .filter((e) => /^\d+$/.test(e))
    .filter((e) => {
      try {
        return readlinkSync(`/proc/${e}/cwd`) === dir && !/\) Z /.test(readFileSync(`/proc/${e}/stat`, 'utf8'));
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** Processes of `pgid`'s group that are still running (zombies waiting for init do not count), from /proc. */
function liveGroupMembers(pgid: number): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue;
    }
    // Fields after "(comm)": state, ppid, pgrp, ...
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (pgrp === String(pgid) && state !== 'Z') out.push(Number(entry));
  }
  return out;
}
