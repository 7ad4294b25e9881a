import { lstat, mkdir, open, readdir, readFile, readlink, realpath, stat, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import type { DirEntry, FileStat, Workspace } from '../task/workspacePort';

/** Symbolic links followed by hand for one path before giving up (the kernel's own limit is 40). */
const MAX_LINK_HOPS = 40;

function isMissing(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/** The `Workspace` port over node:fs, rooted at an absolute directory. */
export class NodeWorkspace implements Workspace {
  readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
  }

  private abs(rel: string): string {
    return rel === '' ? this.root : join(this.root, ...rel.split('/'));
  }

  async stat(rel: string): Promise<FileStat | undefined> {
    try {
      const s = await stat(this.abs(rel));
      return { kind: s.isFile() ? 'file' : s.isDirectory() ? 'directory' : 'other', size: s.size, mtimeMs: s.mtimeMs };
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  async exists(rel: string): Promise<boolean> {
    return (await this.stat(rel)) !== undefined;
  }

  async readBytes(rel: string, offset: number, length: number): Promise<Uint8Array> {
    const handle = await open(this.abs(rel), 'r');
    try {
      const buffer = new Uint8Array(length);
      const { bytesRead } = await handle.read(buffer, 0, length, offset);
      return buffer.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  }

  async readText(rel: string): Promise<string> {
    return readFile(this.abs(rel), 'utf8');
  }

  async listDir(rel: string): Promise<DirEntry[]> {
    const entries = await readdir(this.abs(rel), { withFileTypes: true });
    return entries
      .map((e): DirEntry => ({ name: e.name, kind: e.isSymbolicLink() ? 'symlink' : e.isDirectory() ? 'directory' : e.isFile() ? 'file' : 'other' }))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  async realpath(rel: string): Promise<string> {
    return this.realOf(this.abs(rel), 0);
  }

  /** realpath that also answers for paths that do not exist yet: where a write there would land. */
  private async realOf(path: string, hops: number): Promise<string> {
    try {
      return await realpath(path);
    } catch (error) {
      if (!isMissing(error) && (error as { code?: unknown }).code !== 'ELOOP') throw error;
    }
    if (hops >= MAX_LINK_HOPS) return path;
    const link = await lstat(path).catch(() => undefined);
    if (link?.isSymbolicLink()) {
      const target = await readlink(path);
      return this.realOf(isAbsolute(target) ? target : join(dirname(path), target), hops + 1);
    }
    const parent = dirname(path);
    if (parent === path) return path;
    return join(await this.realOf(parent, hops), path.slice(parent.length).replace(/^[\\/]+/, ''));
  }

  async writeText(rel: string, text: string): Promise<void> {
    const path = this.abs(rel);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, text, 'utf8');
  }
}
