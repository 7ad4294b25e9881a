import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ArchiveStore, Logger } from '../engine/ports';

/** The archive, or why there is none. `message` says what happened, where, and what to do. */
export type ArchiveOpenResult = { ok: true; store: ArchiveStore; message: string } | { ok: false; message: string };

/**
 * Opens the SQLite archive in the extension's global storage folder. The native driver is
 * loaded here, inside a try: desktop VS Code runs extensions on Electron, whose ABI differs
 * from Node's, so `better-sqlite3` may not load. The extension keeps working without an
 * archive and says so (a later build adds a fallback store).
 */
export async function openArchive(storageDir: string, logger: Logger): Promise<ArchiveOpenResult> {
  const path = join(storageDir, 'archive.sqlite');
  try {
    mkdirSync(storageDir, { recursive: true });
    const { openSqliteArchive } = await import('../adapters/sqliteArchiveStore');
    const store = openSqliteArchive(path);
    logger.info(`archive: ${path}`);
    return { ok: true, store, message: `Archive: ${path}` };
  } catch (error) {
    const reason = error instanceof Error ? (error.message.split('\n')[0] ?? error.message) : String(error);
    const message =
      `The archive at ${path} could not be opened (${reason}). ` +
      'Strata still works, but exchanges that leave the prompt are not stored on disk this session. ' +
      (/NODE_MODULE_VERSION|better_sqlite3|bindings|invalid ELF|was compiled against/i.test(reason)
        ? "The native SQLite module does not match this editor's runtime: install the .vsix built for your editor."
        : 'Check that the folder is writable and the file is not damaged.');
    logger.error(message);
    return { ok: false, message };
  }
}
