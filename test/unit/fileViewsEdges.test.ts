import { describe, expect, it } from 'vitest';
import { fileShownPart, samePath } from '../../src/engine/fileViews';
import type { ToolCall } from '../../src/engine/toolOutput';

// Edges of how a tool call is recognised as a view of a file: path spelling, the shell forms
// accepted and refused, and whole versus partial views. The remembering and rendering of views
// is tested in fileViewsRender.test.ts.

const bash = (command: string): ToolCall => ({ name: 'bash', input: { command } });
const part = (path: string) => ({ path, whole: false });
const whole = (path: string) => ({ path, whole: true });

describe('samePath', () => {
  it('drops every leading ./ and nothing else', () => {
    expect(samePath('./src/a.ts')).toBe('src/a.ts');
    expect(samePath('././src/a.ts')).toBe('src/a.ts');
    expect(samePath('src/./a.ts')).toBe('src/./a.ts');
    expect(samePath('../a.ts')).toBe('../a.ts');
    expect(samePath('a.ts')).toBe('a.ts');
  });
});

describe('read tools and edits', () => {
  it('takes a read as partial when an offset, a limit or a view range is given, each alone', () => {
    expect(fileShownPart({ name: 'Read', input: { file_path: 'a.ts' } })).toEqual(whole('a.ts'));
    expect(fileShownPart({ name: 'Read', input: { file_path: 'a.ts', offset: 10 } })).toEqual(part('a.ts'));
    expect(fileShownPart({ name: 'Read', input: { file_path: 'a.ts', limit: 20 } })).toEqual(part('a.ts'));
    expect(fileShownPart({ name: 'str_replace_editor', input: { command: 'view', path: 'a.ts', view_range: [1, 40] } })).toEqual(part('a.ts'));
    expect(fileShownPart({ name: 'str_replace_editor', input: { command: 'view', path: 'a.ts' } })).toEqual(whole('a.ts'));
  });

  it('takes an edit as a partial view of its file, and an edit that names no file as none', () => {
    expect(fileShownPart({ name: 'str_replace_editor', input: { command: 'str_replace', path: 'a.ts' } })).toEqual(part('a.ts'));
    expect(fileShownPart({ name: 'Edit', input: { old_string: 'x', new_string: 'y' } })).toBeUndefined();
  });
});

describe('shell commands that print one file', () => {
  it('takes cat and nl of one file, with or without -n, as whole views; other options, other printers and pipes as parts', () => {
    expect(fileShownPart(bash('cat a.py'))).toEqual(whole('a.py'));
    expect(fileShownPart(bash('cat -n a.py'))).toEqual(whole('a.py'));
    expect(fileShownPart(bash('nl a.py'))).toEqual(whole('a.py'));
    expect(fileShownPart(bash('cat -v a.py'))).toEqual(part('a.py'));
    expect(fileShownPart(bash('cat -n -v a.py'))).toEqual(part('a.py'));
    expect(fileShownPart(bash('head a.py'))).toEqual(part('a.py'));
    expect(fileShownPart(bash('cat a.py | nl'))).toEqual(part('a.py'));
  });

  it('accepts every printer as the first stage', () => {
    expect(fileShownPart(bash('cat a.py'))).toEqual(whole('a.py'));
    expect(fileShownPart(bash('head -20 a.py'))).toEqual(part('a.py'));
    expect(fileShownPart(bash('tail -20 a.py'))).toEqual(part('a.py'));
    expect(fileShownPart(bash('nl a.py'))).toEqual(whole('a.py'));
    expect(fileShownPart(bash("sed -n '5,9p' a.py"))).toEqual(part('a.py'));
    expect(fileShownPart(bash('grep -n def a.py'))).toEqual(part('a.py'));
    expect(fileShownPart(bash("awk 'NR==5' a.py"))).toEqual(part('a.py'));
    expect(fileShownPart(bash('cut -c1-80 a.py'))).toBeUndefined();
    expect(fileShownPart(bash('less a.py'))).toBeUndefined();
  });

  it('accepts every filter as a later stage, and nothing else', () => {
    for (const filter of ['grep -n def', 'head -5', 'tail -5', "sed -n '1,5p'", 'nl', 'cut -c1-80', "awk '{print $1}'"]) {
      expect(fileShownPart(bash(`cat a.py | ${filter}`)), filter).toEqual(part('a.py'));
    }
    expect(fileShownPart(bash('cat a.py | cat'))).toBeUndefined();
    expect(fileShownPart(bash('cat a.py | sort'))).toBeUndefined();
  });

  it('refuses a later stage that names a file of its own, but not an option that looks like one', () => {
    expect(fileShownPart(bash('cat a.py | grep -n x b.py'))).toBeUndefined();
    expect(fileShownPart(bash('cat notes.txt | cut -d. -f1.2'))).toEqual(part('notes.txt'));
  });

  it('takes the last of several operands, except for grep, which then searches several files', () => {
    expect(fileShownPart(bash('awk -f prog.awk data.txt'))).toEqual(part('data.txt'));
    expect(fileShownPart(bash('grep -n x a.py b.py'))).toBeUndefined();
    expect(fileShownPart(bash('grep -n -e.append src/a.py'))).toEqual(part('src/a.py'));
  });

  it('refuses grep over a tree (-r, -R, in any option cluster) but not a file whose name holds -r', () => {
    expect(fileShownPart(bash('grep -r foo a.py'))).toBeUndefined();
    expect(fileShownPart(bash('grep -nr foo a.py'))).toBeUndefined();
    expect(fileShownPart(bash('grep -R foo a.py'))).toBeUndefined();
    expect(fileShownPart(bash('grep -n foo src/pre-render.py'))).toEqual(part('src/pre-render.py'));
    expect(fileShownPart(bash("sed -n -r '5,9p' a.py"))).toEqual(part('a.py'));
  });

  it('takes a quoted operand without its quotes, and a quoted pattern with a dot only when it is a whole word', () => {
    expect(fileShownPart(bash("cat 'src/a.py'"))).toEqual(whole('src/a.py'));
    expect(fileShownPart(bash('cat "src/a.py"'))).toEqual(whole('src/a.py'));
    expect(fileShownPart(bash('grep -n "self.save(" models.py'))).toEqual(part('models.py'));
    expect(fileShownPart(bash('grep -n "(self.save" models.py'))).toEqual(part('models.py'));
    expect(fileShownPart(bash('grep -n "self.save" models.py'))).toBeUndefined();
  });

  it('counts only the command after a chain of cd', () => {
    expect(fileShownPart(bash('cd /testbed && cat a.py'))).toEqual(whole('a.py'));
    expect(fileShownPart(bash('cd /testbed && cd src && cat a.py'))).toEqual(whole('a.py'));
    expect(fileShownPart(bash('echo cd here && cat a.py'))).toBeUndefined();
  });

  it('splits words on any run of spaces', () => {
    expect(fileShownPart(bash('cat   a.py'))).toEqual(whole('a.py'));
    expect(fileShownPart(bash('cat  -n  a.py'))).toEqual(whole('a.py'));
  });

  it('refuses a command over 300 characters or with a newline', () => {
    const path = (length: number) => `${'d/'.repeat((length - 8) / 2)}a.py`; // `cat ${path(n)}` has n characters, n even
    expect(`cat ${path(300)}`).toHaveLength(300);
    expect(fileShownPart(bash(`cat ${path(300)}`))).toEqual(whole(path(300)));
    expect(fileShownPart(bash(`cat ${path(300)} `))).toBeUndefined();
    expect(fileShownPart(bash('cat a.py\n'))).toBeUndefined();
  });
});
