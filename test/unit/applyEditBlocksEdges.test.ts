import { describe, expect, it } from 'vitest';
import { applyEditBlocks } from '../../src/task/tools/applyEditBlocks';

// What edit_file tells the model when a block cannot be applied (found by mutation testing,
// task-tools): the match count, the lines it names, and where the first line of a missing
// block does appear.

const problems = (text: string, search: string) => {
  const out = applyEditBlocks(text, [{ search, replace: '' }]);
  return out.ok ? [] : out.problems;
};

describe('applyEditBlocks: the problems it names', () => {
  it('blocks that touch without overlapping both apply', () => {
    expect(applyEditBlocks('abcd', [{ search: 'cd', replace: 'CD' }, { search: 'ab', replace: 'AB' }])).toEqual({ ok: true, text: 'ABCD', applied: 2 });
  });

  it('the lines of repeated matches: on the last line, after a leading newline, and for a search that starts with a newline', () => {
    expect(problems('a\nb\na', 'a')).toEqual(['- block 1: the search text matches 2 times (lines 1, 3); add surrounding lines so it matches once.']);
    expect(problems('\nx\nx', 'x')).toEqual(['- block 1: the search text matches 2 times (lines 2, 3); add surrounding lines so it matches once.']);
    expect(problems('a\nfoo\nb\nfoo', '\nfoo')).toEqual(['- block 1: the search text matches 2 times (lines 1, 3); add surrounding lines so it matches once.']);
  });

  it('five matches are counted and listed; six or more are "more than 5", five lines listed', () => {
    expect(problems('q\nq\nq\nq\nq', 'q')).toEqual(['- block 1: the search text matches 5 times (lines 1, 2, 3, 4, 5); add surrounding lines so it matches once.']);
    expect(problems('q\nq\nq\nq\nq\nq\nq', 'q')).toEqual(['- block 1: the search text matches more than 5 times (lines 1, 2, 3, 4, 5); add surrounding lines so it matches once.']);
  });

  it('a missing block: its first non-blank line, trimmed, is looked for; none or not found gives no hint', () => {
    expect(problems('x\n\tfoo\n', '   \n  foo  \nzzz')).toEqual(['- block 1: the search text was not found. Its first line appears at line 2, so the rest differs (whitespace, or later lines).']);
    expect(problems('foo\nbar', 'foo\nbaz')).toEqual(['- block 1: the search text was not found. Its first line appears at line 1, so the rest differs (whitespace, or later lines).']);
    expect(problems('x\nfoo\n', '  \n\t')).toEqual(['- block 1: the search text was not found.']);
    expect(problems('x\nfoo\n', 'nowhere\nfoo')).toEqual(['- block 1: the search text was not found.']);
  });
});
