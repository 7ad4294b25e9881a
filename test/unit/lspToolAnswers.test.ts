import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { LSP_MAX_HOVER_CHARS, LSP_MAX_LOCATIONS, LSP_MAX_SYMBOLS, LSP_TOOLS } from '../../src/task/tools/lspTools';
import type { DocumentSymbolInfo } from '../../src/task/languagePort';
import { READ_FILE_MAX_BYTES } from '../../src/task/tools/readFile';
import { runToolCall } from '../../src/task/tools/runToolCall';
import { at, diagnostic, fakeLanguageService } from '../support/fakeLanguageService';
import type { FakeLanguageService } from '../support/fakeLanguageService';
import { makeToolFixture } from '../support/toolWorkspace';
import type { ToolFixture } from '../support/toolWorkspace';

// The LSP tools' own answers over a fake language service and a real temp workspace: how
// locations, outlines, hovers and diagnostics are written, and where they are cut.
let fx: ToolFixture;
let language: FakeLanguageService;

const LINE_160 = `export const a160 = '${'a'.repeat(160 - 23)}';`;
const LINE_161 = `export const b161 = '${'b'.repeat(161 - 23)}';`;
const LIB = ['export function add(a: number, b: number): number {', '  return a + b;', '}', '', LINE_160, LINE_161, ''].join('\n');
const MAIN = "import { add } from './lib';\nexport const sum = add(1, 2);\n";
const USES = Array.from({ length: LSP_MAX_LOCATIONS + 1 }, (_, i) => `add(${i + 1});`).join('\n');
const ASKED = "'add' at src/main.ts:2:20";
const call = (name: string, input: unknown) => runToolCall({ name, input }, fx.ctx, LSP_TOOLS);
const onAdd = { path: 'src/main.ts', line: 2, symbol: 'add' };
const symbol = (name: string, line: number, extra: Partial<DocumentSymbolInfo> = {}): DocumentSymbolInfo => ({ name, kind: 'function', line, endLine: line, children: [], ...extra });

beforeAll(() => {
  fx = makeToolFixture();
  fx.write('.gitignore', 'hidden/\n');
  fx.write('hidden/gen.ts', 'export const generated = 1;\n');
  fx.write('src/lib.ts', LIB);
  fx.write('src/main.ts', MAIN);
  fx.write('src/uses.ts', USES);
  const first = 'export const atLimit = 1;\n';
  fx.write('at-limit.ts', first + 'x'.repeat(READ_FILE_MAX_BYTES - first.length));
  fx.write('over-limit.ts', first + 'x'.repeat(READ_FILE_MAX_BYTES + 1 - first.length));
  language = fakeLanguageService();
  fx.ctx.language = language;
});
afterAll(() => fx.remove());
beforeEach(() => {
  language.answers = {};
  language.calls.length = 0;
});

describe('lsp_definition: locations with their source line', () => {
  it('shows a line only for workspace files the model may read, each file read once', async () => {
    language.answers.definition = [
      at('src/lib.ts', 1, 17, 3),
      at('src/lib.ts', 4), // a blank line
      { ...at('/usr/lib/typescript/lib.d.ts', 7), outside: true },
      at('src/lib.ts', 99), // past the end of the file (the server's view is stale)
      at('hidden/gen.ts', 1), // ignored
      at('src/gone.ts', 1), // deleted since
      at('over-limit.ts', 1),
      at('at-limit.ts', 1),
    ];
    const reads = vi.spyOn(fx.ctx.workspace, 'readText');
    const r = await call('lsp_definition', onAdd);
    expect(r).toEqual({
      isError: false,
      text: [
        `Definition of ${ASKED}:`,
        'src/lib.ts:1:17 (to line 3): export function add(a: number, b: number): number {',
        'src/lib.ts:4:1',
        '/usr/lib/typescript/lib.d.ts:7:1 (outside the workspace)',
        'src/lib.ts:99:1',
        'hidden/gen.ts:1:1',
        'src/gone.ts:1:1',
        'over-limit.ts:1:1',
        'at-limit.ts:1:1: export const atLimit = 1;',
      ].join('\n'),
    });
    // (the ignore matcher reads .gitignore on first use)
    expect(reads.mock.calls.map(([path]) => path).filter((p) => p !== '.gitignore')).toEqual(['src/main.ts', 'src/lib.ts', 'at-limit.ts']);
    reads.mockRestore();
    expect(language.calls).toMatchObject([{ method: 'definition', path: 'src/main.ts', line: 2, column: 20 }]);
  });

  it('cuts a source line after 160 characters', async () => {
    language.answers.definition = [at('src/lib.ts', 5), at('src/lib.ts', 6)];
    expect(LINE_160).toHaveLength(160);
    expect((await call('lsp_definition', onAdd)).text.split('\n').slice(1)).toEqual([`src/lib.ts:5:1: ${LINE_160}`, `src/lib.ts:6:1: ${LINE_161.slice(0, 160)}…`]);
  });

  it('says when nothing is found', async () => {
    expect(await call('lsp_definition', onAdd)).toEqual({
      isError: false,
      text: `No definition found for ${ASKED} (is it a keyword, a literal or whitespace? check the line with read_file).`,
    });
  });
});

describe('lsp_references: counted, sorted by file, line and column, cut at the limit', () => {
  const uses = (n: number) => Array.from({ length: n }, (_, i) => at('src/uses.ts', i + 1));
  const usesLine = (n: number) => `src/uses.ts:${n}:1: add(${n});`;

  it('sorts and counts files', async () => {
    language.answers.references = [at('src/uses.ts', 9, 1), at('src/uses.ts', 2, 5), at('src/uses.ts', 2, 1), at('src/main.ts', 2, 20), at('src/lib.ts', 1, 17)];
    expect((await call('lsp_references', onAdd)).text.split('\n')).toEqual([
      `5 references to ${ASKED} in 3 files:`,
      'src/lib.ts:1:17: export function add(a: number, b: number): number {',
      'src/main.ts:2:20: export const sum = add(1, 2);',
      'src/uses.ts:2:1: add(2);',
      'src/uses.ts:2:5: add(2);',
      usesLine(9),
    ]);
  });

  it('one reference in one file', async () => {
    language.answers.references = [at('src/uses.ts', 3)];
    expect((await call('lsp_references', onAdd)).text).toBe(`1 reference to ${ASKED} in 1 file:\n${usesLine(3)}`);
  });

  it(`lists ${LSP_MAX_LOCATIONS} and says how many more`, async () => {
    const shown = Array.from({ length: LSP_MAX_LOCATIONS }, (_, i) => usesLine(i + 1));
    language.answers.references = uses(LSP_MAX_LOCATIONS);
    expect((await call('lsp_references', onAdd)).text).toBe([`${LSP_MAX_LOCATIONS} references to ${ASKED} in 1 file:`, ...shown].join('\n'));
    language.answers.references = uses(LSP_MAX_LOCATIONS + 1);
    expect((await call('lsp_references', onAdd)).text).toBe(
      [`${LSP_MAX_LOCATIONS + 1} references to ${ASKED} in 1 file:`, ...shown, '[1 more not shown; search_files can narrow by folder]'].join('\n'),
    );
  });

  it('says when there are none', async () => {
    expect(await call('lsp_references', onAdd)).toEqual({ isError: false, text: `No references found for ${ASKED}.` });
  });
});

describe('lsp_document_symbols: the outline, nested, cut at the limit', () => {
  const outline = () => call('lsp_document_symbols', { path: 'src/lib.ts' });

  it('indents children, gives line ranges and the clipped detail', async () => {
    const plus = symbol('plus', 2, { kind: 'method', endLine: 4, detail: '(n: number): Calc', children: [symbol('n', 3, { kind: 'variable' })] });
    language.answers.documentSymbols = [symbol('Calc', 1, { kind: 'class', endLine: 9, children: [plus] }), symbol('long', 10, { kind: 'constant', detail: 'z'.repeat(161) })];
    expect(await outline()).toEqual({
      isError: false,
      text: ['src/lib.ts: 4 symbols', 'class Calc (lines 1-9)', '  method plus (lines 2-4) (n: number): Calc', '    variable n (line 3)', `constant long (line 10) ${'z'.repeat(160)}…`].join('\n'),
    });
    language.answers.documentSymbols = [symbol('add', 1)];
    expect((await outline()).text).toBe('src/lib.ts: 1 symbol\nfunction add (line 1)');
  });

  it(`lists ${LSP_MAX_SYMBOLS} entries, nested ones counted, and says how many more`, async () => {
    const members = (n: number) => Array.from({ length: n }, (_, i) => symbol(`m${i}`, i + 2));
    const lines = (n: number) => ['class Big (line 1)', ...members(n).map((m) => `  function ${m.name} (line ${m.line})`)];
    language.answers.documentSymbols = [symbol('Big', 1, { kind: 'class', children: members(LSP_MAX_SYMBOLS - 1) })];
    expect((await outline()).text).toBe([`src/lib.ts: ${LSP_MAX_SYMBOLS} symbols`, ...lines(LSP_MAX_SYMBOLS - 1)].join('\n'));
    language.answers.documentSymbols = [symbol('Big', 1, { kind: 'class', children: members(LSP_MAX_SYMBOLS + 1) })];
    expect((await outline()).text).toBe([`src/lib.ts: ${LSP_MAX_SYMBOLS + 2} symbols`, ...lines(LSP_MAX_SYMBOLS - 1), '[2 more not shown]'].join('\n'));
  });

  it('says when the server reports none, and refuses a missing file', async () => {
    expect(await outline()).toEqual({ isError: false, text: 'src/lib.ts: the language server reports no symbols.' });
    expect(await call('lsp_document_symbols', { path: 'src/none.ts' })).toEqual({ isError: true, text: "No file at 'src/none.ts'. Use list_files to see what exists." });
  });
});

describe('lsp_hover', () => {
  it(`keeps ${LSP_MAX_HOVER_CHARS} characters and says how many more`, async () => {
    language.answers.hover = 'h'.repeat(LSP_MAX_HOVER_CHARS);
    expect(await call('lsp_hover', onAdd)).toEqual({ isError: false, text: `Hover for ${ASKED}:\n${'h'.repeat(LSP_MAX_HOVER_CHARS)}` });
    language.answers.hover = `${'h'.repeat(LSP_MAX_HOVER_CHARS)}tail`;
    expect((await call('lsp_hover', onAdd)).text).toBe(`Hover for ${ASKED}:\n${'h'.repeat(LSP_MAX_HOVER_CHARS)}\n[... 4 more characters]`);
  });

  it('says when the server has nothing', async () => {
    expect(await call('lsp_hover', onAdd)).toEqual({ isError: false, text: `No hover information for ${ASKED}.` });
  });
});

describe('lsp_diagnostics', () => {
  it('of one file, or of every file the server has opened', async () => {
    language.answers.diagnostics = async (path) => [diagnostic(path ?? 'src/main.ts', 2, 'error', { message: 'bad' })];
    expect(await call('lsp_diagnostics', { path: 'src/lib.ts' })).toEqual({ isError: false, text: '1 error, 0 warnings in src/lib.ts:\nsrc/lib.ts:2:1: error: bad' });
    expect(await call('lsp_diagnostics', {})).toEqual({
      isError: false,
      text: '1 error, 0 warnings in the files the language server has opened (give a path to check another file):\nsrc/main.ts:2:1: error: bad',
    });
    expect(language.calls.map((c) => [c.method, c.path])).toEqual([
      ['diagnostics', 'src/lib.ts'],
      ['diagnostics', undefined],
    ]);
  });

  it('without a language service, points at the type checker', async () => {
    const { language: _none, ...ctx } = fx.ctx;
    expect(await runToolCall({ name: 'lsp_diagnostics', input: {} }, ctx, LSP_TOOLS)).toEqual({
      isError: true,
      text: "No language server runs in this session; run the project's type checker with execute_command instead.",
    });
  });
});

it('no LSP tool asks for approval: they only read', async () => {
  for (const [name, input] of [['lsp_definition', onAdd], ['lsp_references', onAdd], ['lsp_document_symbols', { path: 'src/lib.ts' }], ['lsp_hover', onAdd], ['lsp_diagnostics', {}]] as const) {
    expect((await call(name, input)).isError).toBe(false);
  }
  expect(fx.approvals).toEqual([]);
  expect(language.calls.map((c) => c.method)).toEqual(['definition', 'references', 'documentSymbols', 'hover', 'diagnostics']);
});
