import { basename } from 'node:path';
import type { EngineSettings } from '../shared/engineSettings';
import { openSqliteArchive } from '../adapters/sqliteArchiveStore';
import { readSessionFile } from '../adapters/sessionFileReader';
import { createTiktokenTokenizer } from '../adapters/tiktokenTokenizer';
import { JsonlWriter } from '../adapters/jsonlWriter';
import { makeTempDir } from '../adapters/tempFiles';
import { stderrLogger } from '../adapters/streamLogger';
import { replaySession } from './replaySession';
import { addToTotals, emptyTotals, tableHeader, tableRow, totalsLine } from './replayTable';
import type { ReplayTotals } from './replayTable';
import type { ArchiveStore, Logger } from '../engine/ports';
import { ArchiveError } from '../engine/ports';

export interface ReplayArgs {
  session: string;
  /** Engine settings, validated by the caller (the CLI builds them from --window and --budget). */
  settings: EngineSettings;
  dump?: string;
  archive?: string;
  quiet?: boolean;
}

/**
 * `strata replay`: runs a recorded session through the engine, prints the per-exchange table
 * and totals, and with --dump writes the contract lines (see README, "The replay contract").
 */
export async function runReplay(args: ReplayArgs, out: (line: string) => void): Promise<ReplayTotals> {
  const session = readSessionFile(args.session);
  const settings = args.settings;
  const logger = stderrLogger();
  const temp = makeTempDir('strata-replay-');
  const archive = openArchiveOrTemp(args.archive, `${temp.dir}/archive.sqlite`, logger);
  const dump = args.dump ? new JsonlWriter(args.dump) : undefined;
  const totals = emptyTotals();
  try {
    if (!args.quiet) out(tableHeader());
    const result = await replaySession(session, basename(args.session), settings, { tokenizer: createTiktokenTokenizer(), archive, logger }, (turn) => {
      for (const call of turn.assembled.condenseCalls) {
        dump?.write({ turn: turn.turn, kind: 'condense', request: call.request, outputTokens: call.outputTokens });
      }
      dump?.write({ turn: turn.turn, kind: 'main', request: turn.assembled.request, housekeepingTokens: turn.assembled.housekeepingTokens });
      addToTotals(totals, turn);
      if (!args.quiet) out(tableRow(turn));
    });
    for (const problem of result.problems) logger.warn(problem);
    out(totalsLine(totals));
    return totals;
  } finally {
    dump?.close();
    archive.close();
    temp.remove();
  }
}

/**
 * Opens the archive the user named; if it is corrupt or locked, says so, leaves that file
 * untouched, and goes on with a temporary archive so the replay still runs.
 */
function openArchiveOrTemp(path: string | undefined, tempPath: string, logger: Logger): ArchiveStore {
  if (path) {
    try {
      return openSqliteArchive(path);
    } catch (error) {
      if (!(error instanceof ArchiveError)) throw error;
      logger.warn(`${error.message} Replaying with a temporary archive instead.`);
    }
  }
  return openSqliteArchive(tempPath);
}
