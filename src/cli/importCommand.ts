import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { ImportFormat } from '../adapters/importedSessionReader';
import { IMPORT_FORMATS } from '../adapters/importedSessionReader';
import { openSqliteArchive } from '../adapters/sqliteArchiveStore';
import type { SqliteDriver } from '../adapters/sqliteDriver';
import type { Logger } from '../engine/ports';
import { StrataError } from '../engine/ports';
import { importSessions } from '../host/importSession';
import { listenForStop, SIGNAL_EXIT } from './stopSignals';

export interface ImportArgs {
  path: string;
  archive: string;
  from?: string;
  /** The SQLite library (`--sqlite-driver`); the CLI's choice when not given. */
  driver?: SqliteDriver;
}


/**
 * `strata import`: one line per session on `out` (its new id, exchanges, title), every problem
 * as a warning on `logger`, and the exit code (0 all imported, 1 a session failed or lost an
 * exchange, 130/143 stopped by a signal).
 */
export async function runImport(args: ImportArgs, out: (line: string) => void, logger: Logger): Promise<number> {
  const from = importFormat(args.from);
  mkdirSync(dirname(args.archive), { recursive: true });
  const stop = listenForStop();
  try {
    const { driver } = args;
    const openArchive = driver ? (path: string) => openSqliteArchive(path, { driver }) : undefined;
    const key = process.env.ANTHROPIC_API_KEY;
    const result = await importSessions(args.path, { archivePath: args.archive, ...(openArchive ? { openArchive } : {}), ...(from ? { from } : {}), ...(key ? { secrets: [key] } : {}), logger, signal: stop.signal });
    for (const s of result.imported) {
      out(`${s.source.path} (${s.source.format}) -> session ${s.sessionId}: ${s.exchanges} exchange${s.exchanges === 1 ? '' : 's'}, "${s.title}"`);
      for (const problem of s.problems) logger.warn(problem);
      if (s.unarchived > 0) logger.warn(`${s.unarchived} exchanges of ${s.source.path} could not be archived and are lost; see the warnings above.`);
    }
    for (const f of result.failed) logger.error(`${f.source.path} was not imported: ${f.error}`);
    const exchanges = result.imported.reduce((n, s) => n + s.exchanges, 0);
    out(`imported ${result.imported.length} session${result.imported.length === 1 ? '' : 's'} (${exchanges} exchanges) into ${args.archive}${result.failed.length > 0 ? `; ${result.failed.length} failed` : ''}`);
    const interrupted = stop.stoppedBy();
    if (interrupted) {
      logger.warn(`Stopped by ${interrupted}; every exchange imported up to it is archived.`);
      return SIGNAL_EXIT[interrupted] ?? 1;
    }
    return result.failed.length > 0 || result.imported.some((s) => s.unarchived > 0) ? 1 : 0;
  } finally {
    stop.release();
  }
}

function importFormat(value: string | undefined): ImportFormat | undefined {
  if (value === undefined) return undefined;
  const format = IMPORT_FORMATS.find((f) => f === value);
  if (!format) throw new StrataError(`--from takes ${IMPORT_FORMATS.join(' or ')}, got '${value}'.`, 'usage');
  return format;
}
