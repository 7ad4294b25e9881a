import { randomInt } from 'node:crypto';
import { Tiktoken } from 'js-tiktoken/lite';
import o200k_base from 'js-tiktoken/ranks/o200k_base';
import { describe, expect, it } from 'vitest';
import { createTiktokenTokenizer } from '../../src/adapters/tiktokenTokenizer';

const reference = new Tiktoken(o200k_base);
const exact = (s: string) => reference.encode(s, [], []).length;
/** The bounds and step of the correction factor, as the adapter documents them. */
const FACTOR_MIN = 0.5;
const FACTOR_MAX = 2.5;
const ALPHA = 0.2;
/** Texts up to this many characters are counted exactly (the adapter's documented limit). */
const EXACT_CHARS = 262_144;

const letters = (n: number) => Array.from({ length: n }, () => String.fromCharCode(97 + randomInt(26))).join('');

describe('tiktoken tokenizer: the edges tokenCounting.test.ts leaves open', () => {
  // Building an encoder takes a second on a busy machine: the counting tests share one.
  const shared = createTiktokenTokenizer();

  it('starts from a factor learned earlier when it lies in [0.5, 2.5], bounds included, and from 1 otherwise', () => {
    for (const f of [FACTOR_MIN, FACTOR_MAX]) {
      const t = createTiktokenTokenizer({ learnedFactor: f });
      expect(t.factor()).toBe(f);
      expect(t.learned()).toBe(true);
      const text = 'a restored factor scales every count';
      expect(t.count(text)).toBe(Math.ceil(t.rawCount(text) * f));
    }
    for (const f of [undefined, FACTOR_MIN - 0.01, FACTOR_MAX + 0.01]) {
      const t = createTiktokenTokenizer({ learnedFactor: f });
      expect(t.factor()).toBe(1);
      expect(t.learned()).toBe(false);
    }
  });

  it('moves the factor a fifth of the way to each observed ratio, the ratio clamped to [0.5, 2.5]', () => {
    const up = createTiktokenTokenizer();
    up.observe(100, 10_000);
    expect(up.factor()).toBeCloseTo(1 + ALPHA * (FACTOR_MAX - 1), 10);
    const down = createTiktokenTokenizer();
    down.observe(10_000, 1);
    expect(down.factor()).toBeCloseTo(1 + ALPHA * (FACTOR_MIN - 1), 10);
    for (let i = 0; i < 200; i++) down.observe(10_000, 1);
    expect(down.factor()).toBeGreaterThanOrEqual(FACTOR_MIN);
    expect(down.factor()).toBeCloseTo(FACTOR_MIN, 6);
  });

  it('ignores a usage report of zero or less on either side: the factor stays, nothing is learned', () => {
    const t = createTiktokenTokenizer();
    for (const [estimated, reported] of [[100, 0], [0, 100], [100, -5], [-5, 100], [100, Number.NaN]] as const) t.observe(estimated, reported);
    expect(t.factor()).toBe(1);
    expect(t.learned()).toBe(false);
  });

  it('counts a text of exactly the exact-count limit exactly, even where its halves split a word', () => {
    const text = 'hello '.repeat(Math.ceil(EXACT_CHARS / 6)).slice(0, EXACT_CHARS);
    expect(text.length).toBe(EXACT_CHARS);
    expect(shared.count(text)).toBe(exact(text));
  });

  it('estimates a longer text from its head and its tail: English then CJK stays within 3%', () => {
    const english = 'The quick brown fox jumps over the lazy dog near the river bank. '.repeat(2500);
    const cjk = '日本語のテキストを数えます。中文文本也可以。'.repeat(8000);
    const text = english + cjk;
    expect(text.length).toBeGreaterThan(EXACT_CHARS);
    const want = exact(text);
    expect(Math.abs(shared.count(text) - want) / want).toBeLessThan(0.03);
  });

  it('counts thousands of never-seen words (the batched path) exactly', () => {
    const words = Array.from({ length: 5000 }, (_, i) => `w${(i * 7919).toString(36)}q`).join(' ');
    expect(shared.count(words)).toBe(exact(words));
  });

  it('never cuts a long run inside a surrogate pair (low surrogates 0xDC00 and 0xDFFF at the cut included)', () => {
    // U+10000 is D800 DC00 (a letter, so a long letter run); U+1F3FF is D83C DFFF (a symbol run).
    // After a one-character lead, every 48-character cut falls on a low surrogate.
    const samples = [`-${'\u{10000}'.repeat(60)}`, ` ${'\u{1F3FF}'.repeat(60)}`, ` ${'😀🎉'.repeat(30)}`, '😀🎉'.repeat(30)];
    for (const s of samples) expect(shared.count(s)).toBe(exact(s));
  });

  it('extrapolates a long run from its head: two runs alike in length and in their first 1,536 characters count the same', () => {
    const head = letters(2000);
    const a = head + 'z'.repeat(2000);
    const b = head + letters(2000);
    const t = shared;
    expect(t.count(a)).toBe(t.count(b));
  });

  it('extrapolates at the head\'s rate: a run of twice 1,536 characters counts twice its head', () => {
    // The head is cut into 48-character pieces, so a run of one repeated 48-character block
    // has the same rate everywhere: the rest of the run adds as many tokens as the head.
    const block = letters(48);
    const head = block.repeat(1536 / 48);
    const sampled = createTiktokenTokenizer().rawCount(head);
    expect(sampled).toBeGreaterThan(0);
    expect(createTiktokenTokenizer().rawCount(head + head)).toBe(2 * sampled);
    expect(createTiktokenTokenizer().rawCount(head + head.slice(0, 768))).toBe(Math.ceil(1.5 * sampled));
  });
});
