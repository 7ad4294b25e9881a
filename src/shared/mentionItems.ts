import { z } from 'zod';

/**
 * One entry of the `@`-mention list. `insert` is what replaces `@query` in the input, in the
 * form src/task/mentions.ts reads: `@/path` for a file, `@/dir/` for a folder, `@problems`,
 * `@git-changes`, `@https://…`.
 */
export const mentionItemSchema = z.object({
  kind: z.enum(['file', 'folder', 'problems', 'git-changes', 'url']),
  /** Shown in the list: the workspace path, or the special mention's name. */
  label: z.string().max(1_000),
  /** One short line beside the label. */
  detail: z.string().max(200),
  insert: z.string().min(1).max(1_100),
});
export type MentionItem = z.infer<typeof mentionItemSchema>;

/** Entries one list shows at most. */
export const MENTION_LIST_MAX = 30;

const SPECIALS: MentionItem[] = [
  { kind: 'problems', label: 'problems', detail: 'errors and warnings in the workspace', insert: '@problems' },
  { kind: 'git-changes', label: 'git-changes', detail: 'git status and the working tree diff', insert: '@git-changes' },
  { kind: 'url', label: 'https://…', detail: 'type a web address: its page text is sent', insert: '@https://' },
];

/**
 * The list for `query` (the text after `@`) from workspace-relative file paths (forward
 * slashes): special mentions whose name starts with the query, then folders and files whose
 * path contains it (case-insensitive), best first: name starts with it, then name contains it,
 * then path contains it; shorter paths first within each rank. Pure: the host calls it on what
 * `findFiles` returned, tests call it on plain arrays.
 */
export function mentionItems(query: string, paths: readonly string[], max = MENTION_LIST_MAX): MentionItem[] {
  const q = query.replace(/^\//, '').toLowerCase();
  const specials = SPECIALS.filter((s) => (s.kind === 'url' ? q.length > 0 && ('https://'.startsWith(q) || 'http://'.startsWith(q)) : s.label.startsWith(q)));
  const folders = new Set<string>();
  for (const path of paths) {
    const parts = path.split('/');
    for (let i = 1; i < parts.length; i++) folders.add(`${parts.slice(0, i).join('/')}/`);
  }
  const ranked: Array<{ item: MentionItem; rank: number }> = [];
  const consider = (path: string, kind: 'file' | 'folder') => {
    const rank = rankOf(path, q);
    if (rank === undefined) return;
    ranked.push({ rank, item: { kind, label: path, detail: kind === 'folder' ? 'folder: its listing' : 'file', insert: `@/${path}` } });
  };
  for (const folder of folders) consider(folder, 'folder');
  for (const path of new Set(paths)) consider(path, 'file');
  ranked.sort((a, b) => a.rank - b.rank || a.item.label.length - b.item.label.length || a.item.label.localeCompare(b.item.label));
  return [...specials, ...ranked.map((r) => r.item)].slice(0, max);
}

/** 0: the last name starts with q; 1: the name contains it; 2: the path does; undefined: no match. */
function rankOf(path: string, q: string): number | undefined {
  const lower = path.toLowerCase();
  const name = lower.replace(/\/$/, '').split('/').pop() ?? lower;
  if (name.startsWith(q)) return 0;
  if (name.includes(q)) return 1;
  if (lower.includes(q)) return 2;
  return undefined;
}

/**
 * The `@`-mention being typed at `caret` in `text`: the `@` starts the text or follows white
 * space, and no white space lies between it and the caret. `start` is the index of the `@`.
 */
export function mentionAtCaret(text: string, caret: number): { start: number; query: string } | undefined {
  if (caret < 0 || caret > text.length) return undefined; // no caret: the input has no focus
  const before = text.slice(0, caret);
  const match = /(?:^|\s)@([^\s@]*)$/.exec(before);
  if (!match) return undefined;
  const query = match[1] ?? '';
  return { start: caret - query.length - 1, query };
}

/** `text` with the mention at `start..caret` replaced by `insert` (plus a space, except for a URL still to type); the new caret. */
export function applyMention(text: string, start: number, caret: number, insert: string): { text: string; caret: number } {
  const tail = insert.endsWith('://') ? '' : ' ';
  const rest = text.slice(caret).replace(/^\S*/, '');
  const head = `${text.slice(0, start)}${insert}${tail}`;
  return { text: `${head}${rest.startsWith(' ') && tail ? rest.slice(1) : rest}`, caret: head.length };
}
