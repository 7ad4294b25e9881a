/**
 * Word search for an archive without SQLite's FTS5, matching it where the engine relies on it:
 * words are runs of letters and digits (FTS5's unicode61 tokenizer), compared without case or
 * diacritics; every query word must occur; a query word holding punctuation ("foo-bar") is a
 * phrase of its words. Query syntax (quotes, NEAR, OR, *) is plain text, never an error.
 */

interface Word {
  key: string;
  start: number;
  end: number;
}

/** Words in a snippet around the first match (FTS5's snippet() is given 12). */
const SNIPPET_WORDS = 12;

function words(text: string): Word[] {
  const out: Word[] = [];
  for (const m of text.matchAll(/[\p{L}\p{N}]+/gu)) out.push({ key: fold(m[0]), start: m.index, end: m.index + m[0].length });
  return out;
}

function fold(word: string): string {
  return word.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/** The query as phrases (each a list of folded words); empty when it holds no word at all. */
export function queryPhrases(query: string): string[][] {
  return query
    .split(/\s+/)
    .map((term) => words(term).map((w) => w.key))
    .filter((phrase) => phrase.length > 0);
}

/** Start indexes (in `ws`) where `phrase` occurs. */
function occurrences(ws: Word[], phrase: string[]): number[] {
  const found: number[] = [];
  for (let i = 0; i + phrase.length <= ws.length; i++) if (phrase.every((p, j) => ws[i + j]!.key === p)) found.push(i);
  return found;
}

export interface WordMatch {
  /** Occurrences of all phrases together; higher ranks first. */
  score: number;
  /** Words around the first match, matched words in [brackets], elided ends marked with …. */
  snippet: string;
}

/**
 * Matches `phrases` against the fields of one document (header, summary, body): undefined unless
 * every phrase occurs in some field. The snippet comes from the first field with a match.
 */
export function matchDocument(fields: readonly string[], phrases: string[][]): WordMatch | undefined {
  if (phrases.length === 0) return undefined;
  const indexed = fields.map((text) => ({ text, ws: words(text) }));
  let score = 0;
  for (const phrase of phrases) {
    const n = indexed.reduce((sum, f) => sum + occurrences(f.ws, phrase).length, 0);
    if (n === 0) return undefined;
    score += n;
  }
  const field = indexed.find((f) => phrases.some((p) => occurrences(f.ws, p).length > 0))!;
  return { score, snippet: snippet(field.text, field.ws, phrases) };
}

function snippet(text: string, ws: Word[], phrases: string[][]): string {
  const hit = new Set<number>();
  for (const phrase of phrases) for (const at of occurrences(ws, phrase)) for (let j = 0; j < phrase.length; j++) hit.add(at + j);
  const first = Math.min(...hit);
  const from = Math.max(0, Math.min(first - Math.floor(SNIPPET_WORDS / 4), ws.length - SNIPPET_WORDS));
  const to = Math.min(ws.length, from + SNIPPET_WORDS);
  let out = from > 0 ? '…' : '';
  for (let i = from; i < to; i++) {
    const w = ws[i]!;
    const gap = i === from ? '' : text.slice(ws[i - 1]!.end, w.start);
    const word = text.slice(w.start, w.end);
    out += gap + (hit.has(i) ? `[${word}]` : word);
  }
  return out + (to < ws.length ? '…' : '');
}
