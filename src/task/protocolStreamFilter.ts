/**
 * Hides the protocol blocks (`<housekeeping>…</housekeeping>`, `<context_request>…</context_request>`)
 * from streamed answer text, so they never show in a chat, not even half-streamed. The raw text
 * is kept untouched for the engine: this only decides what a user sees.
 */
const TAGS = ['housekeeping', 'context_request'] as const;
const OPENERS = TAGS.map((t) => `<${t}>`);

export class ProtocolStreamFilter {
  /** Text received but not yet shown: it may be the start of an opening tag. */
  private held = '';
  /** The closing tag being waited for while inside a block. */
  private closing: string | undefined;
  /** The block's text so far, opener included: shown after all if the block never closes. */
  private block = '';

  /** Feeds one text delta; returns the part a user may see now (possibly empty). */
  push(delta: string): string {
    let text = this.held + delta;
    this.held = '';
    let visible = '';
    while (text.length > 0) {
      if (this.closing) {
        const end = text.indexOf(this.closing);
        if (end < 0) {
          // Keep only what could be the start of the closing tag; the rest is block content.
          this.held = longestTagPrefixSuffix(text, [this.closing]);
          this.block += text.slice(0, text.length - this.held.length);
          return visible;
        }
        text = text.slice(end + this.closing.length);
        this.closing = undefined;
        this.block = '';
        continue;
      }
      const open = firstOpener(text);
      if (open) {
        visible += text.slice(0, open.index);
        this.closing = `</${open.tag}>`;
        this.block = `<${open.tag}>`;
        text = text.slice(open.index + open.tag.length + 2);
        continue;
      }
      const partial = longestTagPrefixSuffix(text, OPENERS);
      visible += text.slice(0, text.length - partial.length);
      this.held = partial;
      return visible;
    }
    return visible;
  }

  /**
   * The stream ended: whatever was held back is shown, and so is a block that never closed (an
   * unterminated tag is prose, not protocol: hiding it would hide the rest of the answer).
   */
  end(): string {
    const closing = this.closing;
    const rest = closing ? this.block + this.held : this.held;
    this.held = '';
    this.block = '';
    this.closing = undefined;
    if (!closing) return rest;
    // The opener is text; what followed it may still hold whole blocks, hidden as usual.
    const opener = closing.replace('</', '<');
    const after = new ProtocolStreamFilter();
    return opener + after.push(rest.slice(opener.length)) + after.end();
  }
}

/** The answer text with every complete protocol block removed (an unterminated one stays), trimmed at the end. */
export function visibleAnswerText(text: string): string {
  const filter = new ProtocolStreamFilter();
  return (filter.push(text) + filter.end()).trimEnd();
}

function firstOpener(text: string): { index: number; tag: string } | undefined {
  let best: { index: number; tag: string } | undefined;
  for (const tag of TAGS) {
    const index = text.indexOf(`<${tag}>`);
    if (index >= 0 && (!best || index < best.index)) best = { index, tag };
  }
  return best;
}

/** The longest suffix of `text` that is a proper prefix of one of `tags` (to hold back). */
function longestTagPrefixSuffix(text: string, tags: readonly string[]): string {
  const longest = Math.max(...tags.map((t) => t.length)) - 1;
  for (let n = Math.min(longest, text.length); n > 0; n--) {
    const suffix = text.slice(text.length - n);
    if (tags.some((t) => t.startsWith(suffix))) return suffix;
  }
  return '';
}
