import { randomBytes } from 'node:crypto';
import { Tiktoken } from 'js-tiktoken/lite';
import o200k_base from 'js-tiktoken/ranks/o200k_base';
import { describe, expect, it } from 'vitest';
import { createTiktokenTokenizer } from '../../src/adapters/tiktokenTokenizer';

const reference = new Tiktoken(o200k_base);
// Special-token strings are plain text in a prompt, so they are encoded as text on both sides.
const exact = (s: string) => reference.encode(s, [], []).length;

describe('tiktoken tokenizer adapter', () => {
  const tokenizer = createTiktokenTokenizer();

  it('matches the encoder exactly on English, code, Thai, CJK and emoji', () => {
    const samples = [
      'Hello world, this is a test of the tokenizer.',
      'export function parseLine(input: string): Token[] {\n  return input.split(/\\s+/).map(toToken);\n}\n',
      'สวัสดีครับ ผมชื่อสมชาย ยินดีที่ได้รู้จัก',
      '日本語のテキストを数えます。中文文本也可以。한국어 텍스트',
      '😀🎉 emoji text 👍🏽 and <|endoftext|> as plain text',
    ];
    for (const s of samples) expect(tokenizer.count(s)).toBe(exact(s));
    const code = samples[1]!.repeat(300);
    expect(tokenizer.count(code)).toBe(exact(code));
  });

  it('stays within 2% of the encoder on long unbroken runs (Thai prose, base64)', () => {
    const thai = 'สวัสดีครับผมชื่อสมชายยินดีที่ได้รู้จักคุณมากครับวันนี้อากาศดีมาก'.repeat(10);
    const b64 = randomBytes(6_000).toString('base64');
    for (const s of [thai, b64]) expect(Math.abs(tokenizer.count(s) - exact(s)) / exact(s)).toBeLessThan(0.02);
  });

  it('is linear on pathological input: 5 MB without a space, 5 MB of base64, 3 MB of spaces', () => {
    // A quadratic path would take minutes here; the suite's timeout is 60 s.
    expect(tokenizer.count('a'.repeat(5_000_000))).toBeGreaterThan(100_000);
    expect(tokenizer.count(randomBytes(3_750_000).toString('base64'))).toBeGreaterThan(1_000_000);
    expect(tokenizer.count(`${' '.repeat(3_000_000)}x`)).toBeGreaterThan(0);
  });

  it('is deterministic and cached by content: texts alike in length and start never share a cached count', () => {
    const text = 'const x = compute(1, 2);\n'.repeat(1000);
    const first = tokenizer.count(text);
    expect(createTiktokenTokenizer().count(text)).toBe(first);
    expect(tokenizer.count('')).toBe(0);
    // same length and same first 24,000 characters, different counts: a key by length or prefix would mix them up
    const twin = `${text.slice(0, -200)}${'z'.repeat(200)}`;
    expect(twin.length).toBe(text.length);
    const fresh = createTiktokenTokenizer();
    expect(tokenizer.count(twin)).toBe(fresh.count(twin));
    expect(tokenizer.count(twin)).not.toBe(first);
    // short texts are their own key: a text that starts like a cached one is counted on its own
    expect(tokenizer.count('hello world')).toBe(2);
    expect(tokenizer.count('hello worldwide-web')).toBe(fresh.count('hello worldwide-web'));
    // a tiny cache evicts and recounts: the count after eviction is the same
    const small = createTiktokenTokenizer({ cacheEntries: 2 });
    const counts = [text, twin, 'a b c', 'd e f', text].map((t) => small.count(t));
    expect(counts).toEqual([first, fresh.count(twin), fresh.count('a b c'), fresh.count('d e f'), first]);
  });

  it('learns a correction factor from reported usage, clamped to [0.5, 2.5], and says when it has', () => {
    const t = createTiktokenTokenizer();
    const text = 'word '.repeat(1000);
    const raw = t.count(text);
    expect(t.learned()).toBe(false);
    t.observe(0, 10);
    t.observe(10, -1);
    t.observe(Number.NaN, 10);
    expect(t.learned()).toBe(false);
    expect(t.factor()).toBe(1);
    t.observe(1000, 1200);
    expect(t.learned()).toBe(true);
    for (let i = 0; i < 50; i++) t.observe(1000, 1200);
    expect(t.factor()).toBeCloseTo(1.2, 2);
    expect(t.count(text)).toBe(Math.ceil(raw * t.factor()));
    for (let i = 0; i < 200; i++) t.observe(100, 100_000);
    expect(t.factor()).toBeLessThanOrEqual(2.5);
    t.observe(0, 10);
    t.observe(10, -1);
    expect(t.factor()).toBeLessThanOrEqual(2.5);
  });
});
