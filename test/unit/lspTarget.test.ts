import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveColumn } from '../../src/task/tools/lspTarget';
import { LSP_TOOLS } from '../../src/task/tools/lspTools';
import { READ_FILE_MAX_BYTES } from '../../src/task/tools/readFile';
import { runToolCall } from '../../src/task/tools/runToolCall';
import { fakeLanguageService } from '../support/fakeLanguageService';
import type { FakeLanguageService } from '../support/fakeLanguageService';
import { makeToolFixture } from '../support/toolWorkspace';
import type { ToolFixture } from '../support/toolWorkspace';

const column = (line: string, symbol: string) => resolveColumn(line, 'a.ts', { path: 'a.ts', line: 1, symbol });

describe('resolveColumn: the column of the symbol the model names', () => {
  it.each([
    ['const addAll = add(x) + y.add;', 'add', 16, 'the first whole word, not the longer name before it'],
    ['addAll(add(1))', 'add', 8, 'a longer name at the line start is skipped'],
    ['add(add(1))', 'add', 1, 'a whole word at the line start'],
    ['padd = add', 'add', 8, 'a name ending in the symbol is skipped'],
    ['addAll + add', 'add', 10, 'a whole word at the line end'],
    ['const addAll = 1;', 'dAll', 9, 'no whole word: the first occurrence'],
    ['x = config.load()', 'config.load', 12, 'a dotted name: its last part'],
    ['x = config.load()', '.load', 12, 'a leading dot: the name after it'],
    ['x = config.load()', 'config.', 5, 'a trailing dot: the name before it'],
    ['x = add(1)', ' add ', 5, 'spaces around the symbol are dropped'],
  ])('%j, %j: column %i (%s)', (line, symbol, expected) => {
    expect(column(line, symbol)).toEqual({ ok: true, line: 1, column: expected, label: `'${symbol.trim()}' at a.ts:1:${expected}` });
  });

  it('says what the line reads when the symbol is not on it, trimmed and cut at 300 characters', () => {
    const long = `    const value = ${'x'.repeat(400)};`;
    expect(column(long, 'add')).toEqual({
      ok: false,
      message: `'add' is not on line 1 of 'a.ts'. The line reads: ${long.trim().slice(0, 300)}\nCheck the line number (read_file shows numbered lines) or the spelling.`,
    });
  });

  const byColumn = (text: string, line: number, col: number) => resolveColumn(text, 'a.ts', { path: 'a.ts', line, column: col });
  it('takes a given column up to one past the line end, a CRLF line end not counted', () => {
    expect(byColumn('  ab\r\nnext', 1, 5)).toEqual({ ok: true, line: 1, column: 5, label: 'a.ts:1:5' });
    expect(byColumn('  ab\r\nnext', 1, 6)).toEqual({
      ok: false,
      message: "Line 1 of 'a.ts' has 4 characters; column 6 is past its end. Give symbol instead of column. The line: ab",
    });
    expect(byColumn('ab', 1, 3)).toMatchObject({ ok: true, column: 3 });
    expect(byColumn('ab\ncd', 3, 1)).toEqual({ ok: false, message: "'a.ts' has 2 lines; line 3 is past its end." });
  });
});

describe('which files the LSP tools take (a fake service handling .ts)', () => {
  let fx: ToolFixture;
  let language: FakeLanguageService;
  beforeAll(() => {
    fx = makeToolFixture();
    fx.write('.gitignore', 'secret.ts\n');
    fx.write('secret.ts', 'export const key = 1;\n');
    fx.write('src/main.ts', 'export const x = 1;\n');
    fx.write('notes.xyz', 'x\n');
    fx.write('archive.tar.gz', 'x\n');
    fx.write('Makefile', 'all:\n');
    fx.write('at-limit.ts', 'x'.repeat(READ_FILE_MAX_BYTES));
    fx.write('over-limit.ts', 'x'.repeat(READ_FILE_MAX_BYTES + 1));
    language = fakeLanguageService();
    fx.ctx.language = language;
  });
  afterAll(() => fx.remove());
  const outline = (path: string) => runToolCall({ name: 'lsp_document_symbols', input: { path } }, fx.ctx, LSP_TOOLS);

  it.each([
    ['secret.ts', "Refused: 'secret.ts' is excluded by .gitignore or .strataignore. It can be used only when the user mentions it (e.g. @/secret.ts); ask the user if you need it."],
    ['src/none.ts', "No file at 'src/none.ts'. Use list_files to see what exists."],
    ['src', "'src' is a folder, not a file."],
    ['notes.xyz', "No language server handles .xyz files here, so 'notes.xyz' has no definitions, references or diagnostics to ask for; use search_files and read_file instead."],
    ['archive.tar.gz', "No language server handles .gz files here, so 'archive.tar.gz' has no definitions, references or diagnostics to ask for; use search_files and read_file instead."],
    ['Makefile', "No language server handles extension-less files here, so 'Makefile' has no definitions, references or diagnostics to ask for; use search_files and read_file instead."],
    ['over-limit.ts', "'over-limit.ts' is over 1 MB; the LSP tools skip files that large. Use search_files."],
  ])('refuses %s without asking the server', async (path, message) => {
    language.calls.length = 0;
    expect(await outline(path)).toEqual({ isError: true, text: message });
    expect(language.calls).toEqual([]);
  });

  it('takes a file of exactly the size limit', async () => {
    language.calls.length = 0;
    expect(await outline('at-limit.ts')).toEqual({ isError: false, text: 'at-limit.ts: the language server reports no symbols.' });
    expect(language.calls.map((c) => c.path)).toEqual(['at-limit.ts']);
  });

  it('asks for symbol or column when neither is given', async () => {
    const r = await runToolCall({ name: 'lsp_hover', input: { path: 'src/main.ts', line: 1 } }, fx.ctx, LSP_TOOLS);
    expect(r).toEqual({
      isError: true,
      text: 'Invalid input for lsp_hover; nothing was done. Fix these fields and call it again:\n- symbol: give symbol (its name as written on that line) or column',
    });
  });
});
