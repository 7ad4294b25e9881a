import { describe, expect, it } from 'vitest';
import { newEngineState } from '../../src/engine/engineState';
import { FileViews, pathKeyFor } from '../../src/engine/fileViews';
import type { LiveExchange } from '../../src/engine/liveExchange';
import { emptyNarrative } from '../../src/engine/narrative';
import { relayer } from '../../src/engine/relayer';
import type { ToolCall } from '../../src/engine/toolOutput';
import { resolveEngineSettings } from '../../src/shared/engineSettings';
import { assistant, charTokenizer, makeEngine, text, toolResult, toolUse, user } from '../support/engineHarness';

const OLD = Array.from({ length: 12 }, (_, i) => `old line ${i}: export const v${i} = ${i};`).join('\n');
const read = (path: string, range?: { offset: number; limit: number }): ToolCall => ({ name: 'read_file', input: { path, ...range } });
const edit = (path: string): ToolCall => ({ name: 'edit_file', input: { path, edits: [{ search: 'v3 = 3', replace: 'v3 = 33' }] } });

/** An exchange whose input answers `call` with `output` (or carries only `changedFiles`). */
function live(seq: number, call: ToolCall | undefined, output: string, extra: Partial<LiveExchange> = {}, isError = false): LiveExchange {
  return {
    seq,
    createdAt: 0,
    input: call ? [{ type: 'tool_result', tool_use_id: `t${seq}`, content: output, ...(isError ? { is_error: true } : {}) }] : [{ type: 'text', text: output }],
    output: [{ type: 'text', text: `answer ${seq}` }],
    calls: call ? new Map([[`t${seq}`, call]]) : new Map(),
    originals: call ? new Map([[`t${seq}`, output]]) : new Map(),
    inputTokens: 10,
    outputTokens: 10,
    ...extra,
  };
}

describe('stale file reads are superseded', () => {
  it('file views: an edit drops the older views of the file; a later partial read stands alone, not merged with the stale one', () => {
    const views = new FileViews();
    views.observe(live(1, read('src/a.ts'), OLD));
    views.observe(live(2, edit('src/a.ts'), 'Edited src/a.ts:\n3: export const v3 = 33;'));
    const afterEdit = views.render(2, 50, 10_000, charTokenizer.count);
    expect(afterEdit).toContain('v3 = 33');
    expect(afterEdit).not.toContain('old line 0');
    views.observe(live(3, read('./src/a.ts', { offset: 1, limit: 2 }), 'old line 0: export const v0 = 0;'));
    const rendered = views.render(3, 50, 10_000, charTokenizer.count);
    expect(rendered).toContain('(as shown in e3)');
    expect(rendered).not.toContain('(as shown in e1)');
    expect(rendered).not.toContain('old line 5');
  });

  it('file views: a change seen on disk leaves a pointer to the old view until the file is read again; a failed edit changes nothing', () => {
    const views = new FileViews();
    views.observe(live(1, read('src/a.ts'), OLD));
    views.observe(live(2, edit('src/a.ts'), 'search text not found', {}, true));
    expect(views.render(2, 50, 10_000, charTokenizer.count)).toContain('old line 5');
    views.observe(live(3, undefined, 'the user asks something', { changedFiles: ['src/a.ts'] }));
    const pointer = views.render(3, 50, 10_000, charTokenizer.count);
    expect(pointer).toBe('### src/a.ts: changed on disk in e3, after the view in e1 (that old text: request e1 full; read the file again for its current text)');
    views.observe(live(4, read('src/a.ts'), 'new content\nof a.ts'));
    expect(views.render(4, 50, 10_000, charTokenizer.count)).toBe('### src/a.ts (as shown in e4)\nnew content\nof a.ts');
  });

  it('working memory: at a step, a read older than an edit or a change on disk becomes a pointer; the newest read and untouched files stay', () => {
    const state = newEngineState(resolveEngineSettings({}), charTokenizer, [{ type: 'text', text: 'sys' }], [], emptyNarrative('task'));
    state.tail = [
      live(1, read('src/a.ts'), OLD),
      live(2, read('src/b.ts'), 'b content\nline 2'),
      live(3, edit('src/a.ts'), 'Edited src/a.ts:\n3: export const v3 = 33;'),
      live(4, read('src/c.ts'), 'c content\nline 2'),
      live(5, undefined, 'next question', { changedFiles: ['src/c.ts'] }),
      live(6, read('src/b.ts'), 'fresh b\nline 2'),
      live(7, read('src/d.ts'), 'd content\nline 2'),
    ];
    relayer(state, state.tail.length);
    const shown = (seq: number) => JSON.stringify(state.tail.find((ex) => ex.seq === seq)!.input);
    expect(shown(1)).toContain('superseded, src/a.ts edited in e3 (this read shows it before that)');
    expect(shown(1)).toContain('request e1 full to see it');
    expect(shown(1)).not.toContain('old line 5');
    expect(shown(2)).toContain('superseded, src/b.ts was read again in e6');
    expect(shown(4)).toContain('superseded, src/c.ts changed on disk in e5');
    expect(shown(6)).toContain('fresh b');
    expect(shown(7)).toContain('d content');
  });

  it('between steps nothing is rewritten: the request after an edit still carries the old read, byte for byte (the cache pays)', async () => {
    const { engine } = makeEngine();
    engine.beginExchange(user(text('Fix src/a.ts')), { userMessage: true });
    await engine.assemble();
    engine.completeExchange(assistant(toolUse('r1', 'read_file', { path: 'src/a.ts' })));
    engine.beginExchange(user(toolResult('r1', OLD)));
    const first = await engine.assemble();
    engine.completeExchange(assistant(toolUse('w1', 'edit_file', { path: 'src/a.ts', edits: [] })));
    engine.beginExchange(user(toolResult('w1', 'Edited src/a.ts:\n3: export const v3 = 33;')), { changedFiles: ['src/a.ts'] });
    const second = await engine.assemble();
    expect(second.mode).toBe('full');
    const prefix = JSON.stringify(first.request.messages.slice(0, -1).map((m) => m.content.map(({ cache_control: _c, ...b }) => b)));
    const again = JSON.stringify(second.request.messages.slice(0, first.request.messages.length - 1).map((m) => m.content.map(({ cache_control: _c, ...b }) => b)));
    expect(again).toBe(prefix);
    expect(JSON.stringify(second.request)).toContain('old line 5');
  });
});

describe('paths compare relative to the workspace root', () => {
  it('pathKeyFor: the root prefix and ./ are dropped; other paths stay as written', () => {
    const key = pathKeyFor('/ws/proj/');
    expect(key('/ws/proj/src/a.ts')).toBe('src/a.ts');
    expect(key('./src/a.ts')).toBe('src/a.ts');
    expect(key('src/a.ts')).toBe('src/a.ts');
    expect(key('/ws/project/src/a.ts')).toBe('/ws/project/src/a.ts');
    expect(key('/elsewhere/a.ts')).toBe('/elsewhere/a.ts');
    expect(pathKeyFor(undefined)('/ws/proj/src/a.ts')).toBe('/ws/proj/src/a.ts');
  });

  it('pathKeyFor: a Windows root matches either separator and either drive-letter case', () => {
    const key = pathKeyFor('C:\\Users\\me\\proj');
    expect(key('C:\\Users\\me\\proj\\src\\a.ts')).toBe('src/a.ts');
    expect(key('c:/Users/me/proj/src/a.ts')).toBe('src/a.ts');
    expect(key('src\\a.ts')).toBe('src/a.ts');
    // a POSIX root leaves backslashes alone: they are legal in a file name there
    expect(pathKeyFor('/ws')('src\\a.ts')).toBe('src\\a.ts');
  });

  it('file views: a read by absolute path goes stale when the front end reports the relative path changed', () => {
    const views = new FileViews(pathKeyFor('/ws'));
    views.observe(live(1, read('/ws/src/a.ts'), OLD));
    views.observe(live(2, read('src/b.ts'), 'b content\nline 2'));
    views.observe(live(3, undefined, 'go on', { changedFiles: ['src/a.ts'] }));
    const rendered = views.render(3, 50, 10_000, charTokenizer.count);
    expect(rendered).not.toContain('old line 5');
    expect(rendered).toContain('### src/a.ts: changed on disk in e3, after the view in e1');
    expect(rendered).toContain('### src/b.ts (as shown in e2)');
  });

  it('working memory: with a root, an absolute read is superseded by a relative edit and a relative re-read; without one it is not', () => {
    const tail = () => [live(1, read('/ws/src/a.ts'), OLD), live(2, edit('src/a.ts'), 'Edited src/a.ts:\n3: export const v3 = 33;'), live(3, read('/ws/src/c.ts'), 'c content\nline 2'), live(4, read('./src/c.ts'), 'c again\nline 2')];
    const stepped = (root?: string) => {
      const state = newEngineState(resolveEngineSettings({}), charTokenizer, [{ type: 'text', text: 'sys' }], [], emptyNarrative('task'), pathKeyFor(root));
      state.tail = tail();
      relayer(state, state.tail.length);
      return (seq: number) => JSON.stringify(state.tail.find((ex) => ex.seq === seq)!.input);
    };
    const rooted = stepped('/ws');
    expect(rooted(1)).toContain('superseded, src/a.ts edited in e2');
    expect(rooted(3)).toContain('superseded, src/c.ts was read again in e4');
    const plain = stepped(undefined);
    expect(plain(1)).toContain('old line 5');
    expect(plain(3)).toContain('c content');
  });
});
