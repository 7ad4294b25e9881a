import { mkdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { Logger } from '../../src/engine/ports';
import { LspLanguageService } from '../../src/adapters/lspLanguageService';
import type { LspLanguageServiceOptions } from '../../src/adapters/lspLanguageService';
import { fakeServer, received } from '../support/fakeLanguageServer';
import type { FakeServerScript } from '../support/fakeLanguageServer';
import { useTempDirs } from '../support/tempDirs';

// The adapter over a stand-in server whose answers each test sets (test/support/fakeLanguageServer.ts);
// lspTools.test.ts runs it against the real typescript-language-server.
const tempDir = useTempDirs('strata-lspsvc-');
const services: LspLanguageService[] = [];
afterEach(async () => {
  for (const s of services.splice(0)) await s.close();
});

const signal = () => new AbortController().signal;
const range = (sl: number, sc: number, el: number, ec: number) => ({ start: { line: sl, character: sc }, end: { line: el, character: ec } });

interface Setup {
  base: string;
  root: string;
  log: string;
  service: LspLanguageService;
  uri(rel: string): string;
  write(rel: string, text: string): void;
  warnings: string[];
}

/** A workspace `ws` (reached through the symlink `link` when `viaLink`) with a.ts, and a service over the fake server. */
function setup(script: Omit<FakeServerScript, 'log'> | ((paths: { root: string; real: string }) => Omit<FakeServerScript, 'log'>) = {}, options: Partial<LspLanguageServiceOptions> & { viaLink?: boolean } = {}): Setup {
  const base = realpathSync(tempDir());
  const real = join(base, 'ws');
  mkdirSync(real);
  let root = real;
  if (options.viaLink) {
    root = join(base, 'link');
    symlinkSync(real, root);
  }
  const log = join(base, 'server.log');
  const warnings: string[] = [];
  const logger: Logger = { info: () => undefined, warn: (m) => warnings.push(m), error: () => undefined };
  const { viaLink: _, ...rest } = options;
  const answers = typeof script === 'function' ? script({ root, real }) : script;
  const service = new LspLanguageService({ root, server: fakeServer({ log, ...answers }), logger, diagnosticsSettleMs: 50, diagnosticsWaitMs: 2_000, ...rest });
  services.push(service);
  const write = (rel: string, text: string) => writeFileSync(join(real, rel), text);
  write('a.ts', 'export const a = 1;\n');
  return { base, root, log, service, warnings, write, uri: (rel) => pathToFileURL(join(root, rel)).href };
}

describe('LspLanguageService: answers', () => {
  it('asks at 0-based positions and gives locations 1-based, inside the workspace relative and outside absolute', async () => {
    const { service, log, root } = setup(({ root }) => ({
      results: {
        'textDocument/definition': { uri: 'file:///usr/lib/node/x.d.ts', range: range(9, 4, 9, 8) },
        'textDocument/references': [
          { uri: pathToFileURL(join(root, 'a.ts')).href, range: range(0, 13, 0, 14) },
          { uri: pathToFileURL(root).href, range: range(1, 0, 1, 1) },
        ],
      },
    }));
    expect(await service.definition('a.ts', 3, 7, signal())).toEqual([{ path: '/usr/lib/node/x.d.ts', outside: true, line: 10, column: 5, endLine: 10, endColumn: 9 }]);
    expect(await service.references('a.ts', 1, 14, signal())).toEqual([
      { path: 'a.ts', outside: false, line: 1, column: 14, endLine: 1, endColumn: 15 },
      // the root folder itself is no file in the workspace
      { path: root, outside: true, line: 2, column: 1, endLine: 2, endColumn: 2 },
    ]);
    const requests = received(log).filter((m) => m.method === 'textDocument/definition' || m.method === 'textDocument/references');
    expect(requests.map((m) => m.params?.position)).toEqual([{ line: 2, character: 6 }, { line: 0, character: 13 }]);
    expect(requests[1]?.params?.context).toEqual({ includeDeclaration: true });
  });

  it('a workspace reached through a symlink still maps the real paths the server answers with', async () => {
    const { service, root } = setup(({ real }) => ({ results: { 'textDocument/definition': [{ uri: pathToFileURL(join(real, 'a.ts')).href, range: range(0, 0, 0, 1) }] } }), { viaLink: true });
    expect(realpathSync(root)).not.toBe(root);
    expect(await service.definition('a.ts', 1, 1, signal())).toMatchObject([{ path: 'a.ts', outside: false }]);
  });

  it('empty answers (null) are empty lists and no hover', async () => {
    const { service } = setup({ results: { 'textDocument/definition': null, 'textDocument/references': null, 'textDocument/documentSymbol': null, 'textDocument/hover': null } });
    expect(await service.definition('a.ts', 1, 1, signal())).toEqual([]);
    expect(await service.references('a.ts', 1, 1, signal())).toEqual([]);
    expect(await service.documentSymbols('a.ts', signal())).toEqual([]);
    expect(await service.hover('a.ts', 1, 1, signal())).toBeUndefined();
  });

  it('hover and symbols are converted from what the server sends', async () => {
    const { service } = setup({
      results: {
        'textDocument/hover': { contents: { kind: 'markdown', value: 'const a: 1' } },
        'textDocument/documentSymbol': [{ name: 'a', kind: 13, range: range(0, 0, 0, 19), selectionRange: range(0, 13, 0, 14) }],
      },
    });
    expect(await service.hover('a.ts', 1, 14, signal())).toBe('const a: 1');
    expect(await service.documentSymbols('a.ts', signal())).toEqual([{ name: 'a', kind: 'variable', line: 1, endLine: 1, children: [] }]);
  });

  it('tells the server who we are and what we understand', async () => {
    const { service, log, root } = setup({ results: { 'textDocument/hover': null } });
    await service.hover('a.ts', 1, 1, signal());
    const [init, initialized] = received(log);
    expect(init?.method).toBe('initialize');
    expect(init?.params).toMatchObject({
      processId: process.pid,
      rootUri: pathToFileURL(root).href,
      workspaceFolders: [{ uri: pathToFileURL(root).href, name: 'workspace' }],
      initializationOptions: null,
      capabilities: { textDocument: { definition: { linkSupport: true }, documentSymbol: { hierarchicalDocumentSymbolSupport: true } } },
    });
    expect(initialized?.method).toBe('initialized');
  });
});

describe('LspLanguageService: documents follow the disk', () => {
  it('opens a file once with its language, sends a change only when the text changed, and closes a deleted file', async () => {
    const { service, log, write, root, uri } = setup({ results: { 'textDocument/hover': null } }, {});
    write('b.TSX', 'let b = 1;\n');
    await service.hover('a.ts', 1, 1, signal());
    await service.hover('b.TSX', 1, 1, signal());
    await service.hover('a.ts', 1, 1, signal()); // nothing changed: nothing sent
    write('a.ts', 'export const a = 2;\n');
    await service.hover('b.TSX', 1, 1, signal());
    rmSync(join(root, 'a.ts'));
    await service.hover('b.TSX', 1, 1, signal());
    const sync = received(log).filter((m) => m.method?.startsWith('textDocument/did'));
    expect(sync.map((m) => [m.method, JSON.stringify(m.params)])).toEqual([
      ['textDocument/didOpen', JSON.stringify({ textDocument: { uri: uri('a.ts'), languageId: 'typescript', version: 1, text: 'export const a = 1;\n' } })],
      ['textDocument/didOpen', JSON.stringify({ textDocument: { uri: uri('b.TSX'), languageId: 'typescriptreact', version: 1, text: 'let b = 1;\n' } })],
      ['textDocument/didChange', JSON.stringify({ textDocument: { uri: uri('a.ts'), version: 2 }, contentChanges: [{ text: 'export const a = 2;\n' }] })],
      ['textDocument/didClose', JSON.stringify({ textDocument: { uri: uri('a.ts') } })],
    ]);
  });

  it('a file that cannot be read is an lsp-read error naming it', async () => {
    const { service } = setup();
    await expect(service.hover('missing.ts', 1, 1, signal())).rejects.toMatchObject({ code: 'lsp-read', message: "Cannot read 'missing.ts' for fake." });
  });

  it('a file type the server does not handle is refused before anything starts, naming what it handles', async () => {
    const { service } = setup();
    await expect(service.hover('notes.md', 1, 1, signal())).rejects.toMatchObject({ code: 'lsp-unsupported', message: "No language server here handles '.md' files; fake handles .ts .tsx." });
    await expect(service.diagnostics('Makefile', signal())).rejects.toMatchObject({ message: "No language server here handles 'Makefile' files; fake handles .ts .tsx." });
    expect(service.pid).toBeUndefined();
  });
});

describe('LspLanguageService: diagnostics', () => {
  const diag = (line: number, character: number, message: string, severity = 1) => ({ range: range(line, character, line, character + 1), severity, message, source: 'fake', code: 7 });

  it('for one file: what the server published for it; for none: every open file, by path, line and column', async () => {
    const { service, write } = setup({ diagnostics: { 'a.ts': [diag(3, 0, 'late'), diag(1, 5, 'second', 2), diag(1, 2, 'first')], 'b.ts': [diag(0, 0, 'in b')] } });
    write('b.ts', 'let b;\n');
    expect((await service.diagnostics('b.ts', signal())).map((d) => `${d.path}:${d.line}:${d.column} ${d.message}`)).toEqual(['b.ts:1:1 in b']);
    await service.diagnostics('a.ts', signal());
    const all = await service.diagnostics(undefined, signal());
    expect(all.map((d) => `${d.path}:${d.line}:${d.column} ${d.severity} ${d.message}`)).toEqual(['a.ts:2:3 error first', 'a.ts:2:6 warning second', 'a.ts:4:1 error late', 'b.ts:1:1 error in b']);
    expect(all[0]).toEqual({ path: 'a.ts', line: 2, column: 3, severity: 'error', message: 'first', source: 'fake', code: '7' });
  });

  it('a file the server publishes nothing for has none, once the wait is over', async () => {
    const { service } = setup({}, { diagnosticsWaitMs: 200 });
    expect(await service.diagnostics('a.ts', signal())).toEqual([]);
  });

  it('an abort while waiting for diagnostics stops the wait', async () => {
    const { service, log } = setup({}, { diagnosticsWaitMs: 60_000 });
    const stop = new AbortController();
    const waiting = service.diagnostics('a.ts', stop.signal);
    for (let i = 0; i < 200 && !received(log).some((m) => m.method === 'textDocument/didOpen'); i++) await new Promise((r) => setTimeout(r, 20));
    stop.abort();
    await expect(waiting).rejects.toMatchObject({ code: 'aborted' });
  }, 10_000);

  // One file used to wait the whole diagnostics wait; every file at once used to answer (an empty list).
  it.each([['one file', 'a.ts'], ['every file', undefined]])('an abort while the server starts stops a diagnostics call for %s: no answer after a stop', async (_, path) => {
    const { service, log } = setup({ initializeDelayMs: 300 }, { diagnosticsWaitMs: 60_000 });
    const stop = new AbortController();
    const waiting = service.diagnostics(path, stop.signal);
    for (let i = 0; i < 200 && !received(log).some((m) => m.method === 'initialize'); i++) await new Promise((r) => setTimeout(r, 20));
    stop.abort();
    await expect(waiting).rejects.toMatchObject({ code: 'aborted' });
  }, 10_000);
});

describe('LspLanguageService: requests that fail', () => {
  it('each request kind times out with its own name', async () => {
    const { service } = setup({}, { requestTimeoutMs: 100 });
    const what = async (run: Promise<unknown>) => ((await run.catch((e: unknown) => e)) as Error).message.replace(/ gave no answer.*/, '');
    expect(await what(service.definition('a.ts', 1, 1, signal()))).toBe('fake definition');
    expect(await what(service.references('a.ts', 1, 1, signal()))).toBe('fake references');
    expect(await what(service.hover('a.ts', 1, 1, signal()))).toBe('fake hover');
    expect(await what(service.documentSymbols('a.ts', signal()))).toBe('fake document symbols');
  });

  it('an abort while the server works rejects at once and cancels the request at the server', async () => {
    const { service, log } = setup({ results: { 'textDocument/hover': null } });
    await service.hover('a.ts', 1, 1, signal()); // started
    const stop = new AbortController();
    const asking = service.references('a.ts', 1, 1, stop.signal);
    for (let i = 0; i < 100 && !received(log).some((m) => m.method === 'textDocument/references'); i++) await new Promise((r) => setTimeout(r, 20));
    stop.abort();
    await expect(asking).rejects.toMatchObject({ code: 'aborted' });
    for (let i = 0; i < 100 && !received(log).some((m) => m.method === '$/cancelRequest'); i++) await new Promise((r) => setTimeout(r, 20));
    const request = received(log).find((m) => m.method === 'textDocument/references');
    expect(received(log).find((m) => m.method === '$/cancelRequest')?.params).toEqual({ id: request?.id });
  });
});

describe('LspLanguageService: the server process', () => {
  it('a server that exits during startup says so with its exit code and error output; the next call starts it again', async () => {
    const flag = join(realpathSync(tempDir()), 'started-once');
    const { service } = setup({ failStart: { code: 3, stderr: '  cannot find tsserver  \n', startOnceFlag: flag }, results: { 'textDocument/hover': { contents: 'ok' } } });
    await expect(service.hover('a.ts', 1, 1, signal())).rejects.toMatchObject({ code: 'lsp-start', message: 'fake exited during startup (code 3): cannot find tsserver' });
    expect(await service.hover('a.ts', 1, 1, signal())).toBe('ok');
  });

  it('without error output the startup failure says so', async () => {
    const { service } = setup({ failStart: { code: 4, stderr: '' } });
    await expect(service.hover('a.ts', 1, 1, signal())).rejects.toMatchObject({ message: 'fake exited during startup (code 4): no error output' });
  });

  it('a server that dies is started afresh on the next call, and reopens the documents', async () => {
    const { service, log } = setup({ results: { 'textDocument/hover': { contents: 'ok' } } });
    await service.hover('a.ts', 1, 1, signal());
    const first = service.pid!;
    process.kill(first, 'SIGKILL');
    for (let i = 0; i < 100 && signalable(first); i++) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 50)); // let the exit event reach the service
    expect(await service.hover('a.ts', 1, 1, signal())).toBe('ok');
    expect(service.pid).not.toBe(first);
    expect(received(log).filter((m) => m.method === 'textDocument/didOpen')).toHaveLength(2);
  });

  it('close shuts the server down politely (shutdown, then exit); closing again or before a start does nothing', async () => {
    const { service, log, warnings } = setup({ results: { 'textDocument/hover': null } });
    await service.hover('a.ts', 1, 1, signal());
    const pid = service.pid!;
    await service.close();
    await service.close();
    expect(received(log).slice(-2).map((m) => m.method)).toEqual(['shutdown', 'exit']);
    expect(warnings).toEqual([]);
    expect(signalable(pid)).toBe(false);
    const unused = setup().service;
    await unused.close();
    expect(unused.pid).toBeUndefined();
  });
});

/** Not yet reaped by its parent (a zombie still counts, unlike support/processAlive's `alive`). */
function signalable(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
