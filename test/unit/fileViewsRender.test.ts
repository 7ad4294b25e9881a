import { describe, expect, it } from 'vitest';
import { FileViews } from '../../src/engine/fileViews';
import type { LiveExchange } from '../../src/engine/liveExchange';
import type { ToolCall } from '../../src/engine/toolOutput';
import type { ToolResultBlock } from '../../src/shared/messages';

// Edges of what FileViews remembers (whole and partial views, edits, changes on disk, copies)
// and of how it renders them (budget, horizon, order, stale pointers).

type Result = [call: ToolCall, content: ToolResultBlock['content'], isError?: boolean];

/** Exchange `seq` whose input answers each call with its content, in order. */
function exchange(seq: number, results: Result[], changedFiles?: string[]): LiveExchange {
  return {
    seq,
    createdAt: 0,
    input: results.map(([, content, isError], i) => ({ type: 'tool_result', tool_use_id: `t${seq}.${i}`, content, ...(isError ? { is_error: true } : {}) })),
    calls: new Map(results.map(([call], i) => [`t${seq}.${i}`, call])),
    originals: new Map(),
    inputTokens: 0,
    outputTokens: 0,
    ...(changedFiles ? { changedFiles } : {}),
  };
}

const read = (path: string, range?: { offset: number; limit: number }): ToolCall => ({ name: 'Read', input: { file_path: path, ...range } });
const edit = (path: string): ToolCall => ({ name: 'Edit', input: { file_path: path, old_string: 'a', new_string: 'b' } });
/** An edit that replaces `from` with `to` (pi's edit tool names the fields oldText / newText). */
const replace = (path: string, from: string, to: string): ToolCall => ({ name: 'edit', input: { path, oldText: from, newText: to } });
const count = (s: string) => s.length;
const piece = (path: string, seq: number, text: string) => `### ${path} (as shown in e${seq})\n${text}`;
const pointer = (path: string, how: string, changedIn: number, shownIn: number) =>
  `### ${path}: ${how} in e${changedIn}, after the view in e${shownIn} (that old text: request e${shownIn} full; read the file again for its current text)`;

describe('what file views remember', () => {
  it('joins the text blocks of a result given as an array', () => {
    const views = new FileViews();
    views.observe(exchange(1, [[read('a.py'), [{ type: 'text', text: 'line 1' }, { type: 'text', text: 'line 2' }]]]));
    expect(views.render(1, 10, 1_000, count)).toBe(piece('a.py', 1, 'line 1\nline 2'));
  });

  it('ignores a result marked as an error', () => {
    const views = new FileViews();
    views.observe(exchange(1, [[read('a.py'), 'No such file: a.py', true]]));
    expect(views.render(1, 10, 1_000, count)).toBe('');
  });

  it('keeps the newest six partial views of a file, newest first', () => {
    const views = new FileViews();
    for (let seq = 1; seq <= 7; seq++) views.observe(exchange(seq, [[read('a.py', { offset: seq * 10, limit: 5 }), `part ${seq}`]]));
    const expected = [7, 6, 5, 4, 3, 2].map((seq) => piece('a.py', seq, `part ${seq}`)).join('\n');
    expect(views.render(7, 10, 10_000, count)).toBe(expected);
  });

  it('takes a file named by ./path and by path as one file', () => {
    const views = new FileViews();
    views.observe(exchange(1, [[read('./a.py'), 'old\ntext']]));
    views.observe(exchange(2, [[read('a.py'), 'new\ntext']]));
    expect(views.render(2, 10, 1_000, count)).toBe(piece('a.py', 2, 'new\ntext'));
  });

  it('after an edit that shows nothing, leaves a pointer to the view the edit made stale', () => {
    const views = new FileViews();
    views.observe(exchange(1, [[read('a.py'), 'x = 1\ny = 2']]));
    views.observe(exchange(2, [[edit('a.py'), 'The file a.py has been updated.']]));
    expect(views.render(2, 10, 1_000, count)).toBe(pointer('a.py', 'edited', 2, 1));
  });

  it('shows an edit\'s snippet instead of the pointer when the edit shows the changed lines', () => {
    const views = new FileViews();
    views.observe(exchange(1, [[read('a.py'), 'x = 1\ny = 2']]));
    views.observe(exchange(2, [[edit('a.py'), 'Updated a.py:\n1: x = 3']]));
    expect(views.render(2, 10, 1_000, count)).toBe(piece('a.py', 2, 'Updated a.py:\n1: x = 3'));
  });

  it('follows an edit whose replaced text a view holds: the view shows the file after it, and no snippet or pointer', () => {
    const views = new FileViews();
    views.observe(exchange(1, [[read('a.py'), 'x = 1\ny = 2\nz = 3']]));
    views.observe(exchange(2, [[replace('a.py', 'y = 2', 'y = 20'), 'Updated a.py:\n2: y = 20']]));
    expect(views.render(2, 10, 1_000, count)).toBe(`### a.py (as shown in e1, with the edits since, last in e2)\nx = 1\ny = 20\nz = 3`);
  });

  it('keeps the fragments a followed edit did not touch as they were, and updates the one it did', () => {
    const views = new FileViews();
    views.observe(exchange(1, [[read('a.py', { offset: 1, limit: 2 }), 'def f():\n    return 1']]));
    views.observe(exchange(2, [[read('a.py', { offset: 40, limit: 2 }), 'def g():\n    return 2']]));
    views.observe(exchange(3, [[replace('a.py', 'return 2', 'return 3'), 'done']]));
    expect(views.render(3, 10, 1_000, count)).toBe(
      [`### a.py (as shown in e2, with the edits since, last in e3)\ndef g():\n    return 3`, piece('a.py', 1, 'def f():\n    return 1')].join('\n'),
    );
  });

  it('lets a later edit the views cannot follow make a followed view stale, pointing to where it was shown', () => {
    const views = new FileViews();
    views.observe(exchange(1, [[read('a.py'), 'x = 1\ny = 2']]));
    views.observe(exchange(2, [[replace('a.py', 'x = 1', 'x = 5'), 'done']]));
    views.observe(exchange(3, [[replace('a.py', 'w = 0', 'w = 9'), 'done']]));
    expect(views.render(3, 10, 1_000, count)).toBe(pointer('a.py', 'edited', 3, 1));
  });

  it('follows an edit in one copy only: a checkpoint taken before it keeps the old text', () => {
    const views = new FileViews();
    views.observe(exchange(1, [[read('a.py'), 'x = 1']]));
    const copy = views.clone();
    views.observe(exchange(2, [[replace('a.py', 'x = 1', 'x = 2'), 'done']]));
    expect(views.render(2, 10, 1_000, count)).toContain('x = 2');
    expect(copy.render(2, 10, 1_000, count)).toBe(piece('a.py', 1, 'x = 1'));
  });

  it('lets a file changed on disk supersede its older views, only the named file, which keeps its place', () => {
    const views = new FileViews();
    views.observe(exchange(1, [[read('a.py'), 'a text'], [read('b.py'), 'b text']]));
    views.observe(exchange(2, [], ['./a.py']));
    expect(views.render(2, 10, 1_000, count)).toBe([pointer('a.py', 'changed on disk', 2, 1), piece('b.py', 1, 'b text')].join('\n'));
  });

  it('keeps a view the same exchange showed before its edit, and points to the older one the edit superseded', () => {
    const views = new FileViews();
    views.observe(exchange(1, [[read('a.py'), 'whole old text']]));
    views.observe(exchange(5, [[read('a.py', { offset: 3, limit: 2 }), 'lines 3-4'], [edit('a.py'), 'done']]));
    expect(views.render(4, 10, 1_000, count)).toBe(pointer('a.py', 'edited', 5, 1));
    expect(views.render(5, 10, 1_000, count)).toBe(piece('a.py', 5, 'lines 3-4'));
  });

  it('gives the pointer only once the superseded view has left working memory', () => {
    const views = new FileViews();
    views.observe(exchange(3, [[read('a.py'), 'a text']]));
    views.observe(exchange(4, [], ['a.py']));
    expect(views.render(2, 10, 1_000, count)).toBe('');
    expect(views.render(3, 10, 1_000, count)).toBe(pointer('a.py', 'changed on disk', 4, 3));
  });

  it('makes an independent copy: observing in either leaves the other as it was', () => {
    const views = new FileViews();
    views.observe(exchange(1, [[read('a.py', { offset: 1, limit: 2 }), 'part 1']]));
    const copy = views.clone();
    expect(copy.render(1, 10, 1_000, count)).toBe(piece('a.py', 1, 'part 1'));
    copy.observe(exchange(2, [[read('a.py', { offset: 5, limit: 2 }), 'part 2']]));
    views.observe(exchange(2, [[read('a.py', { offset: 9, limit: 2 }), 'part 3']]));
    expect(views.render(2, 10, 1_000, count)).toBe([piece('a.py', 2, 'part 3'), piece('a.py', 1, 'part 1')].join('\n'));
    expect(copy.render(2, 10, 1_000, count)).toBe([piece('a.py', 2, 'part 2'), piece('a.py', 1, 'part 1')].join('\n'));
  });
});

describe('rendering file views', () => {
  it('renders nothing, and counts nothing, with no budget', () => {
    const views = new FileViews();
    views.observe(exchange(1, [[read('a.py'), 'a text']]));
    let counted = 0;
    const counting = (s: string) => {
      counted++;
      return s.length;
    };
    expect(views.render(1, 10, 0, counting)).toBe('');
    expect(views.render(1, 10, -1, counting)).toBe('');
    expect(counted).toBe(0);
  });

  it('forgets a file last touched exactly the horizon before', () => {
    const views = new FileViews();
    views.observe(exchange(2, [[read('a.py'), 'a text']]));
    expect(views.render(11, 10, 1_000, count)).toBe(piece('a.py', 2, 'a text'));
    expect(views.render(12, 10, 1_000, count)).toBe('');
  });

  it('orders files by last touch, newest first, then by path whatever order they came in', () => {
    for (const order of [['b.py', 'a.py'], ['a.py', 'b.py']]) {
      const views = new FileViews();
      views.observe(exchange(1, order.map((path): Result => [read(path), `${path} text`])));
      views.observe(exchange(2, [[read('c.py'), 'c.py text']]));
      expect(views.render(2, 10, 1_000, count), order.join()).toBe(['c.py', 'a.py', 'b.py'].map((path) => piece(path, path === 'c.py' ? 2 : 1, `${path} text`)).join('\n'));
    }
  });

  it('fits a piece that fills the budget exactly, and skips one a token over for a smaller one after it', () => {
    const views = new FileViews();
    views.observe(exchange(1, [[read('small.py'), 'ok']]));
    views.observe(exchange(2, [[read('big.py'), 'x'.repeat(50)]]));
    const big = piece('big.py', 2, 'x'.repeat(50));
    const small = piece('small.py', 1, 'ok');
    expect(views.render(2, 10, count(big), count)).toBe(big);
    expect(views.render(2, 10, count(big) - 1, count)).toBe(small);
  });
});
