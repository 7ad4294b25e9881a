// ANSI CSI/OSC sequences and lone escapes; bounded quantifiers keep it linear.
const ANSI = /\u001b\[[0-9;?]{0,32}[ -/]{0,4}[@-~]|\u001b\][^\u0007\u001b]{0,512}(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]/g;
const PROGRESS_ONLY = /^[\s\[\]|#=>.\-█▏▎▍▌▋▊▉░▒▓⣿⠿*]*\d{0,3}(?:\.\d+)?%?[\s\[\]|#=>.\-█▏▎▍▌▋▊▉░▒▓⣿⠿*]*(?:\d+\/\d+)?[\s\]|]*$/;

/**
 * Tool output as a model should read it: ANSI codes removed, carriage-return overwrites
 * resolved to their last state, progress-bar lines dropped, and runs of 3+ identical lines
 * collapsed to one line and a count. Linear in the input.
 */
export function normalizeLog(text: string): string {
  const clean = text.replace(ANSI, '');
  const out: string[] = [];
  let previous: string | undefined;
  let repeats = 0;
  const flush = () => {
    if (repeats >= 2) out.push(`[… repeated ${repeats} more times]`);
    else for (let i = 0; i < repeats; i++) out.push(previous as string);
    repeats = 0;
  };
  for (const raw of clean.split('\n')) {
    // a CRLF line's own \r is no overwrite; the text after the last other \r is what shows
    const end = raw.endsWith('\r') ? raw.length - 1 : raw.length;
    const line = raw.slice(raw.lastIndexOf('\r', end - 1) + 1, end);
    if (isProgressBar(line)) continue;
    if (line === previous) {
      repeats += 1;
      continue;
    }
    flush();
    out.push(line);
    previous = line;
  }
  flush();
  return out.join('\n');
}

/** A line that is only a progress indicator (bar glyphs, a percentage, a k/n count). */
function isProgressBar(line: string): boolean {
  if (line.length < 4 || line.length > 400) return false;
  if (!/%|█|=>|#{4}|\[[=#\-. ]{4,}\]/.test(line)) return false;
  return PROGRESS_ONLY.test(line);
}
