/**
 * Text from the model (or from a tool it ran) made safe to print in a terminal: control
 * characters that move the cursor, erase or recolour (ESC sequences, CR, backspace, the rest of
 * C0 and C1, DEL) and bidirectional overrides that reorder what is shown (U+202A-202E,
 * U+2066-2069, plus the marks U+200E, U+200F, U+061C) are shown as escapes (`\x1b`, `\r`,
 * `\u202e`) instead of acting. So what a terminal shows is what the text holds.
 */

/** `prose` keeps line breaks and tabs (the model's answer); `line` escapes them too (one prompt line). */
export type TerminalTextMode = 'prose' | 'line';

const NAMED: Readonly<Record<string, string>> = { '\r': '\\r', '\b': '\\b', '\n': '\\n', '\t': '\\t', '\f': '\\f', '\v': '\\v', '\0': '\\0' };

// C0 (0x00-0x1f), DEL, C1 (0x80-0x9f), the bidi embeddings/overrides/isolates and marks.
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

export function terminalText(text: string, mode: TerminalTextMode): string {
  return text.replace(UNSAFE, (c) => {
    if (mode === 'prose' && (c === '\n' || c === '\t')) return c;
    const named = NAMED[c];
    if (named) return named;
    const code = c.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}
