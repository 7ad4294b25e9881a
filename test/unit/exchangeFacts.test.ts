import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../src/engine/exchange';
import { hadError, nextStepOf } from '../../src/engine/exchangeFacts';
import type { ContentBlock } from '../../src/shared/messages';

function exchange(input: ContentBlock[], answer: ContentBlock[] = [{ type: 'text', text: 'ok' }]): Exchange {
  return { seq: 3, createdAt: 0, input: { role: 'user', content: input }, output: { role: 'assistant', content: answer } };
}

const result = (id: string, is_error?: boolean): ContentBlock => ({ type: 'tool_result', tool_use_id: id, content: 'out', ...(is_error === undefined ? {} : { is_error }) });

describe('facts of one exchange', () => {
  it('failed when any tool result of its input is an error, and only then', () => {
    expect(hadError(exchange([{ type: 'text', text: 'go on' }, result('t1'), result('t2', true), result('t3', false)]))).toBe(true);
    expect(hadError(exchange([result('t1', false), result('t2')]))).toBe(false);
    expect(hadError(exchange([{ type: 'text', text: 'is_error: true' }]))).toBe(false);
    expect(hadError(exchange([]))).toBe(false);
  });

  it('the next step is the first sentence that announces one, trimmed and cut at 160 characters', () => {
    const answer = (...texts: string[]) => exchange([], texts.map((text) => ({ type: 'text', text })));
    expect(nextStepOf(answer('The parser is fixed.   \n   Next I will run the tests   \nThen the linter.'))).toEqual(['Next I will run the tests']);
    expect(nextStepOf(answer('All done.', 'Let me check the build. Then commit.'))).toEqual(['Let me check the build.']);
    const long = `I'll ${'rewrite the lexer '.repeat(12)}`;
    expect(nextStepOf(answer(long))).toEqual([long.trim().slice(0, 160)]);
    expect(long.trim().length).toBeGreaterThan(160);
    expect(nextStepOf(answer('The parser is fixed. All tests pass.'))).toEqual([]);
    expect(nextStepOf(exchange([], [{ type: 'tool_use', id: 't1', name: 'Read', input: { file_path: 'next.ts' } }]))).toEqual([]);
  });
});
