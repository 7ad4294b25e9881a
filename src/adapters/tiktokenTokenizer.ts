import { createHash } from 'node:crypto';
import { Tiktoken } from 'js-tiktoken/lite';
import o200k_base from 'js-tiktoken/ranks/o200k_base';
import type { Tokenizer } from '../engine/ports';

/** Text is encoded in chunks of about this many characters, cut where whitespace starts. */
const CHUNK_CHARS = 2_048;
/** Runs without whitespace are cut this short: BPE merging is quadratic in the piece length. */
const MAX_RUN_CHARS = 48;
/** Of a run without whitespace, this many characters are encoded; the rest is extrapolated. */
const RUN_SAMPLE_CHARS = 1_536;
/** Texts shorter than this are their own cache key; longer ones are keyed by a SHA-1. */
const HASH_FROM_CHARS = 128;
const FACTOR_MIN = 0.5;
const FACTOR_MAX = 2.5;
/** Weight of the newest observation in the correction factor's moving average. */
const FACTOR_ALPHA = 0.2;

/**
 * Counts tokens with js-tiktoken's o200k_base (Claude's own tokenizer is not public), scaled by
 * a correction factor learned from the usage the API reports. Linear on any input, cached by
 * content, and exact on code-point boundaries (CJK, Thai, emoji).
 */
export function createTiktokenTokenizer(options: { cacheEntries?: number } = {}): Tokenizer & { rawCount(text: string): number; factor(): number } {
  const encoder = new Tiktoken(o200k_base);
  const capacity = options.cacheEntries ?? 20_000;
  const cache = new Map<string, number>();
  let factor = 1;

  const rawCount = (text: string): number => {
    if (text.length === 0) return 0;
    const key = text.length < HASH_FROM_CHARS ? text : createHash('sha1').update(text).digest('base64');
    const hit = cache.get(key);
    if (hit !== undefined) {
      cache.delete(key);
      cache.set(key, hit);
      return hit;
    }
    const total = countPieces(text, (piece) => encoder.encode(piece, 'all').length);
    cache.set(key, total);
    if (cache.size > capacity) cache.delete(cache.keys().next().value as string);
    return total;
  };

  return {
    rawCount,
    factor: () => factor,
    count: (text) => (factor === 1 ? rawCount(text) : Math.ceil(rawCount(text) * factor)),
    observe: (estimated, reported) => {
      if (!(estimated > 0) || !(reported > 0)) return;
      const ratio = Math.min(FACTOR_MAX, Math.max(FACTOR_MIN, reported / estimated));
      factor = Math.min(FACTOR_MAX, Math.max(FACTOR_MIN, factor + FACTOR_ALPHA * (ratio - factor)));
    },
  };
}

/**
 * Sums token counts over pieces: text is cut into ~2 KB chunks just before whitespace; a run
 * with no whitespace is cut into 48-character pieces, and past its first `RUN_SAMPLE_CHARS`
 * the rest of the run is extrapolated from the sampled rate (base64, minified code, Thai).
 */
export function countPieces(text: string, encodedLength: (piece: string) => number): number {
  let total = 0;
  let start = 0;
  let runStart = 0;
  let i = 0;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    if (code === 32 || code === 10 || code === 9 || code === 13) {
      runStart = i + 1;
      if (i - start >= CHUNK_CHARS) {
        total += encodedLength(text.slice(start, i));
        start = i;
      }
      i += 1;
      continue;
    }
    if (i - runStart < MAX_RUN_CHARS) {
      i += 1;
      continue;
    }
    // A long run without whitespace: flush what precedes it, then sample the run.
    if (runStart > start) total += encodedLength(text.slice(start, runStart));
    let runEnd = runStart;
    while (runEnd < text.length && !isSpace(text.charCodeAt(runEnd))) runEnd += 1;
    total += countRun(text, runStart, runEnd, encodedLength);
    start = runEnd;
    runStart = runEnd;
    i = runEnd;
  }
  if (start < text.length) total += encodedLength(text.slice(start));
  return total;
}

function countRun(text: string, from: number, to: number, encodedLength: (piece: string) => number): number {
  let tokens = 0;
  let at = from;
  const sampleEnd = Math.min(to, from + RUN_SAMPLE_CHARS);
  while (at < sampleEnd) {
    let cut = Math.min(sampleEnd, at + MAX_RUN_CHARS);
    if (cut < to && isLowSurrogate(text.charCodeAt(cut))) cut += 1;
    tokens += encodedLength(text.slice(at, cut));
    at = cut;
  }
  if (at >= to) return tokens;
  return tokens + Math.ceil(((to - at) * tokens) / (at - from));
}

function isSpace(code: number): boolean {
  return code === 32 || code === 10 || code === 9 || code === 13;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
