/**
 * Paths whose content runs as code without a command the user approves: git, the editor, the
 * shell or CI read them and execute what they say. A write there needs the user's own yes even
 * when writes are auto-approved (`strata chat --yes` refuses it unless --allow-protected-writes).
 * Matched on workspace-relative POSIX paths, case-insensitively (macOS and Windows file systems
 * fold case), at any depth, so a nested repository or a sub-project is covered too.
 */

/** Folder names: anything at any depth below one is protected. */
const PROTECTED_FOLDERS: ReadonlyMap<string, string> = new Map([
  ['.git', 'a .git folder: git runs its hooks and the commands its config names (core.fsmonitor, core.hooksPath, aliases)'],
  ['.vscode', 'a .vscode folder: VS Code runs its tasks, launch configurations and settings such as terminal profiles'],
  ['.devcontainer', 'a .devcontainer folder: the editor runs its commands when the folder is reopened in a container'],
  ['.husky', 'a .husky folder: its git hooks run on commit and push'],
  ['.githooks', 'a .githooks folder: git hooks kept in the repository, run on commit and push'],
]);

/** File names protected wherever they are. */
const PROTECTED_FILES: ReadonlyMap<string, string> = new Map([['.envrc', '.envrc: direnv runs it in the shell on entering the folder']]);

/**
 * Why writing `rel` can run code, or `undefined` when it cannot. `.github/workflows/` is covered
 * (its jobs run in CI with the repository's secrets on the next push), as are `*.code-workspace`
 * files (they carry settings and tasks like `.vscode/`).
 */
export function protectedReason(rel: string): string | undefined {
  const parts = rel.toLowerCase().split('/').filter((p) => p !== '');
  for (const part of parts.slice(0, -1)) {
    const reason = PROTECTED_FOLDERS.get(part);
    if (reason) return `it is inside ${reason}`;
  }
  const name = parts[parts.length - 1] ?? '';
  const reason = PROTECTED_FOLDERS.get(name) ?? PROTECTED_FILES.get(name);
  if (reason) return `it is ${reason}`;
  for (let i = 0; i + 1 < parts.length - 1; i++) {
    if (parts[i] === '.github' && parts[i + 1] === 'workflows') return 'it is a GitHub Actions workflow: it runs in CI with the repository\'s secrets on the next push';
  }
  if (name.endsWith('.code-workspace')) return 'it is a VS Code workspace file: its settings and tasks run like those of .vscode/';
  return undefined;
}
