import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * A small key-value state kept in one JSON file, written at once (synchronously, through a
 * temporary file and a rename, so a crash leaves the old file or the new one). The shape of
 * VS Code's `Memento`: the chat's "last session" marker must survive a window reload that
 * comes a second after it was set, which an update of `workspaceState` (acknowledged later by
 * the window) did not (see sessionMemory.ts). A missing or unreadable file reads as empty.
 */
export class JsonFileState {
  private values: Record<string, unknown>;

  /** `formerPath`: where an earlier version kept this state, read when `path` does not exist yet. */
  constructor(
    private readonly path: string,
    formerPath?: string,
  ) {
    this.values = formerPath !== undefined && !existsSync(path) ? readValues(formerPath) : readValues(path);
  }

  get(key: string): unknown {
    return this.values[key];
  }

  /** Rejects (nothing changed) when the file cannot be written. */
  update(key: string, value: unknown): Promise<void> {
    const next = { ...this.values };
    if (value === undefined) delete next[key];
    else next[key] = value;
    try {
      mkdirSync(dirname(this.path), { recursive: true });
      const temporary = `${this.path}.${process.pid}.tmp`;
      writeFileSync(temporary, JSON.stringify(next));
      renameSync(temporary, this.path);
    } catch (error) {
      return Promise.reject(new Error(`${this.path} could not be written: ${error instanceof Error ? error.message : String(error)}`));
    }
    this.values = next;
    return Promise.resolve();
  }
}

function readValues(path: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
