import { closeSync, openSync, readSync, statSync } from 'node:fs';

/** One complete line of the file; `n` counts from 1 at the file's start. */
export interface TailLine {
  n: number;
  text: string;
}

/**
 * Reads a file that other writers append to, from where the last read stopped: by byte offset,
 * so each read costs only what was added. Only complete lines are returned: bytes after the last
 * newline are a line still being written (or cut by a crash), left for a later read.
 */
export class LineTail {
  /** Bytes of the file consumed, always just after a newline (or 0). */
  private offset = 0;
  /** Complete lines consumed. */
  private lines = 0;

  constructor(readonly path: string) {}

  /** The complete lines added since the last read; [] when none (also when the file is missing or shrank). */
  read(): TailLine[] {
    const size = this.size();
    if (size <= this.offset) return [];
    const bytes = Buffer.alloc(size - this.offset);
    const fd = openSync(this.path, 'r');
    let got = 0;
    try {
      while (got < bytes.length) {
        const n = readSync(fd, bytes, got, bytes.length - got, this.offset + got);
        if (n === 0) break;
        got += n;
      }
    } finally {
      closeSync(fd);
    }
    // 0x0a never occurs inside a multi-byte UTF-8 character, so cutting there keeps text whole.
    const end = bytes.subarray(0, got).lastIndexOf(0x0a) + 1;
    if (end === 0) return [];
    this.offset += end;
    const texts = bytes.subarray(0, end - 1).toString('utf8').split('\n');
    const first = this.lines + 1;
    this.lines += texts.length;
    return texts.map((text, i) => ({ n: first + i, text }));
  }

  /** True when bytes follow the last complete line read (a line not finished yet, or torn). */
  pending(): boolean {
    return this.size() > this.offset;
  }

  /**
   * Counts `text` (whole lines, newline-ended), just appended by this reader's owner, as read,
   * when the file held nothing unread before it (`sizeBefore`) and nothing after it (`sizeAfter`);
   * else it is read again with whatever another writer appended around it.
   */
  skipOwn(text: string, sizeBefore: number, sizeAfter: number): void {
    const bytes = Buffer.byteLength(text);
    if (sizeBefore !== this.offset || sizeAfter !== sizeBefore + bytes || !text.endsWith('\n')) return;
    this.offset = sizeAfter;
    this.lines += text.split('\n').length - 1;
  }

  private size(): number {
    try {
      return statSync(this.path).size;
    } catch (error) {
      if ((error as { code?: string }).code === 'ENOENT') return 0;
      throw error;
    }
  }
}
