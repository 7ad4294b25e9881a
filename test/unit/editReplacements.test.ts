import { describe, expect, it } from 'vitest';
import { applyReplacements, editReplacements } from '../../src/engine/editReplacements';

describe('the replacements an edit call made', () => {
  it("reads Claude Code's Edit and MultiEdit, the text editor's str_replace and pi's edit", () => {
    expect(editReplacements({ name: 'Edit', input: { file_path: 'a.ts', old_string: 'x', new_string: 'y', replace_all: true } })).toEqual([{ from: 'x', to: 'y', all: true }]);
    const multi = { name: 'MultiEdit', input: { file_path: 'a.ts', edits: [{ old_string: 'a', new_string: 'b' }, { old_string: 'c', new_string: '' }] } };
    expect(editReplacements(multi)).toEqual([
      { from: 'a', to: 'b', all: false },
      { from: 'c', to: '', all: false },
    ]);
    expect(editReplacements({ name: 'str_replace_based_edit_tool', input: { command: 'str_replace', path: 'a.py', old_str: 'p', new_str: 'q' } })).toEqual([{ from: 'p', to: 'q', all: false }]);
    expect(editReplacements({ name: 'edit', input: { path: 'a.ts', oldText: 'm', newText: 'n' } })).toEqual([{ from: 'm', to: 'n', all: false }]);
  });

  it('finds none in a read, a whole-file write, an empty replaced text or a missing new text', () => {
    expect(editReplacements({ name: 'Read', input: { file_path: 'a.ts', old_string: 'x', new_string: 'y' } })).toEqual([]);
    expect(editReplacements({ name: 'Write', input: { file_path: 'a.ts', content: 'all of it' } })).toEqual([]);
    expect(editReplacements({ name: 'Edit', input: { file_path: 'a.ts', old_string: '', new_string: 'y' } })).toEqual([]);
    expect(editReplacements({ name: 'Edit', input: { file_path: 'a.ts', old_string: 'x' } })).toEqual([]);
    expect(editReplacements({ name: 'str_replace_based_edit_tool', input: { command: 'view', path: 'a.py', old_str: 'p', new_str: 'q' } })).toEqual([]);
  });
});

describe('making replacements in a text', () => {
  it('replaces the first occurrence, or every one when asked, in order', () => {
    expect(applyReplacements('a a a', [{ from: 'a', to: 'b', all: false }])).toBe('b a a');
    expect(applyReplacements('a a a', [{ from: 'a', to: 'b', all: true }])).toBe('b b b');
    expect(applyReplacements('one', [{ from: 'one', to: 'two', all: false }, { from: 'two', to: 'three', all: false }])).toBe('three');
  });

  it('takes both texts literally and leaves a text without the replaced one as it was', () => {
    expect(applyReplacements('f(x) + x', [{ from: 'f(x)', to: '$& $1 $$', all: false }])).toBe('$& $1 $$ + x');
    expect(applyReplacements('unrelated', [{ from: 'x.y', to: 'z', all: true }])).toBe('unrelated');
  });
});
