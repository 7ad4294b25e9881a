import { chmodSync, closeSync, openSync, statSync, writeFileSync } from 'node:fs';

/**
 * Sessions hold what the user's tools printed: the archive, recordings, dumps and exports are
 * readable by their owner only. New files are created 0600; an existing one that group or others
 * may read is tightened to 0600 when Strata opens it (a file of another user is left as it is:
 * chmod would fail, and it is not ours to change).
 */
export const PRIVATE_MODE = 0o600;

/** Creates `path` empty and 0600 if it does not exist; tightens it if it does (never writes to it). */
export function ensurePrivateFile(path: string): void {
  try {
    closeSync(openSync(path, 'wx', PRIVATE_MODE));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    tighten(path);
  }
}

/** Writes `text` to `path` (created or replaced), 0600 either way. */
export function writePrivateFile(path: string, text: string): void {
  writeFileSync(path, text, { mode: PRIVATE_MODE });
  tighten(path);
}

/** Opens `path` for writing or appending (created 0600, an existing file tightened); returns the fd. */
export function openPrivateFile(path: string, flags: 'a' | 'w'): number {
  const fd = openSync(path, flags, PRIVATE_MODE);
  tighten(path);
  return fd;
}

/** Removes group and other permissions of an existing file; silent where the owner is someone else or the file is gone. */
export function tighten(path: string): void {
  try {
    const mode = statSync(path).mode & 0o777;
    if ((mode & 0o077) !== 0) chmodSync(path, mode & 0o700);
  } catch {
    // Not ours to change, or gone: the caller's own open or write reports what matters.
  }
}
