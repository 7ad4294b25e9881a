import { describe, expect, it } from 'vitest';
import { normalizeLog } from '../../src/engine/text/normalizeLog';
import { trimToTokens } from '../../src/engine/text/trimToBudget';
import { truncateChars, truncateHeadTail } from '../../src/engine/text/truncateHeadTail';

const count = (s: string) => Math.ceil(s.length / 4);

describe('normalizeLog', () => {
  it('strips ANSI codes, resolves carriage returns, drops progress bars, collapses repeats', () => {
    const raw = [
      '\u001b[32mPASS\u001b[0m src/a.test.ts',
      'Downloading 10%\rDownloading 50%\rDownloading 100%',
      '[=====>          ] 45%',
      ' 45%|████      | 45/100',
      'same line',
      'same line',
      'same line',
      'same line',
      'done',
    ].join('\n');
    expect(normalizeLog(raw)).toBe(['PASS src/a.test.ts', 'Downloading 100%', 'same line', '[… repeated 3 more times]', 'done'].join('\n'));
  });

  it('leaves ordinary output alone, including two equal lines', () => {
    const text = 'a\nb\nb\nc 100% sure';
    expect(normalizeLog(text)).toBe(text);
  });
});

describe('truncateHeadTail and truncateChars', () => {
  it('keeps head and tail with a count of the lines cut', () => {
    const text = Array.from({ length: 10 }, (_, i) => `l${i}`).join('\n');
    expect(truncateHeadTail(text, 5)).toEqual({ text: 'l0\nl1\n[… 6 lines cut …]\nl8\nl9', cutLines: 6 });
    expect(truncateHeadTail(text, 10)).toEqual({ text, cutLines: 0 });
  });

  it('cuts one enormous line by characters without splitting a surrogate pair', () => {
    const out = truncateChars('😀'.repeat(1000), 101);
    expect(out.cutChars).toBeGreaterThan(0);
    expect(out.text).toContain('chars cut');
    expect(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(out.text)).toBe(false);
  });
});

describe('trimToTokens never exceeds its budget', () => {
  const inputs = [
    'Short.',
    'First sentence here. Second sentence is longer than the first one. Third!',
    'line one with words\nline two with more words\nline three',
    'x'.repeat(10_000),
    'word '.repeat(200_000),
  ];
  it.each([0, 1, 2, 3, 5, 12, 40, 300])('at %i tokens', (budget) => {
    for (const text of inputs) {
      const out = trimToTokens(text, budget, count);
      expect(count(out)).toBeLessThanOrEqual(budget);
      if (count(text) <= budget) expect(out).toBe(text);
    }
  });

  it('cuts at a sentence boundary when one fits', () => {
    expect(trimToTokens('First sentence here. Second sentence is longer than the first one.', 7, count)).toBe('First sentence here. …');
  });
});

describe('text helpers at their edges (exact outputs)', () => {
  const lines = (n: number) => Array.from({ length: n }, (_, i) => `l${i}`).join('\n');

  it('truncateHeadTail: one line over the limit is cut, the limit itself is not; an even limit keeps one more head line', () => {
    expect(truncateHeadTail(lines(6), 5)).toEqual({ text: 'l0\nl1\n[… 2 lines cut …]\nl4\nl5', cutLines: 2 });
    expect(truncateHeadTail(lines(5), 5)).toEqual({ text: lines(5), cutLines: 0 });
    expect(truncateHeadTail(lines(10), 4)).toEqual({ text: 'l0\nl1\n[… 7 lines cut …]\nl9', cutLines: 7 });
    // limits under 2 count as 2: the head line and the count, no tail
    expect(truncateHeadTail(lines(4), 0)).toEqual({ text: 'l0\n[… 3 lines cut …]', cutLines: 3 });
    expect(truncateHeadTail(lines(4), 2.9)).toEqual({ text: 'l0\n[… 3 lines cut …]', cutLines: 3 });
    expect(truncateHeadTail('', 2)).toEqual({ text: '', cutLines: 0 });
  });

  it('truncateChars: short texts unchanged, half of (max - 40) from each end, and a pair kept whole at both cuts', () => {
    expect(truncateChars('abc', 3)).toEqual({ text: 'abc', cutChars: 0 });
    const text = 'a'.repeat(50) + 'b'.repeat(50);
    // (60 - 40) / 2 = 10 from each end
    expect(truncateChars(text, 60)).toEqual({ text: `${'a'.repeat(10)}\n[… 80 chars cut …]\n${'b'.repeat(10)}`, cutChars: 80 });
    // a tiny max still keeps one character of each end
    expect(truncateChars(text, 4)).toEqual({ text: `a\n[… 98 chars cut …]\nb`, cutChars: 98 });
    // half = 5. Pairs only: the head cut falls after a high surrogate and moves back to 4; the
    // tail start (55) falls on a low one and moves on to 56. 'x' first: head 'x' + 2 pairs (5).
    const pairs = '😀'.repeat(30);
    expect(truncateChars(pairs, 50)).toEqual({ text: '😀😀\n[… 52 chars cut …]\n😀😀', cutChars: 52 });
    const shifted = `x${pairs}`;
    expect(truncateChars(shifted, 50)).toEqual({ text: 'x😀😀\n[… 52 chars cut …]\n😀😀', cutChars: 52 });
  });

  it('normalizeLog: an empty text, a lone escape, a trailing carriage return, two repeats spelled out, progress bars only when whole', () => {
    expect(normalizeLog('')).toBe('');
    expect(normalizeLog('a\u001bMb')).toBe('ab');
    expect(normalizeLog('\u001b]0;title\u0007done')).toBe('done');
    expect(normalizeLog('line\r\nnext\r')).toBe('line\nnext');
    expect(normalizeLog('x\nx\ny')).toBe('x\nx\ny');
    expect(normalizeLog('x\nx\nx\ny')).toBe('x\n[… repeated 2 more times]\ny');
    expect(normalizeLog('x\nx\nx\nx\ny\ny\ny\ny')).toBe('x\n[… repeated 3 more times]\ny\n[… repeated 3 more times]');
    expect(normalizeLog('50%')).toBe('50%'); // under 4 characters: not a bar
    expect(normalizeLog('####')).toBe('');
    expect(normalizeLog('[====]')).toBe('');
    expect(normalizeLog('=> 12/40')).toBe('');
    expect(normalizeLog('100% of tests passed')).toBe('100% of tests passed');
    expect(normalizeLog(`${'#'.repeat(401)}`)).toBe('#'.repeat(401)); // over 400: kept
    expect(normalizeLog('a\n█████\nb')).toBe('a\nb');
  });
});

describe('trimToTokens: which cut it takes (exact outputs, 4 characters a token)', () => {
  const count4 = (s: string) => Math.ceil(s.length / 4);

  it('nothing at 0 tokens; a text that fits comes back as it is', () => {
    expect(trimToTokens('Short.', 0, count4)).toBe('');
    expect(trimToTokens('Short.', 2, count4)).toBe('Short.');
  });

  it('whole sentences while they fit, then an ellipsis', () => {
    const text = 'First sentence here. Second sentence is longer than the first one. Third!';
    expect(trimToTokens(text, 8, count4)).toBe('First sentence here. …');
    expect(trimToTokens(text, 18, count4)).toBe('First sentence here. Second sentence is longer than the first one. …');
    expect(trimToTokens('one two\nthree four\nfive six', 3, count4)).toBe('one two …');
  });

  it('the first six words of each line when not even one line fits whole', () => {
    const text = 'alpha beta gamma delta epsilon zeta eta theta iota kappa\nsecond line';
    expect(trimToTokens(text, 10, count4)).toBe('alpha beta gamma delta epsilon zeta …');
  });

  it('a hard character cut last, never splitting a surrogate pair', () => {
    expect(trimToTokens('x'.repeat(100), 5, count4)).toBe(`${'x'.repeat(19)}…`);
    expect(trimToTokens('😀'.repeat(50), 5, count4)).toBe(`${'😀'.repeat(9)}…`);
  });
});

describe('text helpers: the cases a mutation run found unpinned', () => {
  const char = (code: number) => String.fromCharCode(code);
  const count4 = (s: string) => Math.ceil(s.length / 4);

  it('normalizeLog: a carriage return at the start of a line, and a bar of exactly 400 characters', () => {
    expect(normalizeLog('\rdone')).toBe('done');
    expect(normalizeLog(`${'█'.repeat(396)} 50%\nnext`)).toBe('next');
  });

  it('normalizeLog: CRLF line ends are no overwrite; an overwrite inside a CRLF line keeps its last state', () => {
    expect(normalizeLog('first\r\nsecond\r\n')).toBe('first\nsecond\n');
    expect(normalizeLog('10%\r100% done\r\nnext')).toBe('100% done\nnext');
    expect(normalizeLog('\r\n\r')).toBe('\n');
  });

  it('normalizeLog drops whole progress lines of every common shape', () => {
    const bars = ['[#####     ] 50%', ' 45%|████      | 45/100', '=====>      12.5%', '[==========] 100%', '████████████ 3/4', '50.25%', '⣿⣿⣿⣿ 99%'];
    expect(normalizeLog([...bars, 'ok'].join('\n'))).toBe('ok');
  });

  it('normalizeLog keeps lines that only look like progress: separators, headings, counts and percentages in words', () => {
    const kept = ['-----', '.....', '### 2', '## 12', '12/40 passed', 'Downloaded 50%', '50% done', 'Coverage: 87.5%'];
    expect(normalizeLog(kept.join('\n'))).toBe(kept.join('\n'));
  });

  it('normalizeLog strips SGR colours with parameters, a cursor-style sequence with an intermediate byte, and OSC titles', () => {
    expect(normalizeLog('\u001b[1;31mError\u001b[0m: x\n\u001b[2 qready\n\u001b]2;build: 3/7\u001b\\done')).toBe('Error: x\nready\ndone');
  });

  it('truncateChars never splits a pair at either cut, at every surrogate boundary value', () => {
    for (const high of [0xd800, 0xdbff]) {
      const text = `${'a'.repeat(19)}${char(high)}${char(0xdc00)}${'b'.repeat(80)}`;
      expect(truncateChars(text, 80).text).toBe(`${'a'.repeat(19)}\n[… 62 chars cut …]\n${'b'.repeat(20)}`);
    }
    for (const low of [0xdc00, 0xdfff]) {
      const text = `${'a'.repeat(80)}${char(0xd800)}${char(low)}${'b'.repeat(19)}`;
      expect(truncateChars(text, 80).text).toBe(`${'a'.repeat(20)}\n[… 62 chars cut …]\n${'b'.repeat(19)}`);
    }
    // U+E000 is no low surrogate: the cut stays where it is
    const privateUse = `${'a'.repeat(80)}${char(0xd800)}${char(0xe000)}${'b'.repeat(19)}`;
    expect(truncateChars(privateUse, 80).text).toBe(`${'a'.repeat(20)}\n[… 61 chars cut …]\n${char(0xe000)}${'b'.repeat(19)}`);
  });

  it('trimToTokens: a hard cut drops a high surrogate at every boundary value; nothing when not even the ellipsis fits', () => {
    for (const high of [0xd800, 0xdbff]) expect(trimToTokens(`abcdef${char(high)}${char(0xdc00)}zzzz`, 2, count4)).toBe('abcdef…');
    const oneMore = (s: string) => s.length + 1; // the ellipsis alone costs 2
    expect(trimToTokens('x'.repeat(40), 1, oneMore)).toBe('');
    expect(trimToTokens('x'.repeat(40), 2, oneMore)).toBe('…');
  });

  it('trimToTokens counts only a window of 8 characters a token, whatever the text', () => {
    const counted: number[] = [];
    const recording = (s: string) => {
      counted.push(s.length);
      return count4(s);
    };
    for (const text of ['word '.repeat(100_000), 'x'.repeat(100_000), 'One. Two.\n'.repeat(10_000)]) {
      counted.length = 0;
      trimToTokens(text, 10, recording);
      expect(counted.length).toBeGreaterThan(0);
      // the 80-character window, plus at most a separator per point and the ellipsis
      expect(Math.max(...counted)).toBeLessThanOrEqual(2 * 80 + 2);
    }
  });

  it('trimToTokens: zero tokens is nothing even for a counter that finds everything free', () => {
    expect(trimToTokens('abc', 0, () => 0)).toBe('');
  });

  it('trimToTokens: one sentence of a text that the window holds whole goes to the hard cut, trailing blanks and all', () => {
    // one sentence, one point: neither list is tried, so the blanks are cut, not trimmed away
    expect(trimToTokens(`abc${' '.repeat(60)}`, 10, count4)).toBe(`abc${' '.repeat(36)}…`);
    expect(trimToTokens('alpha beta gamma delta epsilon zeta eta theta iota kappa', 10, count4)).toBe('alpha beta gamma delta epsilon zeta eta…');
  });

  it('trimToTokens: the one sentence of a window shorter than the text is tried before the hard cut', () => {
    const lines = (s: string) => s.split('\n').length; // a token a line: the window fits
    expect(trimToTokens('x'.repeat(100), 2, lines)).toBe(`${'x'.repeat(16)} …`);
  });

  it('trimToTokens: the hard cut keeps the whole window when it fits with the ellipsis', () => {
    const spaceIsDear = (s: string) => (s.includes(' ') ? 100 : 1); // rules out the sentence, which ends in " …"
    expect(trimToTokens('x'.repeat(100), 2, spaceIsDear)).toBe(`${'x'.repeat(16)}…`);
  });

  it('trimToTokens: key points are the first six words of each non-empty line, trimmed, joined by "; "', () => {
    const text = `alpha  beta gamma delta epsilon zeta eta theta iota kappa lambda mu\n\n   second   line\nthird`;
    expect(trimToTokens(text, 13, count4)).toBe('alpha beta gamma delta epsilon zeta; second line …');
    expect(trimToTokens(text, 15, count4)).toBe('alpha beta gamma delta epsilon zeta; second line; third …');
  });
});
