import { describe, expect, it } from 'vitest';
import {
  compactToolOutput,
  describeCall,
  fileEditedBy,
  fileReadBy,
  isEditCall,
  isEditTool,
  maskedPointer,
  shellCommandOf,
  toolCallsOf,
  withResultText,
} from '../../src/engine/toolOutput';

describe('tool kinds by name', () => {
  it('knows every file-read tool, in any case', () => {
    expect(['Read', 'View', 'read_file', 'cat'].map((name) => fileReadBy({ name, input: { path: 'a.ts' } }))).toEqual(['a.ts', 'a.ts', 'a.ts', 'a.ts']);
    expect(fileReadBy({ name: 'NotebookRead', input: { notebook_path: 'n.ipynb' } })).toBe('n.ipynb');
    expect(fileReadBy({ name: 'Grep', input: { path: 'src' } })).toBeUndefined();
  });

  it('knows the edit tools of every front end, and no others', () => {
    expect(['Create', 'apply_patch', 'Edit', 'str_replace_editor'].map(isEditTool)).toEqual([true, true, true, true]);
    expect(fileEditedBy({ name: 'create', input: { path: 'new.ts' } })).toBe('new.ts');
    expect(isEditTool('Bash')).toBe(false);
  });

  it('a text editor call or a command call without input is neither a view nor a shell command', () => {
    const editor = { name: 'str_replace_editor', input: null };
    expect([isEditCall(editor), fileReadBy(editor)]).toEqual([true, undefined]);
    expect(shellCommandOf({ name: 'Bash', input: null })).toBeUndefined();
  });
});

describe('toolCallsOf', () => {
  it('maps the ids of an answer\'s calls to name and input, and nothing for no answer', () => {
    const calls = toolCallsOf({
      role: 'assistant',
      content: [
        { type: 'text', text: 'reading' },
        { type: 'tool_use', id: 'u1', name: 'Read', input: { file_path: 'a.ts' } },
      ],
    });
    expect([...calls]).toEqual([['u1', { name: 'Read', input: { file_path: 'a.ts' } }]]);
    expect(toolCallsOf(undefined).size).toBe(0);
  });
});

describe('compactToolOutput', () => {
  const colored = ['\u001b[31mred\u001b[0m', 'l2', 'l3', 'l4', 'l5', 'l6'].join('\n');

  it('cleans and cuts command output to the output limit', () => {
    expect(compactToolOutput(colored, { name: 'Bash', input: { command: 'make' } }, 10, 3)).toBe('red\n[… 4 lines cut …]\nl6');
    expect(compactToolOutput(colored, undefined, 10, 3)).toBe('red\n[… 4 lines cut …]\nl6');
  });

  it('keeps file content as is up to the code limit', () => {
    expect(compactToolOutput(colored, { name: 'Read', input: { file_path: 'a.ts' } }, 10, 3)).toBe(colored);
  });
});

describe('withResultText', () => {
  it('keeps the error mark, and adds none to a success', () => {
    expect(withResultText({ type: 'tool_result', tool_use_id: 't', content: [{ type: 'text', text: 'old' }], is_error: true }, 'new')).toStrictEqual({
      type: 'tool_result',
      tool_use_id: 't',
      content: 'new',
      is_error: true,
    });
    expect(withResultText({ type: 'tool_result', tool_use_id: 't', content: 'old' }, 'new')).toStrictEqual({ type: 'tool_result', tool_use_id: 't', content: 'new' });
  });
});

describe('maskedPointer', () => {
  it('counts lines and chars, and names an unknown call as tool output', () => {
    expect(maskedPointer(4, undefined, '', 'output masked')).toBe('[output masked: tool output, 0 lines, 0 chars; request e4 full to see it]');
    expect(maskedPointer(2, { name: 'Bash', input: { command: 'ls' } }, 'a\nb', 'output masked')).toBe(
      '[output masked: Bash ls, 2 lines, 3 chars; request e2 full to see it]',
    );
  });
});

describe('describeCall', () => {
  it('puts the main argument on one trimmed line', () => {
    expect(describeCall({ name: 'Bash', input: { command: '  make \n\t all  ' } })).toBe('Bash make all');
    expect(describeCall({ name: 'Bash', input: { command: 7 } })).toBe('Bash');
  });

  it('keeps 80 characters, and cuts a longer argument to 77 and an ellipsis', () => {
    const exact = 'x'.repeat(80);
    expect(describeCall({ name: 'Grep', input: { pattern: exact } })).toBe(`Grep ${exact}`);
    expect(describeCall({ name: 'Grep', input: { pattern: `${exact}y` } })).toBe(`Grep ${'x'.repeat(77)}...`);
  });
});
