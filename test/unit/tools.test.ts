import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runToolCall } from '../../src/task/tools/runToolCall';
import { toolDefinitionsForApi, WORKSPACE_TOOLS } from '../../src/task/tools/toolRegistry';
import { makeToolFixture } from '../support/toolWorkspace';
import type { ToolFixture } from '../support/toolWorkspace';

let fx: ToolFixture;
afterEach(() => fx?.remove());

const call = (name: string, input: unknown) => runToolCall({ name, input }, fx.ctx);

describe('workspace tools: happy paths', () => {
  it('read_file numbers lines and reads a range', async () => {
    fx = makeToolFixture();
    fx.write('src/a.ts', 'one\ntwo\nthree\nfour\n');
    const whole = await call('read_file', { path: 'src/a.ts' });
    expect(whole).toEqual({ isError: false, text: 'src/a.ts (lines 1-4 of 4)\n1 | one\n2 | two\n3 | three\n4 | four' });
    const part = await call('read_file', { path: 'src/a.ts', start_line: 2, end_line: 3 });
    expect(part.text).toBe('src/a.ts (lines 2-3 of 4)\n2 | two\n3 | three');
    const from = await call('read_file', { path: './src/../src/a.ts', start_line: 3 });
    expect(from.text).toBe('./src/../src/a.ts (lines 3-4 of 4)\n3 | three\n4 | four');
    expect((await call('read_file', { path: 'src/a.ts', start_line: 9 })).text).toMatch(/has 4 lines; start_line 9 is past its end/);
    expect((await call('read_file', { path: 'nope.ts' })).text).toMatch(/No file at 'nope.ts'/);
  });

  it('read_file caps one reply at 2000 lines and says where to read on', async () => {
    fx = makeToolFixture();
    fx.write('long.txt', Array.from({ length: 2500 }, (_, i) => `line ${i + 1}`).join('\n'));
    const r = await call('read_file', { path: 'long.txt' });
    const lines = r.text.split('\n');
    expect(lines[0]).toBe('long.txt (lines 1-2000 of 2500)');
    expect(lines[2000]).toBe('2000 | line 2000');
    expect(lines[2001]).toBe('[more lines follow: read on with start_line 2001]');
  });

  it('list_files lists one level or recursively, folders marked', async () => {
    fx = makeToolFixture();
    fx.write('README.md', '# x');
    fx.write('src/a.ts', '');
    fx.write('src/deep/b.ts', '');
    expect((await call('list_files', {})).text).toBe('README.md\nsrc/');
    expect((await call('list_files', { path: 'src', recursive: true })).text).toBe('src/a.ts\nsrc/deep/\nsrc/deep/b.ts');
    expect((await call('list_files', { path: 'README.md' })).isError).toBe(true);
  });

  it('list_files stops at 500 entries and says so', async () => {
    fx = makeToolFixture();
    for (let i = 0; i < 520; i++) fx.write(`many/f${String(i).padStart(3, '0')}.txt`, '');
    const r = await call('list_files', { path: 'many' });
    const lines = r.text.split('\n');
    expect(lines).toHaveLength(501);
    expect(lines[500]).toMatch(/listing stopped at 500 entries/);
  });

  it('search_files finds lines by regex, limited by a file glob', async () => {
    fx = makeToolFixture();
    fx.write('src/a.ts', 'const alpha = 1;\nconst beta = 2;\n');
    fx.write('src/b.js', 'let alpha = 3;\n');
    const r = await call('search_files', { regex: 'alpha\\s*=', path: '.' });
    expect(r.text).toBe('2 matches in 2 files\nsrc/a.ts:1: const alpha = 1;\n\nsrc/b.js:1: let alpha = 3;');
    const ts = await call('search_files', { regex: 'alpha', file_pattern: '*.ts' });
    expect(ts.text).toBe('1 match in 1 file\nsrc/a.ts:1: const alpha = 1;');
    expect((await call('search_files', { regex: 'gamma' })).text).toBe("No matches for /gamma/ in '.'.");
  });

  it('list_definitions maps top-level TS and Python definitions, not nested ones', async () => {
    fx = makeToolFixture();
    fx.write('src/m.ts', ['import x from "y";', 'export function top(a: number) {', '  function inner() {}', '}', 'export class Box {}', 'interface Shape {}', 'export type Id = string;', 'export const run = async (n: number) => n;', 'const value = 3;', 'export enum Color { Red }'].join('\n'));
    fx.write('src/p.py', 'import os\n\ndef f(x):\n    def g():\n        pass\n\nclass C:\n    def m(self):\n        pass\n');
    fx.write('src/notes.md', 'function notCode() {}');
    const file = await call('list_definitions', { path: 'src/m.ts' });
    expect(file.text).toBe(['src/m.ts', '   2 | export function top(a: number) {', '   5 | export class Box {}', '   6 | interface Shape {}', '   7 | export type Id = string;', '   8 | export const run = async (n: number) => n;', '  10 | export enum Color { Red }'].join('\n'));
    const dir = await call('list_definitions', { path: 'src' });
    expect(dir.text).toContain('src/p.py\n  3 | def f(x):\n  7 | class C:');
    expect(dir.text).not.toContain('notes.md');
    expect((await call('list_definitions', { path: 'src/notes.md' })).text).toMatch(/not a supported source file/);
  });

  it('write_file creates folders and the file, after approval; a refusal leaves nothing', async () => {
    fx = makeToolFixture();
    const r = await call('write_file', { path: 'new/dir/x.txt', content: 'a\nb\n' });
    expect(r).toEqual({ isError: false, text: 'Created new/dir/x.txt (2 lines, 4 bytes).' });
    expect(readFileSync(join(fx.root, 'new/dir/x.txt'), 'utf8')).toBe('a\nb\n');
    expect(fx.approvals).toEqual([{ tool: 'write_file', input: { path: 'new/dir/x.txt', content: 'a\nb\n' }, summary: 'write new/dir/x.txt (2 lines)' }]);

    fx.remove();
    fx = makeToolFixture({ approve: false });
    const refused = await call('write_file', { path: 'x.txt', content: 'a' });
    expect(refused.isError).toBe(true);
    expect(refused.text).toBe('The user refused: write x.txt (1 lines). Nothing was done. The user said: not now');
    expect(() => readFileSync(join(fx.root, 'x.txt'))).toThrow();
  });

  it('edit_file applies several blocks at once and keeps CRLF line ends', async () => {
    fx = makeToolFixture();
    fx.write('a.ts', 'const a = 1;\r\nconst b = 2;\r\nconst c = 3;\r\n');
    const r = await call('edit_file', { path: 'a.ts', edits: [{ search: 'const c = 3;', replace: 'const c = 30;' }, { search: 'const a = 1;\nconst b', replace: 'const a = 10;\nconst bb' }] });
    expect(r).toEqual({ isError: false, text: 'Edited a.ts: 2 blocks applied (the file now has 4 lines).' });
    expect(readFileSync(join(fx.root, 'a.ts'), 'utf8')).toBe('const a = 10;\r\nconst bb = 2;\r\nconst c = 30;\r\n');
  });

  it('edit_file with a block that matches zero times or twice changes nothing and names the block', async () => {
    fx = makeToolFixture();
    const original = 'x = 1\ny = 2\nx = 1\nz = 3\n';
    fx.write('f.py', original);
    const r = await call('edit_file', {
      path: 'f.py',
      edits: [
        { search: 'z = 3', replace: 'z = 4' },
        { search: 'x = 1', replace: 'x = 5' },
        { search: 'y = 2\nw = 9', replace: '' },
      ],
    });
    expect(r.isError).toBe(true);
    expect(r.text).toBe(
      'No change made to f.py:\n' +
        '- block 2: the search text matches 2 times (lines 1, 3); add surrounding lines so it matches once.\n' +
        '- block 3: the search text was not found. Its first line appears at line 2, so the rest differs (whitespace, or later lines).\n' +
        'Read the file again if it may have changed, then retry.',
    );
    expect(readFileSync(join(fx.root, 'f.py'), 'utf8')).toBe(original);
    const overlap = await call('edit_file', { path: 'f.py', edits: [{ search: 'y = 2\nx', replace: '' }, { search: 'x = 1\nz', replace: '' }] });
    expect(overlap.text).toMatch(/blocks 1 and 2 overlap/);
    expect(readFileSync(join(fx.root, 'f.py'), 'utf8')).toBe(original);
  });

  it('execute_command runs in the workspace (or a sub-folder) and reports the exit code and output', async () => {
    fx = makeToolFixture();
    fx.write('sub/file.txt', 'hi');
    const r = await call('execute_command', { command: 'pwd; echo out; echo err >&2; exit 3' });
    expect(r).toEqual({ isError: false, text: `The command exited with code 3 (in .). Output:\n${fx.root}\nout\nerr` });
    const sub = await call('execute_command', { command: 'cat file.txt', cwd: 'sub' });
    expect(sub.text).toBe('The command exited with code 0 (in sub). Output:\nhi');
    expect(fx.approvals.map((a) => a.summary)).toEqual(['run `pwd; echo out; echo err >&2; exit 3` in .', 'run `cat file.txt` in sub']);
  });
});

describe('tool calls from the model: validation', () => {
  it('an unknown tool gets a clear error listing the tools', async () => {
    fx = makeToolFixture();
    const r = await call('delete_everything', {});
    expect(r).toEqual({ isError: true, text: "Unknown tool 'delete_everything'. The tools are: read_file, list_files, search_files, list_definitions, write_file, edit_file, execute_command." });
  });

  it('malformed input names the bad fields and never throws', async () => {
    fx = makeToolFixture();
    const r = await call('read_file', { path: 42, start_line: 0 });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/^Invalid input for read_file; nothing was done/);
    expect(r.text).toMatch(/- path: .*expected string/i);
    expect(r.text).toMatch(/- start_line: .*>=1/);
    const range = await call('read_file', { path: 'a', start_line: 5, end_line: 2 });
    expect(range.text).toContain('- end_line: end_line must be at least start_line');
    for (const input of [null, 'a string', [], undefined, 7]) {
      const bad = await call('edit_file', input);
      expect(bad.isError).toBe(true);
      expect(bad.text).toContain('- (input):');
    }
    const blocks = await call('edit_file', { path: 'a', edits: [{ search: 'x' }] });
    expect(blocks.text).toContain('- edits.0.replace:');
    expect(fx.approvals).toEqual([]);
  });

  it('a tool that fails inside returns an error result instead of throwing', async () => {
    fx = makeToolFixture();
    fx.write('d/x', '');
    const r = await call('write_file', { path: 'd', content: 'x' });
    expect(r).toEqual({ isError: true, text: "'d' is a folder; give a file path." });
    const missingCwd = await call('execute_command', { command: 'true', cwd: 'nowhere' });
    expect(missingCwd.text).toMatch(/working folder 'nowhere' does not exist/);
  });

  it('gives the API a JSON schema per tool from zod, defaults optional', () => {
    const defs = toolDefinitionsForApi();
    expect(defs.map((d) => d.name)).toEqual(WORKSPACE_TOOLS.map((t) => t.name));
    const read = defs.find((d) => d.name === 'read_file')!;
    expect(read.input_schema.type).toBe('object');
    expect(read.input_schema.required).toEqual(['path']);
    expect(Object.keys(read.input_schema.properties as object)).toEqual(['path', 'start_line', 'end_line']);
    expect(read.input_schema).not.toHaveProperty('$schema');
    const exec = defs.find((d) => d.name === 'execute_command')!;
    expect(exec.input_schema.required).toEqual(['command']);
    expect(WORKSPACE_TOOLS.filter((t) => t.needsApproval).map((t) => t.name)).toEqual(['write_file', 'edit_file', 'execute_command']);
    expect(JSON.stringify(toolDefinitionsForApi())).toBe(JSON.stringify(defs));
  });
});
