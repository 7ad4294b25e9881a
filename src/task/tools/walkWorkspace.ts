import type { DirEntry, IgnoreMatcher, Workspace } from '../workspacePort';
import { joinRel } from './workspacePath';

export interface WalkEntry {
  /** Workspace-relative POSIX path. */
  path: string;
  kind: DirEntry['kind'];
}

export interface WalkOptions {
  /** Descend into sub-folders (never through symbolic links, so a walk cannot leave the workspace or loop). */
  recursive: boolean;
  /** `breadth`: top levels first (listings cut at a cap stay useful); `depth`: path order, as `rg --sort path`. */
  order: 'breadth' | 'depth';
  /** Yield ignored entries too (the user mentioned the folder). `.git/` is still skipped unless the walk starts in it. */
  includeIgnored: boolean;
  signal?: AbortSignal;
}

/**
 * Entries under the workspace-relative folder `start`, ignored ones skipped (and ignored
 * folders not entered). Folders are yielded before their contents.
 */
export async function* walkWorkspace(workspace: Workspace, ignore: IgnoreMatcher, start: string, options: WalkOptions): AsyncGenerator<WalkEntry> {
  const skipGit = !(start === '.git' || start.startsWith('.git/'));
  const queue: string[] = [start];
  while (queue.length > 0) {
    const dir = queue.shift()!;
    for (const entry of await children(workspace, ignore, dir, skipGit, options)) {
      yield entry;
      if (entry.kind !== 'directory' || !options.recursive) continue;
      if (options.order === 'breadth') queue.push(entry.path);
      else yield* walkWorkspace(workspace, ignore, entry.path, options);
    }
  }
}

/** A folder's entries minus `.git` and ignored ones; an unreadable folder has none. */
async function children(workspace: Workspace, ignore: IgnoreMatcher, dir: string, skipGit: boolean, options: WalkOptions): Promise<WalkEntry[]> {
  if (options.signal?.aborted) return [];
  const entries = await workspace.listDir(dir).catch((): DirEntry[] => []);
  const kept: WalkEntry[] = [];
  for (const entry of entries) {
    const path = joinRel(dir, entry.name);
    if (skipGit && path === '.git') continue;
    if (!options.includeIgnored && (await ignore.isIgnored(path, entry.kind === 'directory', true))) continue;
    kept.push({ path, kind: entry.kind });
  }
  return kept;
}
