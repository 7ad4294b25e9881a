import { closeSync, writeSync } from 'node:fs';
import { openPrivateFile } from './privateFiles';

/** Appends one JSON value per line to a file, synchronously (the replay dump: it holds whole requests, so 0600). */
export class JsonlWriter {
  private readonly fd: number;

  constructor(readonly path: string) {
    try {
      this.fd = openPrivateFile(path, 'w');
    } catch (error) {
      throw new Error(`Cannot write the dump file ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}. Check the folder exists and is writable.`);
    }
  }

  write(value: unknown): void {
    writeSync(this.fd, `${JSON.stringify(value)}\n`);
  }

  close(): void {
    closeSync(this.fd);
  }
}
