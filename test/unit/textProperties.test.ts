import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { trimToTokens } from '../../src/engine/text/trimToBudget';
import { normalizeLog } from '../../src/engine/text/normalizeLog';
import { truncateChars, truncateHeadTail } from '../../src/engine/text/truncateHeadTail';
import { createTiktokenTokenizer } from '../../src/adapters/tiktokenTokenizer';

/** Seeded and bounded: the same cases on every CI run. */
const RUNS = { seed: 1_010, numRuns: 300 };

const tiktoken = createTiktokenTokenizer();
const counters: Record<string, (s: string) => number> = {
  'four characters a token': (s) => Math.ceil(s.length / 4),
  'o200k (js-tiktoken)': (s) => tiktoken.count(s),
};

/** Log-like text: lines from a small alphabet so repeats, CRs, ANSI codes and progress bars occur often. */
const logLine = fc.oneof(
  fc.constantFrom('ok', 'ok', 'PASS src/a.test.ts', '\u001b[32mgreen\u001b[0m', '50% [=====>    ]', 'a\rb', 'done\r', '', '  indented', 'Ünïcödé 日本語 🎉'),
  fc.string({ unit: 'grapheme', maxLength: 30 }),
);
const logText = fc.array(logLine, { maxLength: 40 }).map((lines) => lines.join('\n'));
const anyText = fc.oneof(fc.string({ unit: 'grapheme', maxLength: 400 }), fc.string({ unit: 'binary', maxLength: 400 }), logText);

function hasLoneSurrogate(s: string): boolean {
  return /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(s);
}

describe('trimToTokens on any text and cap (fast-check, seeded)', () => {
  for (const [name, count] of Object.entries(counters)) {
    it(`${name}: within the cap, unchanged when it fits, idempotent, never splits a surrogate pair`, () => {
      fc.assert(
        fc.property(anyText, fc.integer({ min: 0, max: 120 }), (text, cap) => {
          const out = trimToTokens(text, cap, count);
          expect(count(out)).toBeLessThanOrEqual(cap);
          if (count(text) <= cap) expect(out).toBe(text);
          expect(trimToTokens(out, cap, count)).toBe(out);
          if (!hasLoneSurrogate(text)) expect(hasLoneSurrogate(out)).toBe(false);
        }),
        { ...RUNS, numRuns: name.startsWith('o200k') ? 150 : RUNS.numRuns },
      );
    });
  }
});

describe('log normaliser on any text (fast-check, seeded)', () => {
  it('never throws, never adds lines, drops ANSI codes and keeps no run of three identical lines', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const out = normalizeLog(text);
        expect(out.split('\n').length).toBeLessThanOrEqual(text.split('\n').length);
        if (!text.includes('\u001b\u001b')) expect(out).not.toMatch(/\u001b\[[0-9;]*m/);
        const lines = out.split('\n');
        for (let i = 2; i < lines.length; i++) {
          if (!lines[i]!.startsWith('[… repeated')) expect(lines[i] === lines[i - 1] && lines[i] === lines[i - 2]).toBe(false);
        }
      }),
      RUNS,
    );
  });

  it('is idempotent on output without escape codes or repeat markers of its own', () => {
    fc.assert(
      fc.property(logText.filter((t) => !t.includes('\u001b') && !t.includes('[… repeated')), (text) => {
        const once = normalizeLog(text);
        expect(normalizeLog(once)).toBe(once);
      }),
      RUNS,
    );
  });
});

describe('head+tail truncation on any text (fast-check, seeded)', () => {
  it('keeps at most maxLines lines, first and last lines included, and says how many were cut', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 12 }), { minLength: 1, maxLength: 200 }), fc.integer({ min: 0, max: 60 }), (lines, max) => {
        const text = lines.join('\n');
        const { text: out, cutLines } = truncateHeadTail(text, max);
        const limit = Math.max(2, max);
        if (lines.length <= limit) {
          expect(out).toBe(text);
          expect(cutLines).toBe(0);
          return;
        }
        const kept = out.split('\n');
        expect(kept.length).toBe(limit);
        expect(kept[0]).toBe(lines[0]);
        expect(kept).toContain(`[… ${cutLines} lines cut …]`);
        expect(kept.length - 1 + cutLines).toBe(lines.length);
        if (limit > 2) expect(kept[kept.length - 1]).toBe(lines[lines.length - 1]);
      }),
      RUNS,
    );
  });

  it('cuts characters to about maxChars without splitting a surrogate pair', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 600 }), fc.integer({ min: 50, max: 400 }), (text, max) => {
        const { text: out, cutChars } = truncateChars(text, max);
        if (text.length <= max) {
          expect(out).toBe(text);
          return;
        }
        expect(out.length).toBeLessThanOrEqual(max + 40);
        expect(hasLoneSurrogate(out)).toBe(false);
        expect(out).toContain(`[… ${cutChars} chars cut …]`);
      }),
      RUNS,
    );
  });
});

describe('the o200k tokenizer on any string (fast-check, seeded)', () => {
  it('counts are non-negative integers, deterministic across instances, zero only for the empty string', () => {
    const fresh = createTiktokenTokenizer();
    fc.assert(
      fc.property(anyText, (text) => {
        const n = tiktoken.count(text);
        expect(Number.isInteger(n) && n >= 0).toBe(true);
        expect(fresh.count(text)).toBe(n);
        expect(n === 0).toBe(text.length === 0);
      }),
      RUNS,
    );
  });

  /**
   * BPE only merges within a pre-tokenisation piece, so joining two texts can change only the
   * pieces that touch the join (a word split in two, a space that attaches to the next word):
   * a few tokens either way. Runs longer than 48 characters are cut into parts and sampled, so
   * the bound allows 2% of the total on top.
   */
  it('count(a + b) is count(a) + count(b) within 4 tokens + 2%', () => {
    fc.assert(
      fc.property(anyText, anyText, (a, b) => {
        const sum = tiktoken.count(a) + tiktoken.count(b);
        expect(Math.abs(tiktoken.count(a + b) - sum)).toBeLessThanOrEqual(4 + Math.ceil(sum * 0.02));
      }),
      RUNS,
    );
  });
});
