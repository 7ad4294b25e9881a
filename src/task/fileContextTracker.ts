import type { FileStat, Workspace } from './workspacePort';

/** What the model last saw of a file, and how. */
export interface TrackedFile {
  path: string;
  /** `read`: the model read it; `edit`: our own write or edit, whose result the model knows. */
  lastAction: 'read' | 'edit';
  mtimeMs: number;
  /** Bytes. */
  size: number;
  /** FNV-1a of the text, when the whole text was seen (lets a touch without a change pass as fresh). */
  hash?: number;
  reads: number;
  edits: number;
}

export interface StaleFile {
  path: string;
  reason: 'changed' | 'deleted';
}

/** Bytes above which a changed file is not re-read to compare hashes: a new mtime then means stale. */
const HASH_MAX_BYTES = 4 * 1024 * 1024;

/** 32-bit FNV-1a over UTF-16 code units: cheap, deterministic, enough to tell "same text" after an mtime change. */
export function textHash(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

/**
 * Records every read and edit of the Task's tools, so the loop can tell the model when a file
 * it read changed on disk behind its back (the user edited it, a formatter ran) and supersede
 * the stale read in the engine. Our own writes move the baseline, so they never count as stale.
 */
export class FileContextTracker {
  private readonly files = new Map<string, TrackedFile>();

  constructor(private readonly workspace: Workspace) {}

  /** The model read `path` as it was at `stat`; `text` is given when it saw the whole file. */
  recordRead(path: string, stat: FileStat, text?: string): void {
    this.record(path, 'read', stat, text);
  }

  /** Our own tool wrote `text` to `path`, which now has `stat`. */
  recordEdit(path: string, stat: FileStat, text: string): void {
    this.record(path, 'edit', stat, text);
  }

  /** Stop tracking `path` (the loop told the model and superseded the read). A new read tracks it again. */
  forget(path: string): void {
    this.files.delete(path);
  }

  tracked(): TrackedFile[] {
    return [...this.files.values()].map((f) => ({ ...f }));
  }

  /** Files changed or deleted on disk since the model last read or edited them, sorted by path. */
  async staleFiles(): Promise<StaleFile[]> {
    const stale: StaleFile[] = [];
    for (const file of [...this.files.values()].sort((a, b) => (a.path < b.path ? -1 : 1))) {
      const now = await this.workspace.stat(file.path);
      if (!now || now.kind !== 'file') {
        stale.push({ path: file.path, reason: 'deleted' });
        continue;
      }
      if (now.mtimeMs === file.mtimeMs && now.size === file.size) continue;
      if (file.hash !== undefined && now.size === file.size && now.size <= HASH_MAX_BYTES) {
        if (textHash(await this.workspace.readText(file.path)) === file.hash) {
          file.mtimeMs = now.mtimeMs; // touched, not changed
          continue;
        }
      }
      stale.push({ path: file.path, reason: 'changed' });
    }
    return stale;
  }

  private record(path: string, action: 'read' | 'edit', stat: FileStat, text: string | undefined): void {
    const previous = this.files.get(path);
    const entry: TrackedFile = {
      path,
      lastAction: action,
      mtimeMs: stat.mtimeMs,
      size: stat.size,
      reads: (previous?.reads ?? 0) + (action === 'read' ? 1 : 0),
      edits: (previous?.edits ?? 0) + (action === 'edit' ? 1 : 0),
    };
    if (text !== undefined) entry.hash = textHash(text);
    this.files.set(path, entry);
  }
}
