import { basename } from 'node:path';
import type { ImportFormat, ImportSource } from '../adapters/importedSessionReader';
import { findImportSources, readImportedSession } from '../adapters/importedSessionReader';
import { systemClock } from '../adapters/systemClock';
import { createTiktokenTokenizer } from '../adapters/tiktokenTokenizer';
import { replaySession } from './replaySession';
import { redactMessage } from '../task/redaction';
import { createRedactor } from '../task/secretRedactor';
import type { ArchiveStore, Clock, Logger, Tokenizer } from '../engine/ports';
import type { EngineSettings } from '../shared/engineSettings';
import { resolveEngineSettings } from '../shared/engineSettings';
import type { ParsedSession } from '../shared/sessionSchema';
import { newSessionId } from './newSessionId';

/** The answer given to a transcript's last input when the transcript ends before its answer. */
export const NO_ANSWER = '[no answer: the transcript ends here]';

/** The archive an import writes: titles and sources are kept where the store has a place for them. */
export type ImportArchive = ArchiveStore & { setSessionInfo?(sessionId: string, info: { title: string; source: string }, at: number): void };

export interface ImportOptions {
  /** The archive the sessions go into (created if missing): SQLite unless `openArchive` says otherwise. */
  archivePath: string;
  /** Opens the archive at `archivePath` (the editor's plain-file fallback when SQLite cannot load). */
  openArchive?: (path: string) => ImportArchive;
  /** Read every file in this format (a folder: only its sessions of this format); detected otherwise. */
  from?: ImportFormat;
  /** Engine settings for deriving headers and summaries; the defaults when absent. */
  settings?: EngineSettings;
  logger: Logger;
  clock?: Clock;
  /** Counts tokens for the engine (o200k via js-tiktoken unless given; building one takes a moment). */
  tokenizer?: Tokenizer;
  /** Stops before the next session, or at the next exchange of the current one (what was archived stays). */
  signal?: AbortSignal;
  /** Exact strings redacted from every imported message (the user's API key); always. */
  secrets?: readonly string[];
  /** Redact known secret formats too, as a chat does (`strata.redactSecrets`); default on. */
  redactSecrets?: boolean;
  /** Called before each session is read (1-based `index` of `total`). */
  onSession?: (source: ImportSource, index: number, total: number) => void;
}

/** One session now in the archive. */
export interface ImportedSession {
  source: ImportSource;
  sessionId: string;
  title: string;
  /** Exchanges archived (an exchange is one input and its answer). */
  exchanges: number;
  /** Everything skipped, replaced or repaired on the way, one line each, with file and line. */
  problems: string[];
  /** Exchanges the archive could not take; lost. */
  unarchived: number;
  interrupted: boolean;
}

export interface ImportResult {
  imported: ImportedSession[];
  /** Sessions that could not be read or archived at all, with the reason. */
  failed: Array<{ source: ImportSource; error: string }>;
}

/**
 * Imports every native session at `path` (a file, a Cline task folder, or a folder of them) into
 * the archive: each becomes a new session with a fresh id, replayed through the engine exactly
 * as `strata replay` does (so headers, summaries and the search index are the engine's own), then
 * named by its first query with its source recorded. Importing a file twice makes two sessions.
 * One unreadable session does not stop the others. Throws StrataError when there is nothing to
 * import or the archive cannot be opened.
 */
export async function importSessions(path: string, options: ImportOptions): Promise<ImportResult> {
  const sources = findImportSources(path, options.from);
  const clock = options.clock ?? systemClock;
  const settings = options.settings ?? resolveEngineSettings({});
  const archive = (options.openArchive ?? (await sqliteOpener()))(options.archivePath);
  const tokenizer = options.tokenizer ?? createTiktokenTokenizer();
  const result: ImportResult = { imported: [], failed: [] };
  // What another agent's tools printed enters the archive as a chat's would: redacted first.
  const redact = createRedactor({ secrets: options.secrets ?? [], formats: options.redactSecrets ?? true });
  try {
    for (const [index, source] of sources.entries()) {
      if (options.signal?.aborted) break;
      options.onSession?.(source, index + 1, sources.length);
      try {
        const read = readImportedSession(source);
        const session = withAnswerForLastInput({ ...read, messages: read.messages.map((m) => redactMessage(m, redact)) });
        const sessionId = uniqueId(archive.listSessions(), clock);
        const replayed = await replaySession(session, sessionId, settings, { tokenizer, archive, logger: options.logger }, () => {}, options.signal ? { signal: options.signal } : {});
        const title = typeof session.meta.title === 'string' ? session.meta.title : basename(source.path);
        if (replayed.turns > 0) archive.setSessionInfo?.(sessionId, { title, source: `${source.format}:${source.path}` }, clock.now());
        result.imported.push({ source, sessionId, title, exchanges: replayed.turns - replayed.unarchived, problems: replayed.problems, unarchived: replayed.unarchived, interrupted: replayed.interrupted });
      } catch (error) {
        if (!(error instanceof Error)) throw error;
        result.failed.push({ source, error: error.message });
      }
    }
  } finally {
    archive.close();
  }
  return result;
}

/** A transcript that ends on an input gets a marked answer, so that input is archived too (and said). */
function withAnswerForLastInput(session: ParsedSession): ParsedSession {
  const last = session.messages[session.messages.length - 1];
  if (last?.role !== 'user') return session;
  return {
    ...session,
    messages: [...session.messages, { role: 'assistant', content: [{ type: 'text', text: NO_ANSWER }] }],
    problems: [...session.problems, `the transcript ends on an input without an answer; archived with the answer "${NO_ANSWER}"`],
  };
}

/** A fresh id no session of the archive has (a clash of 8 random hex digits is unlikely, not impossible). */
function uniqueId(existing: readonly string[], clock: Clock): string {
  const taken = new Set(existing);
  for (;;) {
    const id = newSessionId(clock.now());
    if (!taken.has(id)) return id;
  }
}

/**
 * The SQLite store, loaded only when no other store is given: the universal .vsix carries no
 * native driver, and a static import would make this module fail to load wherever it is missing.
 */
async function sqliteOpener() {
  return (await import('../adapters/sqliteArchiveStore')).openSqliteArchive;
}
