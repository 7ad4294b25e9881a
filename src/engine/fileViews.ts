import type { LiveExchange } from './liveExchange';
import type { ToolCall } from './toolOutput';
import { fileEditedBy, fileReadBy, isEditCall, shellCommandOf } from './toolOutput';
import { trimToTokens } from './text/trimToBudget';
import type { Replacement } from './editReplacements';
import { applyReplacements, editReplacements } from './editReplacements';

/** A file operand: a path with an extension, optionally quoted. */
const FILE_OPERAND = /^'?"?([\w./@+-]+\.[A-Za-z0-9]{1,8})'?"?$/;
/** Programs that print (part of) a file named on their command line. */
const PRINTERS = new Set(['cat', 'head', 'tail', 'nl', 'sed', 'grep', 'awk']);
/** Programs that only narrow what the previous stage printed. */
const FILTERS = new Set(['grep', 'head', 'tail', 'sed', 'nl', 'cut', 'awk']);
/** Fragments kept per file: the newest partial views; a whole view replaces them all. */
const MAX_FRAGMENTS = 6;

/** What one call showed of a file: all of it (a plain read) or a part (a range, a grep, an edit's snippet). */
export interface ShownFile {
  path: string;
  whole: boolean;
}

/** One output that showed (part of) a file, as working memory had it. */
export interface FileFragment {
  seq: number;
  text: string;
  /** The last edit made to this text since it was shown (the view followed it), when one was. */
  editedIn?: number;
}

/** The views of one file: its newest fragments, oldest first. */
export interface FileView {
  path: string;
  fragments: FileFragment[];
  /** Last exchange that read or changed the file. */
  lastTouch: number;
  /** The file changed after views it had: the newest view dropped as stale, and where the change was seen. */
  changed?: FileChange;
}

/** A change that made earlier views of a file stale. */
export interface FileChange {
  /** Newest exchange whose view of the file the change superseded. */
  shownIn: number;
  /** Exchange whose input carried the change (an edit's result, or a change seen on disk). */
  changedIn: number;
  how: 'edited' | 'changed on disk';
}

/** A path as tools and the file tracker name it, for comparing: `./src/a.ts` is `src/a.ts`. */
export function samePath(path: string): string {
  return path.replace(/^(\.\/)+/, '');
}

/** Turns a path as a tool or the front end names it into the key its views and reads are compared by. */
export type PathKey = (path: string) => string;

/**
 * The key of paths in a workspace at `root` (absolute, as the front end's tools resolve paths):
 * `<root>/src/a.ts`, `./src/a.ts` and `src/a.ts` are one file. A Windows root (`C:\\w`) also
 * matches either separator and any drive-letter case. Without a root only `./` is dropped.
 */
export function pathKeyFor(root?: string): PathKey {
  if (!root) return samePath;
  const windows = /^[A-Za-z]:[\\/]/.test(root);
  const norm = (p: string) => (windows ? p.replace(/\\/g, '/').replace(/^[a-z]:/, (d) => d.toUpperCase()) : p);
  const prefix = `${norm(root).replace(/\/+$/, '')}/`;
  return (path) => {
    const p = norm(path);
    return samePath(p.startsWith(prefix) ? p.slice(prefix.length) : p);
  };
}

/** The file a call shows, for read tools, shell commands that print a file, and edits (their result is a snippet). */
export function fileShownBy(call: ToolCall | undefined): string | undefined {
  return fileShownPart(call)?.path;
}

/**
 * The file a call shows and whether whole: read tools (partial with an offset or limit), edits
 * (their result is a snippet), and shell pipelines whose first stage prints one file (`cat f`,
 * `sed -n '1,80p' f`, `grep -n x f`, `cat f | grep -n -A30 x`) and whose other stages only filter.
 */
export function fileShownPart(call: ToolCall | undefined): ShownFile | undefined {
  if (!call) return undefined;
  const input = (call.input ?? {}) as Record<string, unknown>;
  const read = fileReadBy(call);
  if (read) return { path: read, whole: input.offset === undefined && input.limit === undefined && input.view_range === undefined };
  if (isEditCall(call)) {
    const path = fileEditedBy(call);
    return path === undefined ? undefined : { path, whole: false };
  }
  const command = shellCommandOf(call);
  return typeof command === 'string' && command.length <= 300 && !command.includes('\n') ? shellView(command) : undefined;
}

function shellView(command: string): ShownFile | undefined {
  // `cd dir && cat f`: only the last command counts; anything that writes or runs more is not a view
  const last = command.split('&&').map((c) => c.trim());
  if (last.slice(0, -1).some((c) => !/^cd\s/.test(c))) return undefined;
  const line = last[last.length - 1]!;
  if (/[;>`]|\$\(|<</.test(line)) return undefined;
  const stages = line.split('|').map((st) => st.trim().split(/\s+/));
  const [first, ...rest] = stages;
  // a program's name has no extension: only its arguments can be file operands
  if (!first || !PRINTERS.has(first[0] ?? '') || rest.some((st) => !FILTERS.has(st[0] ?? '') || st.some((w) => FILE_OPERAND.test(w) && !w.startsWith('-')))) return undefined;
  if (first[0] === 'sed' && first[1] !== '-n') return undefined;
  if (first[0] === 'grep' && first.some((w) => /^-\w*[rR]/.test(w))) return undefined;
  const operands = first.filter((w) => !w.startsWith('-') && FILE_OPERAND.test(w));
  const path = operands[operands.length - 1];
  if (!path || (first[0] === 'grep' && operands.length > 1)) return undefined;
  const whole = rest.length === 0 && (first[0] === 'cat' || first[0] === 'nl') && first.slice(1, -1).every((w) => w === '-n');
  return { path: FILE_OPERAND.exec(path)![1]!, whole };
}

/**
 * Remembers, per file, what the session was shown of it (updated as exchanges complete), so a
 * re-layering step can keep recently used files visible after their exchange leaves working
 * memory. A whole view replaces the file's older fragments; a partial one (a range, a grep, an
 * edit's snippet) joins them, newest kept, duplicates and fragments it contains dropped. An edit
 * whose replaced text a view holds is made in the view, which stays current (issue 19: long
 * sessions quote a file read and edited a hundred exchanges earlier); any other edit makes the
 * views stale.
 */
export class FileViews {
  private readonly views = new Map<string, FileView>();

  constructor(private readonly key: PathKey = samePath) {}

  /** An independent copy (a resend checkpoint): observing in one never changes the other. */
  clone(): FileViews {
    const copy = new FileViews(this.key);
    for (const [path, view] of this.views) copy.views.set(path, { ...view, fragments: [...view.fragments] });
    return copy;
  }

  /**
   * Takes the views an exchange's input shows; an edit's result shows the changed lines. A file
   * edited here, or named in `live.changedFiles` (changed on disk), loses its older views: they
   * no longer show the file as it is, and a later read is never merged with them. Except an edit
   * the views can follow (`follow`): they are updated instead, and its snippet adds nothing.
   */
  observe(live: LiveExchange): void {
    for (const path of live.changedFiles ?? []) this.supersede(this.key(path), live.seq, 'changed on disk');
    for (const block of live.input) {
      if (block.type !== 'tool_result' || block.is_error) continue;
      const call = live.calls.get(block.tool_use_id);
      const shown = fileShownPart(call);
      if (!shown) continue;
      const path = this.key(shown.path);
      const text = typeof block.content === 'string' ? block.content : block.content.map((b) => b.text).join('\n');
      const edit = call !== undefined && isEditCall(call);
      const followed = edit && this.follow(path, live.seq, editReplacements(call));
      if (edit && !followed) this.supersede(path, live.seq, 'edited');
      const view = this.views.get(path) ?? { path, fragments: [], lastTouch: live.seq };
      view.lastTouch = live.seq;
      this.views.set(path, view);
      // an edit that says only "done" shows nothing of the file; a followed one is in the views already
      if (edit && (followed || !text.includes('\n'))) continue;
      if (shown.whole) {
        view.fragments = [{ seq: live.seq, text }];
        delete view.changed;
      } else view.fragments = [...view.fragments.filter((f) => !text.includes(f.text)), { seq: live.seq, text }].slice(-MAX_FRAGMENTS);
    }
  }

  /**
   * Fragments shown only by exchanges at or before `foldedThrough`, of files touched within
   * `horizon` exchanges, most recently touched file first and newest fragment first, within
   * `maxTokens`. Deterministic for the same history.
   */
  render(foldedThrough: number, horizon: number, maxTokens: number, count: (s: string) => number): string {
    if (maxTokens <= 0) return '';
    const chosen: string[] = [];
    let used = 0;
    const files = [...this.views.values()]
      .filter((v) => foldedThrough - v.lastTouch < horizon)
      .sort((a, b) => b.lastTouch - a.lastTouch || (a.path < b.path ? -1 : 1));
    for (const view of files) {
      const pieces = [...view.fragments]
        .reverse()
        .filter((f) => f.seq <= foldedThrough)
        .map((f) => `### ${view.path} (as shown in e${f.seq}${f.editedIn === undefined ? '' : `, with the edits since, last in e${f.editedIn}`})\n${f.text}`);
      if (pieces.length === 0 && view.changed && view.changed.shownIn <= foldedThrough) pieces.push(stalePointer(view));
      for (const piece of pieces) {
        const cost = count(piece);
        if (used + cost > maxTokens) continue;
        chosen.push(piece);
        used += cost;
      }
    }
    return trimToTokens(chosen.join('\n'), maxTokens, count);
  }

  /**
   * Makes the edit of exchange `seq` in the views of `path`, when one of them holds a replaced
   * text: that view showed the file as the edit found it, so it shows the file as it is after.
   * Fragments holding no replaced text are kept as they were (mostly the edit was elsewhere; one
   * cut across the edited lines keeps its old part). False,
   * changing nothing, when no fragment holds any (the views cannot tell what the file became).
   */
  private follow(path: string, seq: number, replacements: readonly Replacement[]): boolean {
    const view = this.views.get(path);
    if (!view || !view.fragments.some((f) => replacements.some((r) => f.text.includes(r.from)))) return false;
    view.fragments = view.fragments.map((f) => {
      const text = applyReplacements(f.text, replacements);
      return text === f.text ? f : { ...f, text, editedIn: seq };
    });
    return true;
  }

  /** Views of `path` shown before exchange `seq` are stale: dropped, and the change remembered for a pointer. */
  private supersede(path: string, seq: number, how: FileChange['how']): void {
    const view = this.views.get(path);
    if (!view) return;
    const stale = view.fragments.filter((f) => f.seq < seq);
    if (stale.length === 0) return;
    view.changed = { shownIn: stale[stale.length - 1]!.seq, changedIn: seq, how };
    view.fragments = view.fragments.filter((f) => f.seq >= seq);
  }
}

/** The pointer left for a file whose folded views went stale and that shows nothing newer. */
function stalePointer(view: FileView): string {
  const c = view.changed!;
  return `### ${view.path}: ${c.how} in e${c.changedIn}, after the view in e${c.shownIn} (that old text: request e${c.shownIn} full; read the file again for its current text)`;
}
