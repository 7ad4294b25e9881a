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
