const ELLIPSIS = '…';

/**
 * `text` cut to at most `maxTokens`: whole sentences from the start while they fit; if not
 * even one fits, the first words of each line ("key points"); last, a hard character cut found
 * by binary search. Calls `count` O(log n) times on a prefix bounded by the budget.
 */
export function trimToTokens(text: string, maxTokens: number, count: (s: string) => number): string {
  if (maxTokens <= 0) return '';
  // Only this window is ever counted: a text longer than 8 characters a token is cut even when
  // its count would fit.
  const window = text.slice(0, Math.max(16, maxTokens * 8));
  if (window.length === text.length && count(text) <= maxTokens) return text;
  const sentences = splitSentences(window);
  if (sentences.length > 1 || window.length < text.length) {
    const fitted = longestFitting(sentences, (k) => `${sentences.slice(0, k).join('').trimEnd()} ${ELLIPSIS}`, maxTokens, count);
    if (fitted) return fitted;
  }
  const points = window
    .split('\n')
    .map((l) => l.trim().split(/\s+/).slice(0, 6).join(' '))
    .filter((l) => l.length > 0);
  if (points.length > 1) {
    const fitted = longestFitting(points, (k) => `${points.slice(0, k).join('; ')} ${ELLIPSIS}`, maxTokens, count);
    if (fitted) return fitted;
  }
  return hardCut(window, maxTokens, count);
}

/**
 * Sentences with their trailing separator kept, so joining them restores the text. The
 * separator matches only between two characters, so no part is empty.
 */
function splitSentences(text: string): string[] {
  return text.split(/(?<=[.!?])(?=\s)|(?<=\n)/);
}

/** The largest k >= 1 for which render(k) fits, by binary search; undefined when none does. */
function longestFitting(items: string[], render: (k: number) => string, maxTokens: number, count: (s: string) => number): string | undefined {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (count(render(mid)) <= maxTokens) lo = mid;
    else hi = mid - 1;
  }
  return lo >= 1 ? render(lo) : undefined;
}

function hardCut(text: string, maxTokens: number, count: (s: string) => number): string {
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (count(`${safeSlice(text, mid)}${ELLIPSIS}`) <= maxTokens) lo = mid;
    else hi = mid - 1;
  }
  if (lo === 0) return count(ELLIPSIS) <= maxTokens ? ELLIPSIS : '';
  return `${safeSlice(text, lo)}${ELLIPSIS}`;
}

function safeSlice(text: string, end: number): string {
  const code = text.charCodeAt(end - 1);
  return code >= 0xd800 && code <= 0xdbff ? text.slice(0, end - 1) : text.slice(0, end);
}
