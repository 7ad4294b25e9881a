/**
 * Lexical path confinement, pure (no node:path: `src/task` imports no node module). Works on
 * POSIX roots and on Windows roots (`C:\ws`, `\\server\share`), whose paths compare
 * case-insensitively and accept either separator. Symbolic links are checked afterwards, on
 * real paths, by `confinePath`.
 */

export type PathResolution = { ok: true; rel: string } | { ok: false; reason: string };

function isWindowsRoot(root: string): boolean {
  return /^[A-Za-z]:[\\/]/.test(root) || root.startsWith('\\\\');
}

function isAbsolute(path: string, windows: boolean): boolean {
  return path.startsWith('/') || (windows && /^[A-Za-z]:\//.test(path));
}

/** Splits and folds `.` and `..`; `undefined` when `..` climbs above the first segment. */
function fold(path: string): string[] | undefined {
  const out: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (out.length === 0) return undefined;
      out.pop();
    } else out.push(part);
  }
  return out;
}

/**
 * Maps a path as the model (or the host) wrote it, relative to `root` or absolute, to a
 * workspace-relative POSIX path (`''` for the root). Refuses `..` escapes, absolute paths
 * outside the root, `~` and NUL bytes, with a reason the model can act on.
 */
export function resolveWorkspacePath(root: string, input: string): PathResolution {
  const windows = isWindowsRoot(root);
  const raw = input.trim();
  if (raw.includes('\0')) return { ok: false, reason: 'the path contains a NUL byte' };
  if (raw === '~' || raw.startsWith('~/') || raw.startsWith('~\\')) {
    return { ok: false, reason: `'~' (the home folder) is outside the workspace ${root}; use a path relative to the workspace root` };
  }
  const path = windows ? raw.replace(/\\/g, '/') : raw;
  if (!isAbsolute(path, windows)) {
    const parts = fold(path);
    if (!parts) return { ok: false, reason: `'${input}' climbs out of the workspace ${root} through '..'; use a path inside it` };
    return { ok: true, rel: parts.join('/') };
  }
  const rootParts = fold((windows ? root.replace(/\\/g, '/') : root).replace(/^\/\//, '/'));
  const pathParts = fold(path.replace(/^\/\//, '/'));
  const same = (a: string, b: string): boolean => (windows ? a.toLowerCase() === b.toLowerCase() : a === b);
  const inside =
    rootParts !== undefined &&
    pathParts !== undefined &&
    pathParts.length >= rootParts.length &&
    rootParts.every((part, i) => same(part, pathParts[i]!));
  if (!inside) return { ok: false, reason: `'${input}' is outside the workspace ${root}; use a path inside it (relative to its root)` };
  return { ok: true, rel: pathParts.slice(rootParts.length).join('/') };
}

/** The parent of a workspace-relative path (`''` for a top-level entry and for the root). */
export function parentOf(rel: string): string {
  const cut = rel.lastIndexOf('/');
  return cut < 0 ? '' : rel.slice(0, cut);
}

/** `a/b` + `c` -> `a/b/c`, with the root `''` as identity. */
export function joinRel(dir: string, name: string): string {
  return dir === '' ? name : `${dir}/${name}`;
}

/** True when `rel` is `ancestor` or lies under it (`''` contains everything). */
export function isWithin(rel: string, ancestor: string): boolean {
  return ancestor === '' || rel === ancestor || rel.startsWith(`${ancestor}/`);
}

/** How a workspace-relative path is shown to the model: `.` for the root. */
export function displayPath(rel: string): string {
  return rel === '' ? '.' : rel;
}
