/** One search/replace block of `edit_file`. */
export interface EditBlock {
  search: string;
  replace: string;
}

/** The edited text, or one line per block that cannot be applied (then nothing is). */
export type EditOutcome = { ok: true; text: string; applied: number } | { ok: false; problems: string[] };

/** Where a block's SEARCH text sits, or why it cannot be used. */
type Located = { start: number; end: number; replace: string } | { problem: string };

/**
 * Applies search/replace blocks to `text` all-or-nothing: each SEARCH must match exactly once,
 * blocks must not overlap. With a CRLF file, the blocks' LF line breaks become CRLF. Pure: the
 * `edit_file` tool writes its result; the editor shows it as the proposed side of a diff.
 */
export function applyEditBlocks(text: string, edits: readonly EditBlock[]): EditOutcome {
  const crlf = text.includes('\r\n');
  const located = edits.map((e) => locate(text, toEol(e.search, crlf), toEol(e.replace, crlf)));
  const problems = located.flatMap((l, i) => ('problem' in l ? [`- block ${i + 1}: ${l.problem}`] : []));
  const spans = located
    .map((l, i) => ({ l, i }))
    .flatMap(({ l, i }) => ('problem' in l ? [] : [{ ...l, block: i + 1 }]))
    .sort((a, b) => a.start - b.start);
  for (let k = 1; k < spans.length; k++) {
    if (spans[k]!.start < spans[k - 1]!.end) problems.push(`- blocks ${spans[k - 1]!.block} and ${spans[k]!.block} overlap; merge them into one block.`);
  }
  if (problems.length > 0) return { ok: false, problems };
  let out = '';
  let at = 0;
  for (const s of spans) {
    out += text.slice(at, s.start) + s.replace;
    at = s.end;
  }
  return { ok: true, text: out + text.slice(at), applied: spans.length };
}

/** With a CRLF file, LF line breaks in the model's text become CRLF (models write LF). */
function toEol(s: string, crlf: boolean): string {
  return crlf ? s.replace(/\r?\n/g, '\r\n') : s;
}

function lineAt(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < index; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

function locate(text: string, search: string, replace: string): Located {
  if (search === '') return { problem: 'the search text is empty; give the exact text to replace.' };
  const hits: number[] = [];
  for (let i = text.indexOf(search); i >= 0 && hits.length < 6; i = text.indexOf(search, i + 1)) hits.push(i);
  if (hits.length === 1) return { start: hits[0]!, end: hits[0]! + search.length, replace };
  if (hits.length > 1) {
    const lines = hits.slice(0, 5).map((h) => lineAt(text, h));
    return { problem: `the search text matches ${hits.length > 5 ? 'more than 5' : hits.length} times (lines ${lines.join(', ')}); add surrounding lines so it matches once.` };
  }
  const first = search.split(/\r?\n/).find((l) => l.trim() !== '')?.trim();
  const near = first ? text.split('\n').findIndex((l) => l.includes(first)) : -1;
  const hint = near >= 0 ? ` Its first line appears at line ${near + 1}, so the rest differs (whitespace, or later lines).` : '';
  return { problem: `the search text was not found.${hint}` };
}
