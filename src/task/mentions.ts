import type { TextBlock } from '../shared/messages';

/**
 * Where `@`-mentions are resolved from. The front end supplies what it has: the terminal chat
 * has no diagnostics; the editor has all five. A missing source is said to the model, not thrown.
 */
export interface MentionSources {
  /** Text of a workspace file (workspace-confined by the implementation). */
  readFile?(path: string, signal?: AbortSignal): Promise<string>;
  /** A listing of a workspace folder. */
  listFolder?(path: string, signal?: AbortSignal): Promise<string>;
  /** Current diagnostics (errors and warnings) of the workspace, one per line. */
  problems?(signal?: AbortSignal): Promise<string>;
  /** `git status` and the working tree's diff. */
  gitChanges?(signal?: AbortSignal): Promise<string>;
  /** The text of a web page (the fetcher caps its size). */
  fetchUrl?(url: string, signal?: AbortSignal): Promise<string>;
}

/** One `@`-mention found in a query. */
export type Mention =
  | { kind: 'file' | 'folder'; ref: string; path: string }
  | { kind: 'problems' | 'git-changes'; ref: string }
  | { kind: 'url'; ref: string; url: string };

/** The workspace path a file or folder mention lifts ignore rules for (`docs/` -> `docs`, `/` -> `.`). */
export function mentionedPath(path: string): string {
  return path.replace(/\/$/, '') || '.';
}

/** Characters of one mention's content sent to the model; the rest is cut with a note. */
export const MENTION_MAX_CHARS = 60_000;

// A mention starts a word: `@/path`, `@problems`, `@git-changes`, `@https://…`. Trailing
// punctuation that ends a sentence is not part of it.
const MENTION = /(?<=^|\s)@(\/[^\s]+|problems\b|git-changes\b|https?:\/\/[^\s]+)/g;

/** The mentions of a query, in order, each once. */
export function findMentions(query: string): Mention[] {
  const seen = new Set<string>();
  const out: Mention[] = [];
  for (const match of query.matchAll(MENTION)) {
    const body = (match[1] ?? '').replace(/[.,;:!?)\]]+$/, '');
    const ref = `@${body}`;
    if (seen.has(ref)) continue;
    seen.add(ref);
    if (body === 'problems' || body === 'git-changes') out.push({ kind: body, ref });
    else if (/^https?:\/\//.test(body)) out.push({ kind: 'url', ref, url: body });
    else if (body.endsWith('/')) out.push({ kind: 'folder', ref, path: body.slice(1) || '.' });
    else out.push({ kind: 'file', ref, path: body.slice(1) });
  }
  return out;
}

/**
 * Resolves every mention of `query` into a text block for the user input. A mention that cannot
 * be resolved becomes a block that says why, so the model knows and nothing fails.
 */
export async function resolveMentions(query: string, sources: MentionSources, signal?: AbortSignal): Promise<TextBlock[]> {
  const blocks: TextBlock[] = [];
  for (const mention of findMentions(query)) {
    let body: string;
    try {
      body = await resolveOne(mention, sources, signal);
    } catch (error) {
      body = `(could not resolve ${mention.ref}: ${error instanceof Error ? error.message : String(error)})`;
    }
    if (body.length > MENTION_MAX_CHARS) body = `${body.slice(0, MENTION_MAX_CHARS)}\n… (cut at ${MENTION_MAX_CHARS} characters of ${body.length})`;
    blocks.push({ type: 'text', text: `<mention ref="${mention.ref}">\n${body}\n</mention>` });
  }
  return blocks;
}

async function resolveOne(mention: Mention, sources: MentionSources, signal?: AbortSignal): Promise<string> {
  const missing = (what: string) => `(${mention.ref}: this front end cannot provide ${what})`;
  switch (mention.kind) {
    case 'file':
      return sources.readFile ? sources.readFile(mention.path, signal) : missing('files');
    case 'folder':
      return sources.listFolder ? sources.listFolder(mention.path, signal) : missing('folder listings');
    case 'problems':
      return sources.problems ? (await sources.problems(signal)) || '(no problems reported)' : missing('diagnostics');
    case 'git-changes':
      return sources.gitChanges ? (await sources.gitChanges(signal)) || '(no uncommitted changes)' : missing('git changes');
    case 'url':
      return sources.fetchUrl ? sources.fetchUrl(mention.url, signal) : missing('web pages');
  }
}
