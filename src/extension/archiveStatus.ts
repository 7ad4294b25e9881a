import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { openJsonlArchive } from '../adapters/jsonlArchiveStore';
import type { ArchiveBrowser } from '../engine/archiveBrowser';
import type { Logger } from '../engine/ports';
import type { SessionArchive } from '../host/openTaskSession';

/** How every chat session opens the archive: the file and the store that reads it. */
export interface ArchiveBackend {
  kind: 'sqlite' | 'jsonl';
  path: string;
  open(path: string): SessionArchive;
}

/**
 * The archive backend, or why there is none. `message` says what happened, where, and what to do;
 * `fallback` is set when SQLite did not load and the plain-file store stands in for it.
 */
export type ArchiveOpenResult = { ok: true; backend: ArchiveBackend; message: string; fallback?: true } | { ok: false; message: string };

/** Loads the SQLite adapter (and with it the native driver's JS; the binary loads on first open). */
export type SqliteLoader = () => Promise<(path: string) => SessionArchive>;

const loadSqlite: SqliteLoader = async () => (await import('../adapters/sqliteArchiveStore')).openSqliteArchive;

/**
 * Probes the archive in the extension's global storage folder: opens and closes it, inside a try.
 * Desktop VS Code runs extensions on Electron, whose ABI differs from Node's, so `better-sqlite3`
 * may not load ("compiled against a different Node.js version using NODE_MODULE_VERSION ...").
 * Then the JSON Lines store is used instead and the message says so; any other failure (a
 * damaged file, a folder that cannot be written) leaves no archive, and says why and where.
 */
export async function openArchive(storageDir: string, logger: Logger, sqlite: SqliteLoader = loadSqlite): Promise<ArchiveOpenResult> {
  const path = archivePathIn(storageDir);
  try {
    mkdirSync(storageDir, { recursive: true });
    const open = await sqlite();
    open(path).close();
    logger.info(`archive: ${path}`);
    return { ok: true, backend: { kind: 'sqlite', path, open }, message: `Archive: ${path}` };
  } catch (error) {
    if (isNativeModuleError(error)) return openFallback(storageDir, error, logger);
    const message = `The archive at ${path} could not be opened (${oneLine(error)}). The chat cannot start without it. ${archiveAdvice(error)}`;
    logger.error(message);
    return { ok: false, message };
  }
}

function openFallback(storageDir: string, cause: unknown, logger: Logger): ArchiveOpenResult {
  const path = fallbackArchivePathIn(storageDir);
  logger.warn(`The native SQLite module did not load: ${errorText(cause)}`);
  try {
    openJsonlArchive(path).close();
  } catch (error) {
    const message = `The archive cannot be opened: the native SQLite module does not load in this editor (${oneLine(cause)}), and the plain-file archive at ${path} failed too (${oneLine(error)}). ${archiveAdvice(error)}`;
    logger.error(message);
    return { ok: false, message };
  }
  const message =
    `The native SQLite module does not load in this editor's runtime (${oneLine(cause)}). ` +
    `Strata keeps working with a plain-file archive at ${path}: simpler word search, repeated file reads stored each time, one window at a time. ` +
    'To use SQLite, install the .vsix built for your editor (Output > Strata has the details).';
  logger.warn(message);
  return { ok: true, backend: { kind: 'jsonl', path, open: openJsonlArchive }, message, fallback: true };
}

/**
 * The archive browser's own connection to the archive (SQLite, or the plain-file fallback, which
 * reads what chat sessions append since), opened once; each chat session opens another.
 */
export function openArchiveBrowser(archive: ArchiveOpenResult, logger: Logger): { ok: true; browser: ArchiveBrowser } | { ok: false; message: string } {
  if (!archive.ok) return { ok: false, message: archive.message };
  try {
    const store = archive.backend.open(archive.backend.path);
    if (isArchiveBrowser(store)) return { ok: true, browser: store };
    store.close();
    return { ok: false, message: 'This archive store cannot be browsed.' };
  } catch (error) {
    const message = `The archive at ${archive.backend.path} could not be opened for browsing: ${error instanceof Error ? error.message : String(error)}`;
    logger.error(message);
    return { ok: false, message };
  }
}

function isArchiveBrowser(store: object): store is ArchiveBrowser {
  const s = store as Partial<Record<keyof ArchiveBrowser, unknown>>;
  return typeof s.sessions === 'function' && typeof s.exchanges === 'function' && typeof s.searchAll === 'function' && typeof s.deleteSession === 'function';
}

/** The archive file of the extension, in its global storage folder. */
export function archivePathIn(storageDir: string): string {
  return join(storageDir, 'archive.sqlite');
}

/** The plain-file archive used when SQLite does not load, beside the SQLite one. */
export function fallbackArchivePathIn(storageDir: string): string {
  return join(storageDir, 'archive.jsonl');
}

/** True when `error` says the native SQLite module could not be loaded (wrong ABI, missing binary). */
export function isNativeModuleError(error: unknown): boolean {
  return /NODE_MODULE_VERSION|better_sqlite3|better-sqlite3|bindings file|invalid ELF|was compiled against/i.test(oneLine(error));
}

/** What the user can do about an archive that did not open. */
export function archiveAdvice(error: unknown): string {
  return isNativeModuleError(error)
    ? "The native SQLite module does not load in this editor's runtime: install the .vsix built for your editor (Output > Strata has the details)."
    : 'Check that the folder is writable and the file is not damaged (Output > Strata has the details).';
}

/** Most characters of an error a user-facing message quotes; the Output channel has it whole. */
const QUOTED_CHARS = 300;

/** The error on one line, shortened: Node's ABI error spreads the module versions over five lines. */
function oneLine(error: unknown): string {
  const text = errorText(error).replace(/\s+/g, ' ').trim();
  return text.length > QUOTED_CHARS ? `${text.slice(0, QUOTED_CHARS)}…` : text;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
