import { describe, expect, it } from 'vitest';
import { requestTokens } from '../../src/engine/blockTokens';
import { ExtractiveSummarizer } from '../../src/engine/extractiveSummarizer';
import type { Tokenizer } from '../../src/engine/ports';
import type { MessagesRequest } from '../../src/shared/messages';

/** One token a character, so every cap below is an exact length. */
const chars: Tokenizer = { count: (s) => s.length, observe: () => undefined, learned: () => false };

/** A condense request whose user messages carry `texts`, one message each. */
function request(...texts: string[]): MessagesRequest {
  return {
    system: [{ type: 'text', text: 'Summarise the exchanges.' }],
    messages: texts.map((text) => ({ role: 'user', content: [{ type: 'text', text }] })),
    tools: [],
  };
}

async function summary(maxOutputTokens: number, ...texts: string[]): Promise<string> {
  return (await new ExtractiveSummarizer(chars).summarize({ request: request(...texts), maxOutputTokens })).text;
}

describe('extractive summariser', () => {
  it('keeps exchange headings and the lines that carry decisions, changes and errors, trimmed, each once', async () => {
    const text = await summary(
      1_000,
      'e1:\n  Read the parser.\n  Fixed the off-by-one in lexer.ts  \nlooked around\n\ne2:\nsee e3: for details\nFixed the off-by-one in lexer.ts',
      'e12:\nThe build passes now',
    );
    expect(text).toBe('e1:\nFixed the off-by-one in lexer.ts\ne12:\nThe build passes now');
  });

  it('drops a bare heading with nothing kept under it: before another bare heading or at the end', async () => {
    const text = await summary(1_000, 'e1:\nFixed it as planned in e3:\ne9:\ne10:\ne11:\ne12: looked at it\ne13:');
    expect(text).toBe('e1:\nFixed it as planned in e3:\ne11:\ne12: looked at it');
  });

  it('clips a line longer than 240 characters to 237 and an ellipsis, and leaves one of 240 whole', async () => {
    const long = `fix ${'x'.repeat(237)}`;
    const exact = `fix ${'y'.repeat(236)}`;
    expect([long.length, exact.length]).toEqual([241, 240]);
    expect(await summary(1_000, `${long}\n${exact}`)).toBe(`${long.slice(0, 237)}...\n${exact}`);
  });

  it('stops at the first line that does not fit the cap, a line costing its tokens plus one', async () => {
    const lines = 'fix a\nfix bb\nfix c';
    expect(await summary(12, lines)).toBe('fix a');
    expect(await summary(13, lines)).toBe('fix a\nfix bb');
    expect(await summary(18, lines)).toBe('fix a\nfix bb');
    expect(await summary(19, lines)).toBe('fix a\nfix bb\nfix c');
    expect(await summary(13, 'fix a\nfix the long one\nfix c')).toBe('fix a');
    expect(await summary(5, lines)).toBe('');
  });

  it('reports the tokens of the whole request and of the summary', async () => {
    const body = request('e1:\nAdded a cache because reads were slow\nnothing else');
    const result = await new ExtractiveSummarizer(chars).summarize({ request: body, maxOutputTokens: 100 });
    expect(result).toEqual({ text: 'e1:\nAdded a cache because reads were slow', inputTokens: requestTokens(body, chars.count), outputTokens: 41 });
    expect(await summary(100, 'just looking around')).toBe('');
  });
});
