import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ProtocolStreamFilter, visibleAnswerText } from '../../src/task/protocolStreamFilter';

const ANSWER =
  'Fixed the parser in `src/a.ts` (x < y holds).\n<housekeeping>{"summaries":{"e3":"parser fixed"}}</housekeeping>\n' +
  'More text <context_request>{"ids":["e1"],"format":"full"}</context_request> done.';
const VISIBLE = 'Fixed the parser in `src/a.ts` (x < y holds).\n\nMore text  done.';

/** Streams `text` cut at `cuts` and returns every emitted piece. */
function stream(text: string, cuts: number[]): string[] {
  const filter = new ProtocolStreamFilter();
  const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
  const pieces: string[] = [];
  let from = 0;
  for (const p of [...points, text.length]) {
    pieces.push(filter.push(text.slice(from, p)));
    from = p;
  }
  pieces.push(filter.end());
  return pieces;
}

describe('ProtocolStreamFilter', () => {
  it('shows everything but the protocol blocks when the answer arrives in one piece', () => {
    expect(stream(ANSWER, []).join('')).toBe(VISIBLE);
  });

  it('gives the same visible text for every split point, and never emits part of a block', () => {
    for (let cut = 0; cut <= ANSWER.length; cut++) {
      const pieces = stream(ANSWER, [cut]);
      expect(pieces.join(''), `split at ${cut}`).toBe(VISIBLE);
      for (const piece of pieces) expect(piece).not.toMatch(/<h|<c|summaries|"ids"/);
    }
  });

  it('holds for any chunking (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(ANSWER.length), { maxLength: 40 }), (cuts) => {
        const pieces = stream(ANSWER, cuts);
        expect(pieces.join('')).toBe(VISIBLE);
        for (const piece of pieces) expect(piece).not.toMatch(/summaries|"ids"/);
      }),
      { seed: 7, numRuns: 10_000 },
    );
  });

  it('shows a held-back "<" that turned out not to start a tag, at the end of the stream', () => {
    expect(stream('a <hou', [3]).join('')).toBe('a <hou');
    expect(stream('if a <', []).join('')).toBe('if a <');
  });

  it('holds an unterminated block back until the stream ends, then shows it as the prose it was, for any chunking', () => {
    const prose = 'Use a <housekeeping> tag only at the end. Then the rest of the answer, which must not vanish.';
    fc.assert(
      fc.property(fc.array(fc.nat(prose.length), { maxLength: 20 }), (cuts) => {
        const pieces = stream(prose, cuts);
        // Nothing after the tag shows before the end; at the end, all of it does.
        expect(pieces.slice(0, -1).join('')).toBe('Use a ');
        expect(pieces.join('')).toBe(prose);
      }),
      { seed: 13, numRuns: 10_000 },
    );
    expect(stream('ok <housekeeping>{"summ', [5, 9]).join('')).toBe('ok <housekeeping>{"summ');
    expect(visibleAnswerText('A <context_request> is how you ask. <housekeeping>{}</housekeeping>')).toBe('A <context_request> is how you ask.');
  });

  it('leaves text without protocol blocks untouched, whatever its characters', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), fc.array(fc.nat(200), { maxLength: 10 }), (text, cuts) => {
        fc.pre(!text.includes('<housekeeping>') && !text.includes('<context_request>'));
        expect(stream(text, cuts).join('')).toBe(text);
      }),
      { seed: 11, numRuns: 10_000 },
    );
  });

  it('visibleAnswerText strips blocks and trailing space', () => {
    expect(visibleAnswerText('Done.\n<housekeeping>{}</housekeeping>\n')).toBe('Done.');
  });
});

describe('ProtocolStreamFilter: when text shows and what it holds back', () => {
  it('shows plain text at once, holding back only what may start a tag', () => {
    const filter = new ProtocolStreamFilter();
    expect(filter.push('Plain text with no tag at all.')).toBe('Plain text with no tag at all.');
    expect(filter.push(' then a <hou')).toBe(' then a ');
    expect(filter.push('r')).toBe('<hour');
    expect(filter.end()).toBe('');
  });

  it('hides the first block to open when the two kinds come in the other order', () => {
    const text = 'a <context_request>{"ids":["e1"]}</context_request> b <housekeeping>{}</housekeeping> c';
    expect(stream(text, []).join('')).toBe('a  b  c');
  });

  it('an unterminated block cut inside its closing tag comes back whole, once', () => {
    const filter = new ProtocolStreamFilter();
    expect(filter.push('x <housekeeping>{"a":1}</house')).toBe('x ');
    expect(filter.end()).toBe('<housekeeping>{"a":1}</house');
  });

  it('starts afresh after end(): nothing held from the last stream shows in the next', () => {
    const filter = new ProtocolStreamFilter();
    expect(filter.push('one <cont')).toBe('one ');
    expect(filter.end()).toBe('<cont');
    expect(filter.push('two')).toBe('two');
    expect(filter.end()).toBe('');
  });
});
