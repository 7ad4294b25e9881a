import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LanguageService } from '../../src/task/languagePort';
import { recallTool } from '../../src/task/recallTool';
import { LSP_TOOLS } from '../../src/task/tools/lspTools';
import { findTool, toolDefinitionsForApi, workspaceTools, WORKSPACE_TOOLS } from '../../src/task/tools/toolRegistry';

const GOLDEN = join(__dirname, '..', 'fixtures', 'golden', 'tool-definitions.json');
/** Only its presence matters to `workspaceTools`; no call is made. */
const someLanguageService = {} as LanguageService;

describe('the tool definitions the model sees', () => {
  /**
   * Every description, field description and default is part of each request's cached system
   * prefix: a change is a change to what the model is told. To accept an intended one, run with
   * STRATA_UPDATE_GOLDEN=1 and review the diff of test/fixtures/golden/tool-definitions.json.
   */
  it('are byte for byte the golden file: the workspace tools, the LSP tools, then recall', () => {
    const recall = recallTool({ retrieve: () => '', searchArchive: () => '' });
    const actual = `${JSON.stringify(toolDefinitionsForApi([...workspaceTools(someLanguageService), recall]), null, 1)}\n`;
    if (process.env.STRATA_UPDATE_GOLDEN === '1') writeFileSync(GOLDEN, actual);
    expect(existsSync(GOLDEN), `missing golden ${GOLDEN}`).toBe(true);
    expect(actual).toBe(readFileSync(GOLDEN, 'utf8'));
  });

  it('a session without a language service gets the workspace tools alone', () => {
    expect(workspaceTools(undefined)).toBe(WORKSPACE_TOOLS);
    expect(workspaceTools(someLanguageService).map((t) => t.name)).toEqual([...WORKSPACE_TOOLS, ...LSP_TOOLS].map((t) => t.name));
    expect(LSP_TOOLS.length).toBeGreaterThan(0);
  });

  it('findTool finds a tool by its exact name, in the given list or the workspace tools', () => {
    expect(findTool('edit_file')?.name).toBe('edit_file');
    expect(findTool('lsp_hover')).toBeUndefined();
    expect(findTool('lsp_hover', LSP_TOOLS)?.name).toBe('lsp_hover');
    expect(findTool('read')).toBeUndefined();
  });
});

describe('the one-line summary of a call (the approval card, the CLI prompt)', () => {
  const summary = (name: string, input: unknown) => {
    const prepared = findTool(name, [...WORKSPACE_TOOLS, ...LSP_TOOLS])!.prepare(input);
    if (!prepared.ok) throw new Error(`invalid input for ${name}`);
    return prepared.summary;
  };
  it.each([
    ['edit_file', { path: 'a.ts', edits: [{ search: 'x', replace: 'y' }] }, 'edit a.ts (1 block)'],
    ['edit_file', { path: 'a.ts', edits: [{ search: 'x', replace: 'y' }, { search: 'z', replace: '' }] }, 'edit a.ts (2 blocks)'],
    ['write_file', { path: 'e.txt', content: '' }, 'write e.txt (0 lines)'],
    ['write_file', { path: 'n.txt', content: 'a\nb' }, 'write n.txt (2 lines)'],
    ['read_file', { path: 'a.ts' }, 'read a.ts'],
    ['list_files', {}, 'list .'],
    ['list_files', { path: 'src', recursive: true }, 'list src (recursive)'],
    ['search_files', { regex: 'a+b' }, 'search /a+b/ in .'],
    ['search_files', { regex: 'x', path: 'src', file_pattern: '*.ts' }, 'search /x/ in src (*.ts)'],
    ['execute_command', { command: 'ls' }, 'run `ls` in .'],
    ['list_definitions', { path: 'src' }, 'list definitions in src'],
    ['lsp_definition', { path: 'a.ts', line: 3, symbol: 'add' }, 'definition of add at a.ts:3'],
    ['lsp_references', { path: 'a.ts', line: 3, column: 7 }, 'references to column 7 at a.ts:3'],
    ['lsp_document_symbols', { path: 'a.ts' }, 'outline of a.ts'],
    ['lsp_hover', { path: 'a.ts', line: 3, symbol: 'x.y' }, 'hover on x.y at a.ts:3'],
    ['lsp_diagnostics', { path: 'a.ts' }, 'diagnostics of a.ts'],
    ['lsp_diagnostics', {}, 'diagnostics of the files checked so far'],
  ])('%s %j', (name, input, expected) => {
    expect(summary(name, input)).toBe(expected);
  });
});
