import type { LiveExchange } from './liveExchange';
import type { ToolCall } from './toolOutput';
import { fileReadBy, isEditTool } from './toolOutput';
import { trimToTokens } from './text/trimToBudget';

/** Shell commands that print a file: `cat f`, `sed -n '1,80p' f`, `head -50 f`, `nl f`. */
const SHELL_VIEW = /^\s*(?:cat|head|tail|nl|sed\s+-n)\b[^|;&>]*?\s'?([\w./@+-]+\.[A-Za-z0-9]{1,8})'?\s*$/;

/** The latest view of one file: the tool output that showed it, as working memory had it. */
export interface FileView {
  path: string;
  seq: number;
  text: string;
  /** Last exchange that read or changed the file. */
  lastTouch: number;
}

/** The file a call shows, for read tools, shell commands that print a file, and edits (their result is a snippet). */
export function fileShownBy(call: ToolCall | undefined): string | undefined {
  const read = fileReadBy(call);
  if (read || !call) return read;
  const input = (call.input ?? {}) as Record<string, unknown>;
  if (isEditTool(call.name)) {
    const path = input.file_path ?? input.path;
    return typeof path === 'string' ? path : undefined;
  }
  const command = input.command;
  if (typeof command !== 'string' || command.length > 300) return undefined;
  return SHELL_VIEW.exec(command)?.[1];
}

/**
 * Remembers, per file, the newest output that showed it (updated as exchanges complete), so
 * a re-layering step can keep recently touched files visible after their exchange leaves
 * working memory. Older views of the same file are replaced, never stacked.
 */
export class FileViews {
  private readonly views = new Map<string, FileView>();

  /** Takes the views an exchange's input shows; an edit's result (a snippet) only marks its file touched. */
  observe(live: LiveExchange): void {
    for (const block of live.input) {
      if (block.type !== 'tool_result' || block.is_error) continue;
      const call = live.calls.get(block.tool_use_id);
      const path = fileShownBy(call);
      if (!path) continue;
      const known = this.views.get(path);
      if (call && isEditTool(call.name)) {
        if (known) known.lastTouch = live.seq;
        continue;
      }
      const text = typeof block.content === 'string' ? block.content : block.content.map((b) => b.text).join('\n');
      this.views.set(path, { path, seq: live.seq, text, lastTouch: live.seq });
    }
  }

  /**
   * Views shown only by exchanges at or before `foldedThrough`, touched within `horizon`
   * exchanges, newest first, within `maxTokens`. Deterministic for the same history.
   */
  render(foldedThrough: number, horizon: number, maxTokens: number, count: (s: string) => number): string {
    if (maxTokens <= 0) return '';
    const chosen: string[] = [];
    let used = 0;
    const candidates = [...this.views.values()]
      .filter((v) => v.seq <= foldedThrough && foldedThrough - v.lastTouch < horizon)
      .sort((a, b) => b.lastTouch - a.lastTouch || (a.path < b.path ? -1 : 1));
    for (const view of candidates) {
      const piece = `### ${view.path} (as shown in e${view.seq})\n${view.text}`;
      const cost = count(piece);
      if (used + cost > maxTokens) continue;
      chosen.push(piece);
      used += cost;
    }
    return trimToTokens(chosen.join('\n'), maxTokens, count);
  }
}
