import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ArchiveBrowser } from '../engine/archiveBrowser';
import type { Logger } from '../engine/ports';

/** The archive, or why there is none. `message` says what happened, where, and what to do. */
export type ArchiveOpenResult = { ok: true; store: ArchiveBrowser; message: string } | { ok: false; message: string };

/**
 * Opens the SQLite archive in the extension's global storage folder. The native driver is
 * loaded here, inside a try: desktop VS Code runs extensions on Electron, whose ABI differs
 * from Node's, so `better-sqlite3` may not load. The extension then stays up and says so
 * (view, status bar, chat); the chat itself needs the archive (openTaskSession opens it).
 */
export async function openArchive(storageDir: string, logger: Logger): Promise<ArchiveOpenResult> {
  const path = archivePathIn(storageDir);
  try {
    mkdirSync(storageDir, { recursive: true });
    const { openSqliteArchive } = await import('../adapters/sqliteArchiveStore');
    const store = openSqliteArchive(path);
    logger.info(`archive: ${path}`);
    return { ok: true, store, message: `Archive: ${path}` };
  } catch (error) {
    const message = `The archive at ${path} could not be opened (${firstLine(error)}). The chat cannot start without it. ${archiveAdvice(error)}`;
    logger.error(message);
    return { ok: false, message };
  }
}

/** The archive file of the extension, in its global storage folder. */
export function archivePathIn(storageDir: string): string {
  return join(storageDir, 'archive.sqlite');
}

/** True when `error` says the native SQLite module could not be loaded (wrong ABI, missing binary). */
export function isNativeModuleError(error: unknown): boolean {
  return /NODE_MODULE_VERSION|better_sqlite3|better-sqlite3|bindings file|invalid ELF|was compiled against/i.test(firstLine(error));
}

/** What the user can do about an archive that did not open. */
export function archiveAdvice(error: unknown): string {
  return isNativeModuleError(error)
    ? "The native SQLite module does not load in this editor's runtime: install the .vsix built for your editor (Output > Strata has the details)."
    : 'Check that the folder is writable and the file is not damaged (Output > Strata has the details).';
}

function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0] ?? text;
}
