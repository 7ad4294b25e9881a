import type { EngineSettings } from '../shared/engineSettings';
import { engineSettingsSchema, resolveEngineSettings } from '../shared/engineSettings';
import { openSqliteArchive } from '../adapters/sqliteArchiveStore';
import type { SqliteDriver } from '../adapters/sqliteDriver';
import { readSessionFile } from '../adapters/sessionFileReader';
import { createTiktokenTokenizer } from '../adapters/tiktokenTokenizer';
import { JsonlWriter } from '../adapters/jsonlWriter';
import { makeTempDir } from '../adapters/tempFiles';
import { stderrLogger } from '../adapters/streamLogger';
import { replaySession } from '../host/replaySession';
import { chooseReplaySession, replayFileKey } from './replaySessionId';
import { listenForStop, SIGNAL_EXIT } from './stopSignals';
import { addToTotals, emptyTotals, tableHeader, tableRow, totalsLine } from './replayTable';
import type { ReplayTotals } from './replayTable';
import type { ArchiveStore, Logger } from '../engine/ports';
import { ArchiveError, StrataError } from '../engine/ports';

export interface ReplayArgs {
  session: string;
  /** Engine settings, validated by the caller (the CLI builds them from --window and --budget). */
  settings: EngineSettings;
  /**
   * The settings the user gave on the command line. A session recorded by `strata chat` carries
   * the settings it ran with; those are used, with these on top, so the replay sends what the chat sent.
   */
  explicit?: Partial<EngineSettings>;
  dump?: string;
  archive?: string;
  /** A session id of this file in `archive`, or `last`; without it the replay starts a new session. */
  resume?: string;
  quiet?: boolean;
  /** The SQLite library (`--sqlite-driver`); the CLI's choice when not given. */
  driver?: SqliteDriver;
}

/** The totals, and how the replay ended: `exitCode` is what `strata replay` exits with. */
export interface ReplayOutcome extends ReplayTotals {
  sessionId: string;
  /** Exchanges the archive could not take (lost when the process ended). */
  unarchived: number;
  interrupted?: NodeJS.Signals;
  exitCode: number;
}


/**
 * `strata replay`: runs a recorded session through the engine, prints the per-exchange table
 * and totals, and with --dump writes the contract lines (see docs/cli.md, "The dump contract").
 */
export async function runReplay(args: ReplayArgs, out: (line: string) => void): Promise<ReplayOutcome> {
  if (args.resume !== undefined && !args.archive) throw new StrataError('--resume needs --archive <file.sqlite>: the session to resume lives there.', 'usage');
  const session = readSessionFile(args.session);
  const recorded = engineSettingsSchema.partial().safeParse(session.meta.settings);
  const settings = session.meta.settings !== undefined && recorded.success ? resolveEngineSettings({ ...recorded.data, ...args.explicit }) : args.settings;
  const logger = stderrLogger();
  const temp = makeTempDir('strata-replay-');
  const archive = openArchiveOrTemp(args.archive, `${temp.dir}/archive.sqlite`, logger, args.driver);
  const dump = args.dump ? new JsonlWriter(args.dump) : undefined;
  const totals = emptyTotals();
  const stop = listenForStop();
  try {
    const target = chooseReplaySession(archive.listSessions(), replayFileKey(args.session, session), args.resume);
    const from = target.resume ? archive.lastSeq(target.sessionId) : 0;
    const named = args.archive !== undefined && archive.path === args.archive;
    if (named) out(`session ${target.sessionId} in ${args.archive}: ${target.resume ? `resumed after e${from}` : 'new'}`);
    if (!args.quiet) out(tableHeader());
    // A row is printed once its exchange is archived: a row on stdout means that turn is stored.
    const rows = new Map<number, string>();
    const result = await replaySession(
      session,
      target.sessionId,
      settings,
      { tokenizer: createTiktokenTokenizer(), archive, logger },
      (turn) => {
        for (const call of turn.assembled.condenseCalls) {
          dump?.write({ turn: turn.turn, kind: 'condense', request: call.request, outputTokens: call.outputTokens });
        }
        dump?.write({ turn: turn.turn, kind: 'main', request: turn.assembled.request, housekeepingTokens: turn.assembled.housekeepingTokens });
        addToTotals(totals, turn);
        if (!args.quiet) rows.set(turn.turn, tableRow(turn));
      },
      {
        resume: target.resume,
        signal: stop.signal,
        onArchived: (turn) => {
          const row = rows.get(turn);
          rows.delete(turn);
          if (row !== undefined) out(row);
        },
      },
    );
    // The engine already logged its archive warnings as they happened: tell the rest.
    for (const problem of result.problems) if (!logger.warnings.includes(problem)) logger.warn(problem);
    out(totalsLine(totals));
    // A signal after the last turn stopped nothing: the replay is complete.
    const stoppedBy = result.interrupted ? stop.stoppedBy() : undefined;
    if (stoppedBy) logger.warn(`Stopped by ${stoppedBy} after e${result.skipped + result.turns}; every exchange up to it is archived.${named ? ` Continue with --resume ${target.sessionId}.` : ''}`);
    const exitCode = stoppedBy ? (SIGNAL_EXIT[stoppedBy] ?? 1) : totals.overBudget > 0 || result.unarchived > 0 ? 1 : 0;
    return { ...totals, sessionId: target.sessionId, unarchived: result.unarchived, ...(stoppedBy ? { interrupted: stoppedBy } : {}), exitCode };
  } finally {
    stop.release();
    dump?.close();
    archive.close();
    temp.remove();
  }
}

/**
 * Opens the archive the user named; if it is corrupt or locked, says so, leaves that file
 * untouched, and goes on with a temporary archive so the replay still runs.
 */
function openArchiveOrTemp(path: string | undefined, tempPath: string, logger: Logger, driver: SqliteDriver | undefined): ArchiveStore {
  const using = driver ? { driver } : {};
  if (path) {
    try {
      return openSqliteArchive(path, using);
    } catch (error) {
      if (!(error instanceof ArchiveError)) throw error;
      logger.warn(`${error.message} Replaying with a temporary archive instead.`);
    }
  }
  // A temporary archive is deleted at exit: surviving a power loss buys nothing there.
  return openSqliteArchive(tempPath, { synchronous: 'NORMAL', ...using });
}
