import { describe, expect, it } from 'vitest';
import { TARGET_MAX_CHARS, toolTarget } from '../../../webview-ui/src/chat/toolTarget';

describe('toolTarget: a collapsed tool row names what the tool acts on', () => {
  it('names the file and line range of read_file, and the file of edit_file and write_file', () => {
    expect(toolTarget('read_file', { path: 'src/a.ts', start_line: 1, end_line: 40 })).toBe('read_file src/a.ts:1-40');
    expect(toolTarget('read_file', { path: 'src/a.ts', start_line: 100 })).toBe('read_file src/a.ts:100-end');
    expect(toolTarget('read_file', { path: 'src/a.ts' })).toBe('read_file src/a.ts');
    expect(toolTarget('edit_file', { path: 'src/a.ts', edits: [{ search: 'a', replace: 'b' }] })).toBe('edit_file src/a.ts');
    expect(toolTarget('edit_file', { path: 'src/a.ts', edits: [{}, {}, {}] })).toBe('edit_file src/a.ts (3 blocks)');
    expect(toolTarget('write_file', { path: 'notes.md', content: 'x' })).toBe('write_file notes.md');
  });

  it('shows a command as a shell line, with its folder when not the root', () => {
    expect(toolTarget('execute_command', { command: 'npm test' })).toBe('$ npm test');
    expect(toolTarget('execute_command', { command: 'npm test', cwd: '.' })).toBe('$ npm test');
    expect(toolTarget('execute_command', { command: 'make\n  all', cwd: 'web' })).toBe('$ make all (in web)');
  });

  it('quotes the pattern of search_files and names the folder and file glob', () => {
    expect(toolTarget('search_files', { regex: 'pattern', path: 'src' })).toBe('search_files "pattern" in src');
    expect(toolTarget('search_files', { regex: 'TODO', path: '.' })).toBe('search_files "TODO"');
    expect(toolTarget('search_files', { regex: 'x', path: 'src', file_pattern: '*.ts' })).toBe('search_files "x" in src (*.ts)');
  });

  it('names the symbol of lsp tools, the folder of list_files, and the ids or query of recall', () => {
    expect(toolTarget('lsp_hover', { path: 'hello.ts', line: 1, symbol: 'hello' })).toBe('lsp_hover hello.ts:1 hello');
    expect(toolTarget('list_files', { path: 'src', recursive: true })).toBe('list_files src (recursive)');
    expect(toolTarget('list_files', {})).toBe('list_files .');
    expect(toolTarget('recall', { ids: ['e3', 'e7'] })).toBe('recall e3, e7');
    expect(toolTarget('recall', { query: 'cache layout' })).toBe('recall "cache layout"');
    expect(toolTarget('lsp_diagnostics', {})).toBe('lsp_diagnostics');
    expect(toolTarget('some_new_tool', { path: 'x/y' })).toBe('some_new_tool x/y');
  });

  it('falls back to the bare name on input of the wrong shape, and clips a long target', () => {
    expect(toolTarget('read_file', null)).toBe('read_file');
    expect(toolTarget('read_file', { path: 42 })).toBe('read_file');
    expect(toolTarget('execute_command', 'npm test')).toBe('execute_command');
    expect(toolTarget('read_file', { path: 'a.ts', start_line: Number.NaN })).toBe('read_file a.ts');
    const long = toolTarget('execute_command', { command: 'x'.repeat(500) });
    expect(long).toHaveLength('$ '.length + TARGET_MAX_CHARS);
    expect(long.endsWith('…')).toBe(true);
  });
});

describe('ToolRow: the collapsed row shows the target', () => {
  it('puts the target in the summary, with the running/done state', async () => {
    const { createElement } = await import('react');
    const { renderToStaticMarkup } = await import('react-dom/server');
    const { ToolRow } = await import('../../../webview-ui/src/components/ToolRow');
    const running = renderToStaticMarkup(createElement(ToolRow, { item: { kind: 'tool', id: 't1', name: 'execute_command', input: { command: 'npm test' } } }));
    expect(running).toMatch(/<summary[^>]*>.*<span class="tool-target" data-testid="tool-target">\$ npm test<\/span>.*<\/summary>/);
    expect(running).toContain('data-done="running"');
    const failed = renderToStaticMarkup(createElement(ToolRow, { item: { kind: 'tool', id: 't2', name: 'read_file', input: { path: 'a.ts' }, result: { text: 'no such file', isError: true } } }));
    expect(failed).toContain('data-done="error"');
    expect(failed).toContain('>read_file a.ts</span>');
  });
});
