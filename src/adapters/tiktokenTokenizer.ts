import { createHash } from 'node:crypto';
import { Tiktoken } from 'js-tiktoken/lite';
import o200k_base from 'js-tiktoken/ranks/o200k_base';
import type { Tokenizer } from '../engine/ports';

/**
 * Texts up to this many characters are counted exactly; a longer one (a multi-megabyte log) is
 * estimated from its head and tail at their token rate, which keeps counting linear and fast.
 */
const EXACT_CHARS = 262_144;
/** Distinct pre-tokenisation pieces whose counts are remembered. */
const MAX_MEMO_PIECES = 200_000;
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
export function createTiktokenTokenizer(options: { cacheEntries?: number; learnedFactor?: number } = {}): Tokenizer & { rawCount(text: string): number; factor(): number } {
  const encoder = new Tiktoken(o200k_base);
  const pattern = new RegExp(o200k_base.pat_str, 'gu');
  const memo = new Map<string, number>();
  // Special-token strings (<|endoftext|>) are plain text in a prompt: no special handling.
  const encodedLength = (piece: string): number => encoder.encode(piece, [], []).length;
  const capacity = options.cacheEntries ?? 20_000;
  const cache = new Map<string, number>();
  // A factor learned in an earlier session of the same model (kept in the archive) starts calibrated.
  const restored = options.learnedFactor !== undefined && options.learnedFactor >= FACTOR_MIN && options.learnedFactor <= FACTOR_MAX;
  let factor = restored ? (options.learnedFactor as number) : 1;
  let learned = restored;

  const rawCount = (text: string): number => {
    if (text.length === 0) return 0;
    const key = text.length < HASH_FROM_CHARS ? text : createHash('sha1').update(text).digest('base64');
    const hit = cache.get(key);
    if (hit !== undefined) {
      cache.delete(key);
      cache.set(key, hit);
      return hit;
    }
    const total =
      text.length <= EXACT_CHARS
        ? countPieces(text, pattern, memo, encodedLength)
        : Math.ceil(
            ((countPieces(text.slice(0, EXACT_CHARS / 2), pattern, memo, encodedLength) + countPieces(text.slice(-EXACT_CHARS / 2), pattern, memo, encodedLength)) * text.length) /
              EXACT_CHARS,
          );
    cache.set(key, total);
    if (cache.size > capacity) cache.delete(cache.keys().next().value as string);
    return total;
  };

  return {
    rawCount,
    factor: () => factor,
    learned: () => learned,
    count: (text) => (factor === 1 ? rawCount(text) : Math.ceil(rawCount(text) * factor)),
    observe: (estimated, reported) => {
      if (!(estimated > 0) || !(reported > 0)) return;
      const ratio = Math.min(FACTOR_MAX, Math.max(FACTOR_MIN, reported / estimated));
      factor = Math.min(FACTOR_MAX, Math.max(FACTOR_MIN, factor + FACTOR_ALPHA * (ratio - factor)));
      learned = true;
    },
  };
}

/** Per text, pieces unseen before are encoded one by one (and remembered) up to this many. */
const MAX_SINGLE_MISSES = 2_000;
/** Past that, unseen pieces are encoded in contiguous batches of about this many characters. */
const BATCH_CHARS = 4_096;

/**
 * Sums token counts over the encoder's own pre-tokenisation pieces, memoising each distinct
 * piece. Text full of never-seen pieces (random ids, base64) switches to encoding contiguous
 * batches, which keeps the per-call cost of the encoder from dominating. A piece longer than 48
 * characters (a run with no break, as in base64, minified code or Thai) is cut into 48-character
 * parts, and past its first `RUN_SAMPLE_CHARS` the rest is extrapolated: BPE is quadratic in a piece.
 */
export function countPieces(text: string, pattern: RegExp, memo: Map<string, number>, encodedLength: (s: string) => number): number {
  let total = 0;
  let misses = 0;
  let batch = '';
  const flush = () => {
    if (batch) total += encodedLength(batch);
    batch = '';
  };
  const one = (piece: string): number => {
    const known = memo.get(piece);
    if (known !== undefined) return known;
    const n = encodedLength(piece);
    if (memo.size >= MAX_MEMO_PIECES) memo.clear();
    memo.set(piece, n);
    return n;
  };
  pattern.lastIndex = 0;
  for (const match of text.matchAll(pattern)) {
    const piece = match[0];
    if (piece.length > MAX_RUN_CHARS) {
      flush();
      total += countRun(piece, one);
      continue;
    }
    const known = memo.get(piece);
    if (known !== undefined) {
      flush();
      total += known;
    } else if (misses < MAX_SINGLE_MISSES) {
      misses += 1;
      flush();
      total += one(piece);
    } else {
      batch += piece;
      if (batch.length >= BATCH_CHARS) flush();
    }
  }
  flush();
  return total;
}

function countRun(run: string, pieceCount: (piece: string) => number): number {
  let tokens = 0;
  let at = 0;
  const sampleEnd = Math.min(run.length, RUN_SAMPLE_CHARS);
  while (at < sampleEnd) {
    let cut = Math.min(sampleEnd, at + MAX_RUN_CHARS);
    if (cut < run.length && isLowSurrogate(run.charCodeAt(cut))) cut += 1;
    tokens += pieceCount(run.slice(at, cut));
    at = cut;
  }
  if (at >= run.length) return tokens;
  return tokens + Math.ceil(((run.length - at) * tokens) / at);
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
