import { describe, expect, it } from 'vitest';
import { FileViews, fileShownBy, fileShownPart } from '../../src/engine/fileViews';
import type { LiveExchange } from '../../src/engine/liveExchange';
import type { ToolCall } from '../../src/engine/toolOutput';

describe('which tool calls show a file', () => {
  it('recognises read tools, shell commands that print one file, and edits', () => {
    expect(fileShownBy({ name: 'Read', input: { file_path: 'src/a.ts' } })).toBe('src/a.ts');
    expect(fileShownBy({ name: 'bash', input: { command: 'cat patch.txt' } })).toBe('patch.txt');
    expect(fileShownBy({ name: 'bash', input: { command: "sed -n '100,160p' src/sqlfluff/rules/L036.py" } })).toBe('src/sqlfluff/rules/L036.py');
    expect(fileShownBy({ name: 'bash', input: { command: 'head -50 django/db/models/base.py' } })).toBe('django/db/models/base.py');
    expect(fileShownBy({ name: 'Edit', input: { file_path: 'src/b.ts', old_string: 'x', new_string: 'y' } })).toBe('src/b.ts');
  });

  it('tells a whole view from a part: ranges, greps, filtered pipelines and edit snippets are parts', () => {
    expect(fileShownPart({ name: 'Read', input: { file_path: 'a.ts' } })).toEqual({ path: 'a.ts', whole: true });
    expect(fileShownPart({ name: 'Read', input: { file_path: 'a.ts', offset: 100, limit: 50 } })).toEqual({ path: 'a.ts', whole: false });
    expect(fileShownPart({ name: 'bash', input: { command: 'cd /testbed && cat -n src/x.py' } })).toEqual({ path: 'src/x.py', whole: true });
    expect(fileShownPart({ name: 'bash', input: { command: 'cat src/L036.py | grep -n -A30 "_eval_multiple"' } })).toEqual({ path: 'src/L036.py', whole: false });
    expect(fileShownPart({ name: 'bash', input: { command: 'grep -n "indent_balance" src/L003.py' } })).toEqual({ path: 'src/L003.py', whole: false });
    expect(fileShownPart({ name: 'bash', input: { command: "sed -n '1,80p' a.py | nl" } })).toEqual({ path: 'a.py', whole: false });
    expect(fileShownPart({ name: 'Edit', input: { file_path: 'b.ts' } })).toEqual({ path: 'b.ts', whole: false });
  });

  it('ignores commands that write, run several things, search trees or pipe into a program', () => {
    expect(fileShownBy({ name: 'bash', input: { command: "cat > test.py << 'EOF'\nprint(1)\nEOF" } })).toBeUndefined();
    expect(fileShownBy({ name: 'bash', input: { command: 'cat a.py > b.py' } })).toBeUndefined();
    expect(fileShownBy({ name: 'bash', input: { command: 'cat a.py | python' } })).toBeUndefined();
    expect(fileShownBy({ name: 'bash', input: { command: 'make && cat a.py' } })).toBeUndefined();
    expect(fileShownBy({ name: 'bash', input: { command: 'grep -rn foo src/a.py' } })).toBeUndefined();
    expect(fileShownBy({ name: 'bash', input: { command: 'grep -n foo a.py b.py' } })).toBeUndefined();
    expect(fileShownBy({ name: 'bash', input: { command: "sed -i 's/a/b/' a.py" } })).toBeUndefined();
    expect(fileShownBy({ name: 'bash', input: { command: 'python -m pytest tests/test_x.py' } })).toBeUndefined();
    expect(fileShownBy({ name: 'Bash', input: { command: 'ls src' } })).toBeUndefined();
    expect(fileShownBy(undefined)).toBeUndefined();
  });
});

/** An exchange whose input answers `call` with `output`. */
function shown(seq: number, call: ToolCall, output: string): LiveExchange {
  return {
    seq,
    createdAt: 0,
    input: [{ type: 'tool_result', tool_use_id: `t${seq}`, content: output }],
    calls: new Map([[`t${seq}`, call]]),
    originals: new Map(),
    inputTokens: 0,
    outputTokens: 0,
  };
}

const count = (s: string) => Math.ceil(s.length / 4);
const bash = (command: string): ToolCall => ({ name: 'bash', input: { command } });

describe('file views keep what the session was shown of each file', () => {
  it('keeps partial views side by side, newest first, and drops one a later view contains', () => {
    const views = new FileViews();
    views.observe(shown(1, bash('grep -n "def a" m.py'), '10:def a():\n11:    return 1'));
    views.observe(shown(2, bash("sed -n '40,42p' m.py"), 'def b():\n    pass'));
    views.observe(shown(3, bash('cat m.py | grep -n -A3 "def a"'), '10:def a():\n11:    return 1\n12:\n13:def c():'));
    const text = views.render(3, 80, 1_000, count);
    expect(text).toContain('### m.py (as shown in e3)');
    expect(text).toContain('### m.py (as shown in e2)');
    expect(text).not.toContain('(as shown in e1)');
    expect(text.indexOf('e3)')).toBeLessThan(text.indexOf('e2)'));
  });

  it('lets a whole read replace the fragments, and shows only what left working memory', () => {
    const views = new FileViews();
    views.observe(shown(1, bash('grep -n x m.py'), '1:x = 1\n2:y = x'));
    views.observe(shown(2, { name: 'Read', input: { file_path: 'm.py' } }, 'x = 2\ny = x\nz = y'));
    expect(views.render(1, 80, 1_000, count)).toBe('');
    const text = views.render(2, 80, 1_000, count);
    expect(text).toContain('x = 2');
    expect(text).not.toContain('x = 1');
  });

  it('adds an edit\'s snippet as a fragment but not an edit result that shows nothing', () => {
    const views = new FileViews();
    views.observe(shown(1, { name: 'Edit', input: { file_path: 'a.ts' } }, 'The file a.ts has been updated. Snippet:\n  5→const a = 1;'));
    views.observe(shown(2, { name: 'Write', input: { file_path: 'b.ts' } }, 'File created successfully at: b.ts'));
    const text = views.render(2, 80, 1_000, count);
    expect(text).toContain('### a.ts (as shown in e1)');
    expect(text).not.toContain('b.ts');
  });

  it('stays within its budget and forgets files unused for the horizon', () => {
    const views = new FileViews();
    views.observe(shown(1, bash('cat big.py'), 'x'.repeat(4_000)));
    views.observe(shown(2, bash('cat small.py'), 'small\nfile'));
    const text = views.render(2, 80, 100, count);
    expect(count(text)).toBeLessThanOrEqual(100);
    expect(text).toContain('small.py');
    expect(views.render(90, 80, 1_000, count)).toBe('');
  });
});
