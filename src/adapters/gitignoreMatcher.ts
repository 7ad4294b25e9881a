import ignore from 'ignore';
import type { Ignore } from 'ignore';
import type { IgnoreMatcher, Workspace } from '../task/workspacePort';

/*
 * Why the `ignore` package rather than a matcher of our own: gitignore semantics have many
 * corners (negation, `dir/` only matching folders, anchoring by an inner slash, `**`, escapes,
 * trailing spaces) and `ignore` implements them as git does (it is what eslint and many others
 * use), with no dependencies. This is the one file that imports it.
 */

/** Rules for one directory, reloaded when an ignore file's mtime or size changes. */
interface DirRules {
  key: string;
  rules: Ignore | undefined;
}

/** Always excluded: git's own store. */
const BUILT_IN = ['.git/'];

/** `.gitignore` files at the root and in every folder, `.strataignore` at the root (after `.gitignore`, so it may override). */
export class GitignoreMatcher implements IgnoreMatcher {
  private readonly cache = new Map<string, DirRules>();

  constructor(private readonly workspace: Workspace) {}

  async isIgnored(rel: string, isDirectory: boolean, parentsClear = false): Promise<boolean> {
    if (rel === '') return false;
    const parts = rel.split('/');
    // git never re-includes a file whose folder is excluded: test each folder on the way down.
    for (let depth = parentsClear ? parts.length : 1; depth <= parts.length; depth++) {
      const last = depth === parts.length;
      if (await this.ignoredAt(parts.slice(0, depth), last ? isDirectory : true)) return true;
    }
    return false;
  }

  /** Rules of every folder above `parts` apply in order, the deepest last (as git does). */
  private async ignoredAt(parts: string[], isDirectory: boolean): Promise<boolean> {
    let ignored = false;
    for (let d = 0; d < parts.length; d++) {
      const dir = parts.slice(0, d).join('/');
      const rules = await this.rulesOf(dir);
      if (!rules) continue;
      const result = rules.test(parts.slice(d).join('/') + (isDirectory ? '/' : ''));
      if (result.ignored) ignored = true;
      else if (result.unignored) ignored = false;
    }
    return ignored;
  }

  private async rulesOf(dir: string): Promise<Ignore | undefined> {
    const files = dir === '' ? ['.gitignore', '.strataignore'] : [`${dir}/.gitignore`];
    const stats = await Promise.all(files.map((f) => this.workspace.stat(f)));
    const key = stats.map((s) => (s?.kind === 'file' ? `${s.mtimeMs}:${s.size}` : '-')).join('|');
    const cached = this.cache.get(dir);
    if (cached?.key === key) return cached.rules;
    let rules: Ignore | undefined = dir === '' ? ignore().add(BUILT_IN) : undefined;
    for (let i = 0; i < files.length; i++) {
      if (stats[i]?.kind !== 'file') continue;
      rules = (rules ?? ignore()).add(await this.workspace.readText(files[i]!));
    }
    this.cache.set(dir, { key, rules });
    return rules;
  }
}
