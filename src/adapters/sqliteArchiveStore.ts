import { createHash } from 'node:crypto';
import { searchableText } from '../engine/blockTokens';
import type { Message } from '../shared/messages';
import type { ArchivedExchangeInfo, ArchivedSessionInfo, ArchiveBrowser, DeletedSession } from '../engine/archiveBrowser';
import type { ArchivedExchange, ArchiveSearchHit, ArchiveStore } from '../engine/ports';
import { sessionTitle } from '../shared/sessionTitle';
import { ArchiveError } from '../engine/ports';
import { archivedBodySchema } from './archivedBodySchema';
import { ARCHIVE_MIGRATIONS } from './sqliteArchiveSchema';
import type { SqliteConnection, SqliteDriver } from './sqliteDriver';
import { chooseSqliteDriver } from './sqliteDrivers';
import { blobRefs, decodeBody, encodeBody } from './storedBody';
import { ensurePrivateFile, tighten } from './privateFiles';

/** A session's title (its first query, one line) and source (`claude-code:<file>`, `cline:<file>`...). */
export interface SessionInfo {
  title: string;
  source: string;
}

export interface ArchiveOptions {
  /** How long a write waits for another process's lock before failing with archive_locked, ms. */
  busyTimeoutMs?: number;
  /**
   * SQLite's `synchronous` under WAL. FULL (the default) syncs the WAL at every commit, so an
   * archived exchange survives a power loss; NORMAL survives a process crash but may lose the
   * last commits on power loss. See docs/durability.md.
   */
  synchronous?: 'FULL' | 'NORMAL';
  /** The SQLite library to use; without it, the CLI's choice (`chooseSqliteDriver('auto', 'cli')`). */
  driver?: SqliteDriver;
}

type Row = { session_id: string; seq: number; created_at: number; header: string; summary: string; body_json: string; tokens: number; superseded_by: number | null };

/**
 * L5: every exchange as a trio in one SQLite file (WAL). Long strings are content-addressed,
 * so a file read twice is stored once; FTS5 indexes header, summary and body text.
 */
export class SqliteArchiveStore implements ArchiveStore, ArchiveBrowser {
  private readonly db: SqliteConnection;
  /** The library that reads and writes the file (its label names it to users). */
  readonly driver: SqliteDriver;

  constructor(readonly path: string, options: ArchiveOptions = {}) {
    if (path !== ':memory:') createPrivately(path);
    const driver = options.driver ?? defaultDriver();
    this.driver = driver;
    this.db = guard(path, driver, () => {
      const db = driver.open(path, { busyTimeoutMs: options.busyTimeoutMs ?? 2_000 });
      try {
        db.exec('PRAGMA journal_mode = WAL'); // a ':memory:' database keeps its own journal ('memory')
        db.exec(`PRAGMA synchronous = ${options.synchronous ?? 'FULL'}`);
        db.exec('PRAGMA foreign_keys = ON');
        migrate(db, path);
      } catch (error) {
        db.close();
        throw error;
      }
      return db;
    });
  }

  /**
   * One transaction per exchange: its blobs, its session row, its row and its FTS row commit
   * together or not at all. A seq already stored with the same content is a no-op; with other
   * content it is refused. A missing seq below the last one may be filled (a retried write).
   * `supersedes` marks those rows superseded by this exchange in the same transaction.
   */
  put(exchange: ArchivedExchange): void {
    this.guard(() =>
      this.db.transaction(() => {
        const body = encodeBody(exchange.full, (text) => this.storeBlob(text));
        const existing = this.db.prepare('SELECT body_json FROM exchanges WHERE session_id = ? AND seq = ?').get(exchange.sessionId, exchange.seq) as Pick<Row, 'body_json'> | undefined;
        const mark = this.db.prepare('UPDATE exchanges SET superseded_by = ? WHERE session_id = ? AND seq = ?');
        for (const old of exchange.supersedes ?? []) mark.run(exchange.seq, exchange.sessionId, old);
        if (existing) {
          if (existing.body_json === body) {
            if (exchange.supersededBy !== undefined) mark.run(exchange.supersededBy, exchange.sessionId, exchange.seq);
            return;
          }
          throw new ArchiveError(
            `Exchange e${exchange.seq} of session ${exchange.sessionId} is already archived with other content (in ${this.path}); ids are never reused. Two Strata windows may be writing the same session: close one.`,
            'archive_conflict',
          );
        }
        this.db.prepare('INSERT OR IGNORE INTO sessions (id, created_at) VALUES (?, ?)').run(exchange.sessionId, exchange.createdAt);
        this.db
          .prepare('INSERT INTO exchanges (session_id, seq, created_at, header, summary, body_json, tokens, superseded_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
          .run(exchange.sessionId, exchange.seq, exchange.createdAt, exchange.header, exchange.summary, body, exchange.tokens, exchange.supersededBy ?? null);
        this.db
          .prepare('INSERT INTO exchanges_fts (session_id, seq, header, summary, body) VALUES (?, ?, ?, ?, ?)')
          .run(exchange.sessionId, exchange.seq, exchange.header, exchange.summary, searchableText(exchange.full));
        // The session's first exchange names it (also when a retried write fills a lower seq later).
        const first = this.db.prepare('SELECT MIN(seq) AS first FROM exchanges WHERE session_id = ?').get(exchange.sessionId) as { first: number };
        if (first.first === exchange.seq) this.db.prepare('UPDATE sessions SET title = ? WHERE id = ?').run(sessionTitle(exchange.full) ?? '', exchange.sessionId);
      }),
    );
  }

  get(sessionId: string, seq: number): ArchivedExchange | undefined {
    const row = this.guard(() => this.db.prepare('SELECT * FROM exchanges WHERE session_id = ? AND seq = ?').get(sessionId, seq) as Row | undefined);
    if (!row) return undefined;
    let full: Message[];
    try {
      const raw = decodeBody(row.body_json, (hash) => this.loadBlob(hash));
      full = archivedBodySchema.parse(raw) as Message[];
    } catch (error) {
      if (error instanceof ArchiveError) throw error;
      throw new ArchiveError(`Exchange e${seq} of session ${sessionId} in ${this.path} is damaged and cannot be read; the other exchanges are unaffected.`, 'archive_corrupt');
    }
    return { sessionId, seq, createdAt: row.created_at, header: row.header, summary: row.summary, full, tokens: row.tokens, ...(row.superseded_by !== null ? { supersededBy: row.superseded_by } : {}) };
  }

  lastSeq(sessionId: string): number {
    const row = this.guard(() => this.db.prepare('SELECT MAX(seq) AS last FROM exchanges WHERE session_id = ?').get(sessionId) as { last: number | null });
    return row.last ?? 0;
  }

  search(sessionId: string, query: string, limit: number): ArchiveSearchHit[] {
    return this.searchIn(sessionId, query, limit);
  }

  searchAll(query: string, limit: number): ArchiveSearchHit[] {
    return this.searchIn(undefined, query, limit);
  }

  /**
   * Sessions with at least one exchange, the latest activity first. Titles come from
   * `session_info` (an import's) or `sessions.title` (written with the first exchange), so no
   * exchange body is read; a session archived before schema 5 has none and is titled from its
   * first exchange once, the title then recorded.
   */
  sessions(): ArchivedSessionInfo[] {
    const rows = this.guard(
      () =>
        this.db
          .prepare(
            `WITH g AS (SELECT session_id, MIN(seq) AS first_seq, MIN(created_at) AS first_at, MAX(created_at) AS last_at, COUNT(*) AS n FROM exchanges GROUP BY session_id)
             SELECT g.*, s.title AS stored, i.title AS imported FROM g LEFT JOIN sessions s ON s.id = g.session_id LEFT JOIN session_info i ON i.session_id = g.session_id
             ORDER BY g.last_at DESC, g.session_id`,
          )
          .all() as Array<{ session_id: string; first_seq: number; first_at: number; last_at: number; n: number; stored: string | null; imported: string | null }>,
    );
    const found = new Map<string, string>();
    const sessions = rows.map((r) => {
      let title = r.imported || r.stored;
      if (title === null) {
        const read = this.firstExchangeTitle(r.session_id, r.first_seq);
        if (read !== undefined) found.set(r.session_id, read);
        title = read ?? '';
      }
      return { id: r.session_id, title, firstAt: r.first_at, lastAt: r.last_at, exchanges: r.n };
    });
    this.recordTitles(found);
    return sessions;
  }

  exchanges(sessionId: string): ArchivedExchangeInfo[] {
    const rows = this.guard(
      () => this.db.prepare('SELECT seq, created_at, header, summary FROM exchanges WHERE session_id = ? ORDER BY seq').all(sessionId) as Array<Pick<Row, 'seq' | 'created_at' | 'header' | 'summary'>>,
    );
    return rows.map((r) => ({ sessionId, seq: r.seq, createdAt: r.created_at, header: r.header, summary: r.summary }));
  }

  /**
   * Deletes the session in one transaction: its exchanges, their FTS rows, the session row and
   * the blobs only its exchanges referenced (blobs are shared by content across sessions).
   */
  deleteSession(sessionId: string): DeletedSession {
    return this.guard(() =>
      this.db.transaction((): DeletedSession => {
        const bodies = this.db.prepare('SELECT body_json FROM exchanges WHERE session_id = ?').all(sessionId) as Array<Pick<Row, 'body_json'>>;
        const candidates = new Set(bodies.flatMap((b) => blobRefs(b.body_json)));
        const exchanges = this.db.prepare('DELETE FROM exchanges WHERE session_id = ?').run(sessionId).changes;
        this.db.prepare('DELETE FROM exchanges_fts WHERE session_id = ?').run(sessionId);
        this.db.prepare('DELETE FROM sessions WHERE id = ?').run(sessionId);
        this.db.prepare('DELETE FROM session_info WHERE session_id = ?').run(sessionId);
        // One pass over what remains, until no candidate is left: a blob another exchange still points to stays.
        for (const row of this.db.prepare('SELECT body_json FROM exchanges').iterate() as IterableIterator<Pick<Row, 'body_json'>>) {
          if (candidates.size === 0) break;
          for (const hash of blobRefs(row.body_json)) candidates.delete(hash);
        }
        const drop = this.db.prepare('DELETE FROM blobs WHERE hash = ?');
        let blobs = 0;
        for (const hash of candidates) blobs += drop.run(hash).changes;
        return { exchanges, blobs };
      }),
    );
  }

  updateTrio(sessionId: string, seq: number, header: string, summary: string): void {
    this.guard(() =>
      this.db.transaction(() => {
        this.db.prepare('UPDATE exchanges SET header = ?, summary = ? WHERE session_id = ? AND seq = ?').run(header, summary, sessionId, seq);
        this.db.prepare('UPDATE exchanges_fts SET header = ?, summary = ? WHERE session_id = ? AND seq = ?').run(header, summary, sessionId, seq);
      }),
    );
  }

  /** The tokenizer correction learned for `model` in an earlier session, if any. */
  tokenFactor(model: string): number | undefined {
    const row = this.guard(() => this.db.prepare('SELECT factor FROM token_calibration WHERE model = ?').get(model) as { factor: number } | undefined);
    return row && Number.isFinite(row.factor) && row.factor > 0 ? row.factor : undefined;
  }

  /** Keeps the tokenizer correction learned for `model` (the latest wins). */
  saveTokenFactor(model: string, factor: number, at: number): void {
    this.guard(() =>
      this.db.prepare('INSERT INTO token_calibration (model, factor, updated_at) VALUES (?, ?, ?) ON CONFLICT(model) DO UPDATE SET factor = excluded.factor, updated_at = excluded.updated_at').run(model, factor, at),
    );
  }

  /** Names a session and records where it came from (the latest call wins). */
  setSessionInfo(sessionId: string, info: SessionInfo, at: number): void {
    this.guard(() =>
      this.db
        .prepare('INSERT INTO session_info (session_id, title, source, updated_at) VALUES (?, ?, ?, ?) ON CONFLICT(session_id) DO UPDATE SET title = excluded.title, source = excluded.source, updated_at = excluded.updated_at')
        .run(sessionId, info.title, info.source, at),
    );
  }

  sessionInfo(sessionId: string): SessionInfo | undefined {
    const row = this.guard(() => this.db.prepare('SELECT title, source FROM session_info WHERE session_id = ?').get(sessionId) as SessionInfo | undefined);
    return row ? { title: row.title, source: row.source } : undefined;
  }

  listSessions(): string[] {
    return this.guard(() => (this.db.prepare('SELECT id FROM sessions ORDER BY created_at, id').all() as Array<{ id: string }>).map((r) => r.id));
  }

  /** Sizes for the bench: exchanges, distinct blobs and their bytes. */
  stats(): { exchanges: number; blobs: number; blobBytes: number } {
    return this.guard(() => {
      const ex = this.db.prepare('SELECT COUNT(*) AS n FROM exchanges').get() as { n: number };
      const bl = this.db.prepare('SELECT COUNT(*) AS n, COALESCE(SUM(bytes), 0) AS bytes FROM blobs').get() as { n: number; bytes: number };
      return { exchanges: ex.n, blobs: bl.n, blobBytes: bl.bytes };
    });
  }

  close(): void {
    if (this.db.open) this.db.close();
  }

  private guard<T>(work: () => T): T {
    return guard(this.path, this.driver, work);
  }

  /** FTS over one session, or over all when `sessionId` is undefined. Each word is matched as a quoted term. */
  private searchIn(sessionId: string | undefined, query: string, limit: number): ArchiveSearchHit[] {
    const terms = (query.match(/\S+/g) ?? []).map((t) => `"${t.replace(/"/g, '""')}"`);
    if (terms.length === 0) return [];
    const where = sessionId === undefined ? '' : 'AND f.session_id = ?';
    const params = [terms.join(' '), ...(sessionId === undefined ? [] : [sessionId]), Math.max(1, Math.floor(limit))];
    const rows = this.guard(() =>
      this.db
        .prepare(
          `SELECT f.session_id, f.seq, f.header, snippet(exchanges_fts, -1, '[', ']', '…', 12) AS snippet, e.superseded_by
           FROM exchanges_fts f LEFT JOIN exchanges e ON e.session_id = f.session_id AND e.seq = f.seq
           WHERE exchanges_fts MATCH ? ${where} ORDER BY rank LIMIT ?`,
        )
        .all(...params) as Array<{ session_id: string; seq: number; header: string; snippet: string; superseded_by: number | null }>,
    );
    return rows.map((r) => ({ sessionId: r.session_id, seq: Number(r.seq), header: r.header, snippet: r.snippet, ...(r.superseded_by !== null ? { supersededBy: r.superseded_by } : {}) }));
  }

  /** `sessionTitle` of the session's first exchange ('' when it has none); undefined when that exchange cannot be read. */
  private firstExchangeTitle(sessionId: string, firstSeq: number): string | undefined {
    try {
      return sessionTitle(this.get(sessionId, firstSeq)?.full ?? []) ?? '';
    } catch {
      // undefined: a damaged first exchange must not hide the session from the list
    }
  }

  /**
   * Records titles read from pre-schema-5 sessions, in one transaction. Best effort: a listing
   * must not fail because the archive is busy or read-only (the next listing tries again).
   */
  private recordTitles(titles: ReadonlyMap<string, string>): void {
    try {
      const set = this.db.prepare('UPDATE sessions SET title = ? WHERE id = ? AND title IS NULL');
      this.db.transaction(() => {
        for (const [id, title] of titles) set.run(title, id);
      });
    } catch {
      // Not recorded: the title is read from the first exchange again next time.
    }
  }

  /** Inside `put`'s transaction only: a blob is never stored without the exchange that uses it. */
  private storeBlob(text: string): string {
    const hash = createHash('sha256').update(text).digest('hex');
    this.db.prepare('INSERT OR IGNORE INTO blobs (hash, text, bytes) VALUES (?, ?, ?)').run(hash, text, Buffer.byteLength(text));
    return hash;
  }

  private loadBlob(hash: string): string {
    const row = this.db.prepare('SELECT text FROM blobs WHERE hash = ?').get(hash) as { text: string } | undefined;
    if (!row) throw new ArchiveError(`A stored text (${hash.slice(0, 12)}…) is missing from ${this.path}; the archive is damaged. Move the file away to start a new archive.`, 'archive_corrupt');
    return row.text;
  }
}

/** Opens (creating if needed) the archive at `path`; ':memory:' for a throwaway one. */
export function openSqliteArchive(path: string, options?: ArchiveOptions): SqliteArchiveStore {
  return new SqliteArchiveStore(path, options);
}

/** The CLI's driver, when the caller named none; an ArchiveError that says why when none works here. */
function defaultDriver(): SqliteDriver {
  const chosen = chooseSqliteDriver('auto', 'cli');
  if (!chosen.ok) throw new ArchiveError(`${chosen.message} ${NO_DRIVER_ADVICE}`, 'archive_driver');
  return chosen.driver;
}

/** What to do when no SQLite driver works: Node's own SQLite needs no build step. */
export const NO_DRIVER_ADVICE = 'Run Strata on Node 22.13 or later (its SQLite is built in), or reinstall better-sqlite3 for this Node (npm rebuild better-sqlite3).';

function migrate(db: SqliteConnection, path: string): void {
  const current = (db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version;
  const latest = ARCHIVE_MIGRATIONS[ARCHIVE_MIGRATIONS.length - 1]!.version;
  if (current > latest) {
    throw new ArchiveError(`The archive ${path} was written by a newer Strata (schema ${current}, this one knows ${latest}). Update Strata to open it; the file was not changed.`, 'archive_version');
  }
  for (const step of ARCHIVE_MIGRATIONS) {
    if (step.version <= current) continue;
    db.transaction(() => {
      db.exec(step.sql);
      db.exec(`PRAGMA user_version = ${step.version}`);
    });
  }
}

/**
 * The archive holds tool output: created 0600 before SQLite opens it (SQLite gives its -wal and
 * -shm the database file's mode); an older archive, -wal and -shm readable by others is tightened.
 * A failure here is left to SQLite's own open, whose error says what to do.
 */
function createPrivately(path: string): void {
  try {
    ensurePrivateFile(path);
  } catch {
    return;
  }
  for (const suffix of ['-wal', '-shm']) tighten(`${path}${suffix}`);
}

/** Runs `work`, turning SQLite's errors (as `driver` reports them) into ArchiveErrors that say what to do. */
function guard<T>(path: string, driver: SqliteDriver, work: () => T): T {
  try {
    return work();
  } catch (error) {
    throw sqliteArchiveError(path, error, driver.errorCode(error));
  }
}

/**
 * The ArchiveError that says what to do about `error`, met while using the archive at `path`;
 * `code` is SQLite's result-code name for it, as the driver reports it (undefined: not from SQLite).
 * An ArchiveError is kept as it is. SQLite's extended codes (SQLITE_IOERR_WRITE,
 * SQLITE_READONLY_DBMOVED...) count as their primary code. Exported for its tests: most of
 * these codes cannot be produced on demand.
 */
export function sqliteArchiveError(path: string, error: unknown, code: string | undefined): ArchiveError {
  if (error instanceof ArchiveError) return error;
  const is = (prefixes: readonly string[]) => code !== undefined && prefixes.some((prefix) => code.startsWith(prefix));
  if (is(['SQLITE_NOTADB', 'SQLITE_CORRUPT'])) {
    return new ArchiveError(`${path} is not a readable Strata archive (${code}). Move it away (it was not changed) and Strata will start a new archive.`, 'archive_corrupt');
  }
  if (is(['SQLITE_BUSY', 'SQLITE_LOCKED'])) {
    return new ArchiveError(`The archive ${path} is locked by another process (another Strata window, or a tool holding it open).`, 'archive_locked');
  }
  if (is(['SQLITE_CANTOPEN', 'SQLITE_READONLY', 'SQLITE_FULL', 'SQLITE_IOERR'])) {
    return new ArchiveError(`The archive ${path} cannot be written (${code}). Check the folder exists, is writable and has free space.`, 'archive_io');
  }
  return new ArchiveError(`The archive ${path} failed: ${error instanceof Error ? error.message : String(error)}.`, 'archive');
}
