import { describe, expect, it } from 'vitest';
import { diffTarget, proposedContent } from '../../src/extension/proposedContent';
import { applyEditBlocks } from '../../src/task/tools/applyEditBlocks';

describe('proposedContent (the right side of "Show diff")', () => {
  it('is the whole content for write_file, new file or not', () => {
    expect(proposedContent('write_file', { path: 'a.ts', content: 'x\n' }, undefined)).toEqual({ ok: true, text: 'x\n' });
    expect(proposedContent('write_file', { path: 'a.ts', content: 'x\n' }, 'old\n')).toEqual({ ok: true, text: 'x\n' });
    expect(diffTarget('write_file', { path: 'a.ts', content: '' })).toBe('a.ts');
  });

  it('applies edit_file blocks to the current text as the tool will, CRLF kept', () => {
    const current = 'export const hello = "world";\n';
    expect(proposedContent('edit_file', { path: 'hello.ts', edits: [{ search: '"world"', replace: '"strata"' }] }, current)).toEqual({ ok: true, text: 'export const hello = "strata";\n' });
    expect(proposedContent('edit_file', { path: 'w.txt', edits: [{ search: 'a\nb', replace: 'a\nc' }] }, 'a\r\nb\r\n')).toEqual({ ok: true, text: 'a\r\nc\r\n' });
  });

  it('says why there is no diff: blocks that do not apply, a missing file, a command, a malformed call', () => {
    const twice = proposedContent('edit_file', { path: 'f', edits: [{ search: 'x', replace: 'y' }] }, 'x x\n');
    expect(twice).toEqual({ ok: false, message: 'The edit would not apply to f as it is now:\n- block 1: the search text matches 2 times (lines 1, 1); add surrounding lines so it matches once.' });
    expect(proposedContent('edit_file', { path: 'f', edits: [{ search: 'x', replace: 'y' }] }, undefined)).toMatchObject({ ok: false, message: expect.stringContaining('f does not exist') });
    expect(proposedContent('execute_command', { command: 'ls' }, '')).toMatchObject({ ok: false });
    expect(proposedContent('edit_file', { path: 'f', edits: [] }, 'x')).toMatchObject({ ok: false, message: expect.stringContaining('no path or edit blocks') });
    expect(diffTarget('execute_command', { command: 'ls' })).toBeUndefined();
  });
});

describe('proposedContent: the messages and the path, for each tool', () => {
  it('names the file a write or an edit would change; nothing for a malformed call or a command', () => {
    expect(diffTarget('edit_file', { path: 'src/a.ts', edits: [{ search: 'a', replace: 'b' }] })).toBe('src/a.ts');
    expect(diffTarget('write_file', { path: 'a.ts' })).toBeUndefined();
    expect(diffTarget('edit_file', { path: 'a.ts', edits: [] })).toBeUndefined();
  });

  it('says which call is malformed, that a command changes no file, and every block that does not apply', () => {
    expect(proposedContent('write_file', { path: 'a.ts' }, 'x')).toEqual({ ok: false, message: 'The write_file call has no path or content to show.' });
    expect(proposedContent('execute_command', { command: 'ls' }, '')).toEqual({ ok: false, message: 'execute_command does not change a file, so there is no diff to show.' });
    const both = proposedContent('edit_file', { path: 'f', edits: [{ search: 'nope', replace: 'y' }, { search: 'nor this', replace: 'z' }] }, 'x\n');
    expect(both.ok).toBe(false);
    expect(both.ok ? '' : both.message.split('\n')).toEqual(['The edit would not apply to f as it is now:', expect.stringMatching(/^- block 1: /), expect.stringMatching(/^- block 2: /)]);
  });
});

describe('applyEditBlocks', () => {
  it('applies non-overlapping blocks in file order whatever their order, or none', () => {
    expect(applyEditBlocks('a b c', [{ search: 'c', replace: '3' }, { search: 'a', replace: '1' }])).toEqual({ ok: true, text: '1 b 3', applied: 2 });
    const overlap = applyEditBlocks('abc', [{ search: 'ab', replace: 'x' }, { search: 'bc', replace: 'y' }]);
    expect(overlap).toEqual({ ok: false, problems: ['- blocks 1 and 2 overlap; merge them into one block.'] });
    expect(applyEditBlocks('abc', [{ search: '', replace: 'x' }])).toMatchObject({ ok: false, problems: ['- block 1: the search text is empty; give the exact text to replace.'] });
  });
});
