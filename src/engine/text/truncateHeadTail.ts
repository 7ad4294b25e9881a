/**
 * Keeps the first and last lines of a long text, about half each, with one line saying how
 * many were cut in between. Texts of at most `maxLines` lines come back unchanged. Linear.
 */
export function truncateHeadTail(text: string, maxLines: number): { text: string; cutLines: number } {
  const limit = Math.max(2, Math.floor(maxLines));
  const all = text.split('\n');
  if (all.length <= limit) return { text, cutLines: 0 };
  const head = Math.ceil((limit - 1) / 2);
  const tail = limit - 1 - head;
  const cutLines = all.length - head - tail;
  const kept = [...all.slice(0, head), `[… ${cutLines} lines cut …]`, ...all.slice(all.length - tail)];
  return { text: kept.join('\n'), cutLines };
}

/** The same on characters, for single enormous lines; never splits a surrogate pair. */
export function truncateChars(text: string, maxChars: number): { text: string; cutChars: number } {
  if (text.length <= maxChars) return { text, cutChars: 0 };
  const half = Math.max(1, Math.floor((maxChars - 40) / 2));
  let headEnd = half;
  if (isHighSurrogate(text.charCodeAt(headEnd - 1))) headEnd -= 1;
  let tailStart = text.length - half;
  if (isLowSurrogate(text.charCodeAt(tailStart))) tailStart += 1;
  const cutChars = tailStart - headEnd;
  return { text: `${text.slice(0, headEnd)}\n[… ${cutChars} chars cut …]\n${text.slice(tailStart)}`, cutChars };
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
