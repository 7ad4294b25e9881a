import { describe, expect, it } from 'vitest';
import { editedFiles } from '../../src/engine/exchangeFacts';
import { fileEditedBy, fileReadBy, filePathIn, isEditCall, shellCommandOf } from '../../src/engine/toolOutput';
import type { Exchange } from '../../src/engine/exchange';

describe('the file a tool call names', () => {
  it('reads file_path, then path, then notebook_path, and only strings', () => {
    expect(filePathIn({ file_path: 'a.ts', path: 'b.ts' })).toBe('a.ts');
    expect(filePathIn({ path: 'b.ts', notebook_path: 'c.ipynb' })).toBe('b.ts');
    expect(filePathIn({ notebook_path: 'c.ipynb' })).toBe('c.ipynb');
    expect(filePathIn({ file_path: 7, path: 'b.ts' })).toBeUndefined();
    expect(filePathIn(null)).toBeUndefined();
    expect(filePathIn(undefined)).toBeUndefined();
  });

  it('tells reads from edits by the tool name, in any case', () => {
    expect(fileReadBy({ name: 'Read', input: { file_path: 'a.ts' } })).toBe('a.ts');
    expect(fileReadBy({ name: 'Edit', input: { file_path: 'a.ts' } })).toBeUndefined();
    expect(fileEditedBy({ name: 'NotebookEdit', input: { notebook_path: 'n.ipynb' } })).toBe('n.ipynb');
    expect(fileEditedBy({ name: 'write_file', input: { path: 'w.ts' } })).toBe('w.ts');
    expect(fileEditedBy({ name: 'Read', input: { file_path: 'a.ts' } })).toBeUndefined();
    expect(fileEditedBy(undefined)).toBeUndefined();
  });

  it("a text editor tool's view is a read, its other commands edits, and none of them a shell command", () => {
    for (const name of ['str_replace_based_edit_tool', 'str_replace_editor']) {
      const view = { name, input: { command: 'view', path: 'a.py' } };
      const replace = { name, input: { command: 'str_replace', path: 'a.py', old_str: 'x', new_str: 'y' } };
      expect([fileReadBy(view), fileEditedBy(view), isEditCall(view), shellCommandOf(view)]).toEqual(['a.py', undefined, false, undefined]);
      expect([fileReadBy(replace), fileEditedBy(replace), isEditCall(replace), shellCommandOf(replace)]).toEqual([undefined, 'a.py', true, undefined]);
    }
    expect(shellCommandOf({ name: 'Bash', input: { command: 'ls' } })).toBe('ls');
    expect(shellCommandOf({ name: 'Bash', input: { command: 3 } })).toBeUndefined();
    expect(isEditCall({ name: 'Edit', input: { command: 'view', file_path: 'a.py' } })).toBe(true);
  });

  it("an exchange's edited files: each once, notebooks included, reads and other tools left out", () => {
    const exchange: Exchange = {
      seq: 1,
      createdAt: 0,
      input: { role: 'user', content: [{ type: 'text', text: 'go' }] },
      output: {
        role: 'assistant',
        content: [
          { type: 'tool_use', id: 't1', name: 'Edit', input: { file_path: 'src/a.ts' } },
          { type: 'tool_use', id: 't2', name: 'Read', input: { file_path: 'src/b.ts' } },
          { type: 'tool_use', id: 't3', name: 'NotebookEdit', input: { notebook_path: 'nb.ipynb' } },
          { type: 'tool_use', id: 't4', name: 'MultiEdit', input: { file_path: 'src/a.ts' } },
          { type: 'tool_use', id: 't5', name: 'Bash', input: { command: 'ls' } },
        ],
      },
    };
    expect(editedFiles(exchange)).toEqual(['src/a.ts', 'nb.ipynb']);
  });
});
