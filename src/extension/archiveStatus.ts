import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { openJsonlArchive } from '../adapters/jsonlArchiveStore';
import type { SqliteDriver } from '../adapters/sqliteDriver';
import type { SqliteDriverChoice } from '../adapters/sqliteDrivers';
import { chooseSqliteDriver } from '../adapters/sqliteDrivers';
import { openSqliteArchive } from '../adapters/sqliteArchiveStore';
import type { ArchiveBrowser } from '../engine/archiveBrowser';
import type { Logger } from '../engine/ports';
import type { SessionArchive } from '../host/openTaskSession';
import { ARCHIVE_DRIVER_SETTING } from './settingsSpec';

/** How every chat session opens the archive: the file and the store that reads it. */
export interface ArchiveBackend {
  kind: 'sqlite' | 'jsonl';
  /** The store in use as the Archive view names it: `SQLite (node:sqlite)`, `SQLite (better-sqlite3)`, `plain file`. */
  label: string;
  path: string;
  open(path: string): SessionArchive;
}

/**
 * The archive backend, or why there is none. `message` says what happened, where, and what to do;
 * `fallback` is set when no SQLite works here and the plain-file store stands in for it; `notice`
 * when the driver the user named does not work and `auto` chose another.
 */
export type ArchiveOpenResult = { ok: true; backend: ArchiveBackend; message: string; fallback?: true; notice?: string } | { ok: false; message: string };

/** `driver`: `strata.archive.driver`; `drivers`: the ones to choose from (tests pass their own). */
export interface ArchiveDriverOptions {
  driver?: SqliteDriverChoice;
  drivers?: readonly SqliteDriver[];
}

/**
 * Opens and closes the archive in the extension's global storage folder, to say at once which
 * store holds it. The driver: the one named in `strata.archive.driver`, else the editor's order
 * (adapters/sqliteDrivers.ts): Node's own `node:sqlite` where the extension host has it (a current
 * VS Code), else better-sqlite3 if its binary was built for this runtime (desktop VS Code runs
 * Electron, whose ABI differs from Node's). When neither works the JSON Lines store is used instead
 * and the message says so; any other failure (a damaged file, a folder that cannot be written)
 * leaves no archive, and says why and where.
 */
export async function openArchive(storageDir: string, logger: Logger, options: ArchiveDriverOptions = {}): Promise<ArchiveOpenResult> {
  const path = archivePathIn(storageDir);
  const named = options.driver ?? 'auto';
  let chosen = chooseSqliteDriver(named, 'editor', options.drivers);
  let notice: string | undefined;
  if (!chosen.ok && named !== 'auto') {
    notice = `${chosen.message} Strata chose a driver itself (${ARCHIVE_DRIVER_SETTING}: auto) instead.`;
    logger.warn(notice);
    chosen = chooseSqliteDriver('auto', 'editor', options.drivers);
  }
  if (!chosen.ok) return openFallback(storageDir, chosen.message, logger);
  for (const skipped of chosen.skipped) logger.info(`archive: ${skipped.label} not used: ${skipped.reason}`);
  const driver = chosen.driver;
  const open = (file: string) => openSqliteArchive(file, { driver });
  try {
    mkdirSync(storageDir, { recursive: true });
    open(path).close();
    const label = `SQLite (${driver.label})`;
    logger.info(`archive: ${label}, ${path}`);
    return { ok: true, backend: { kind: 'sqlite', label, path, open }, message: `Archive: ${label}, ${path}`, ...(notice ? { notice } : {}) };
  } catch (error) {
    const message = `The archive at ${path} could not be opened (${oneLine(error)}). The chat cannot start without it. ${archiveAdvice(error)}`;
    logger.error(message);
    return { ok: false, message };
  }
}

function openFallback(storageDir: string, why: string, logger: Logger): ArchiveOpenResult {
  const path = fallbackArchivePathIn(storageDir);
  logger.warn(`SQLite does not work in this editor: ${why}`);
  try {
    mkdirSync(storageDir, { recursive: true });
    openJsonlArchive(path).close();
  } catch (error) {
    const message = `The archive cannot be opened: SQLite does not work in this editor (${oneLine(why)}), and the plain-file archive at ${path} failed too (${oneLine(error)}). ${archiveAdvice(error)}`;
    logger.error(message);
    return { ok: false, message };
  }
  const message =
    `SQLite does not work in this editor's runtime (${oneLine(why)}). ` +
    `Strata keeps working with a plain-file archive at ${path}: simpler word search, repeated file reads stored each time, one window at a time. ` +
    `To use SQLite, ${UPDATE_EDITOR} (Output > Strata has the details).`;
  logger.warn(message);
  return { ok: true, backend: { kind: 'jsonl', label: 'plain file', path, open: openJsonlArchive }, message, fallback: true };
}

/** What makes SQLite work in an editor where no driver loads. */
const UPDATE_EDITOR = 'update the editor: a VS Code whose extension host runs Node 22.13 or later has SQLite built in';

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
    ? `The native SQLite module does not load in this editor's runtime: set ${ARCHIVE_DRIVER_SETTING} to auto, or ${UPDATE_EDITOR} (Output > Strata has the details).`
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
