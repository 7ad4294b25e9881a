import * as vscode from 'vscode';
import { GitignoreMatcher } from '../adapters/gitignoreMatcher';
import { NodeWorkspace } from '../adapters/nodeWorkspace';
import { MENTION_LIST_MAX, mentionItems, type MentionItem } from '../shared/mentionItems';

/** Files one query asks `findFiles` for at most; the list shows the best few of them. */
const FIND_MAX_FILES = 400;

/** One matcher per workspace root: it caches each folder's rules until its .gitignore changes. */
const matchers = new Map<string, GitignoreMatcher>();

/**
 * Answers the `@`-mention list: workspace files whose path contains `query` (any case), found
 * by `vscode.workspace.findFiles` with `files.exclude` and `search.exclude` applied (so
 * node_modules and what the user hid stay out), ranked by `mentionItems`, then without what
 * `.gitignore` / `.strataignore` exclude (as search does while `search.useIgnoreFiles` is on).
 * Only the best entries are tested against the ignore rules, until the list is full.
 */
export async function searchMentions(query: string, token?: vscode.CancellationToken): Promise<MentionItem[]> {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) return mentionItems(query, []);
  const q = query.replace(/^\//, '');
  const include = new vscode.RelativePattern(folder, q === '' ? '**/*' : `{**/*${caseless(q)}*,**/*${caseless(q)}*/**}`);
  const uris = await vscode.workspace.findFiles(include, excludeGlob(folder), FIND_MAX_FILES, token);
  const paths = uris.map((uri) => vscode.workspace.asRelativePath(uri, false));
  const ranked = mentionItems(q, paths, Number.MAX_SAFE_INTEGER);
  if (vscode.workspace.getConfiguration('search', folder.uri).get<boolean>('useIgnoreFiles') === false) return ranked.slice(0, MENTION_LIST_MAX);
  const matcher = matcherFor(folder.uri.fsPath);
  const kept: MentionItem[] = [];
  for (const item of ranked) {
    if (kept.length >= MENTION_LIST_MAX) break;
    if (item.kind === 'file' || item.kind === 'folder') {
      if (await matcher.isIgnored(item.label.replace(/\/$/, ''), item.kind === 'folder')) continue;
    }
    kept.push(item);
  }
  return kept;
}

function matcherFor(root: string): GitignoreMatcher {
  let matcher = matchers.get(root);
  if (!matcher) {
    matcher = new GitignoreMatcher(new NodeWorkspace(root));
    matchers.set(root, matcher);
  }
  return matcher;
}

/** `files.exclude` and `search.exclude` patterns set to true, as one glob (undefined would apply only files.exclude). */
function excludeGlob(folder: vscode.WorkspaceFolder): string | undefined {
  const patterns = new Set<string>();
  for (const section of ['files.exclude', 'search.exclude']) {
    const map = vscode.workspace.getConfiguration(undefined, folder.uri).get<Record<string, unknown>>(section) ?? {};
    for (const [glob, on] of Object.entries(map)) if (on === true) patterns.add(glob);
  }
  return patterns.size === 0 ? undefined : `{${[...patterns].join(',')}}`;
}

/** `hel` -> `[hH][eE][lL]`, other glob characters escaped: findFiles matches case-sensitively on Linux. */
function caseless(text: string): string {
  return [...text]
    .map((c) => {
      if (/[a-z]/i.test(c)) return `[${c.toLowerCase()}${c.toUpperCase()}]`;
      if (/[*?[\]{}!,]/.test(c)) return `[${c}]`;
      return c;
    })
    .join('');
}
