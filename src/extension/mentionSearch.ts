import * as vscode from 'vscode';
import { mentionItems, type MentionItem } from '../shared/mentionItems';

/** Files one query asks `findFiles` for at most; the list shows the best few of them. */
const FIND_MAX_FILES = 400;

/**
 * Answers the `@`-mention list: workspace files whose path contains `query` (any case), found
 * by `vscode.workspace.findFiles` with `files.exclude` and `search.exclude` applied (so
 * node_modules and what the user hid stay out), ranked by `mentionItems`.
 */
export async function searchMentions(query: string, token?: vscode.CancellationToken): Promise<MentionItem[]> {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) return mentionItems(query, []);
  const q = query.replace(/^\//, '');
  const include = new vscode.RelativePattern(folder, q === '' ? '**/*' : `{**/*${caseless(q)}*,**/*${caseless(q)}*/**}`);
  const uris = await vscode.workspace.findFiles(include, excludeGlob(folder), FIND_MAX_FILES, token);
  const paths = uris.map((uri) => vscode.workspace.asRelativePath(uri, false));
  return mentionItems(q, paths);
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
