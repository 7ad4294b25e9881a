import { closeSync, existsSync, fstatSync, fsyncSync, writeSync } from 'node:fs';
import { openPrivateFile } from './privateFiles';
import { z } from 'zod';
import type { ArchivedExchangeInfo, ArchivedSessionInfo, ArchiveBrowser, DeletedSession } from '../engine/archiveBrowser';
import { searchableText } from '../engine/blockTokens';
import type { ArchivedExchange, ArchiveSearchHit, ArchiveStore } from '../engine/ports';
import { ArchiveError } from '../engine/ports';
import type { Message } from '../shared/messages';
import { sessionTitle } from '../shared/sessionTitle';
import { archivedBodySchema } from './archivedBodySchema';
import { LineTail, type TailLine } from './lineTail';
import { matchDocument, queryPhrases } from './wordSearch';

/** Format version written on the first line; a newer one is refused, as SQLite's schema is. */
const FORMAT = 1;

const headerSchema = z.object({ strata_archive: z.number().int() });
const recordSchema = z.discriminatedUnion('t', [
  z.object({
    t: z.literal('put'),
    sessionId: z.string(),
    seq: z.number().int().positive(),
    createdAt: z.number(),
    header: z.string(),
    summary: z.string(),
    tokens: z.number(),
    full: archivedBodySchema,
    supersededBy: z.number().int().optional(),
    supersedes: z.array(z.number().int()).optional(),
  }),
  // Rows superseded by an edited, resent message (`by` is the new exchange's seq).
  z.object({ t: z.literal('mark'), sessionId: z.string(), marks: z.array(z.object({ seq: z.number().int(), by: z.number().int() })) }),
  z.object({ t: z.literal('trio'), sessionId: z.string(), seq: z.number().int(), header: z.string(), summary: z.string() }),
  z.object({ t: z.literal('factor'), model: z.string(), factor: z.number(), at: z.number() }),
  // A deleted session: its rows written before this line are gone (a Strata older than this
  // record skips it as a damaged line, so the session shows again there: nothing is lost).
  z.object({ t: z.literal('drop'), sessionId: z.string() }),
]);
type ArchiveRecord = z.infer<typeof recordSchema>;

/**
 * The archive without SQLite, for an editor whose runtime cannot load the native driver: one
 * JSON record per line (exchanges, trio updates, tokenizer factors, deleted sessions), appended
 * and fsynced, never rewritten. Same contract as the SQLite store (ids never reused, gaps
 * fillable, word search), and browsable; but no blob sharing. Every call first reads what other
 * instances (another window, the archive browser) appended since (a `stat` when nothing was), so
 * a seq another writer took is refused here as SQLite refuses it. `':memory:'` keeps it in memory only.
 */
export class JsonlArchiveStore implements ArchiveStore, ArchiveBrowser {
  private readonly rows = new Map<string, ArchivedExchange>();
  /** Each session's first `createdAt`, for `listSessions`' order. */
  private readonly sessionStarts = new Map<string, number>();
  private readonly factors = new Map<string, number>();
  private readonly tail: LineTail | undefined;
  private fd: number | undefined;
  /** Lines (1-based) that did not parse and were skipped; the file keeps them as they were. */
  readonly damagedLines: number[] = [];

  constructor(readonly path: string) {
    if (path === ':memory:') return;
    const tail = new LineTail(path);
    this.tail = tail;
    const existed = existsSync(path);
    const lines = existed ? io(path, () => tail.read()) : [];
    const torn = existed && io(path, () => tail.pending());
    const empty = !torn && lines.every((l) => l.text.trim().length === 0);
    if (!empty && this.load(lines) === 0) {
      throw new ArchiveError(`${this.path} is not a readable Strata archive (no line of it is a Strata record). Move it away (it was not changed) and Strata will start a new archive.`, 'archive_corrupt');
    }
    this.fd = io(path, () => openPrivateFile(path, 'a'));
    // A line cut by a crash mid-write stays a damaged line of its own, not the start of the next
    // record. A line another process is writing right now is whole before this newline lands
    // (each record is one append), so it is read whole here.
    if (torn) {
      this.write('\n');
      this.load(io(path, () => tail.read()));
    }
    if (empty) this.append({ strata_archive: FORMAT });
  }

  /** As SQLite's: `supersedes` marks those rows (present ones) with this seq, in the same record. */
  put(exchange: ArchivedExchange): void {
    this.catchUp();
    const existing = this.rows.get(key(exchange.sessionId, exchange.seq));
    if (existing) {
      // As SQLite compares stored bodies: the same JSON is the same exchange.
      if (JSON.stringify(existing.full) !== JSON.stringify(exchange.full)) {
        throw new ArchiveError(
          `Exchange e${exchange.seq} of session ${exchange.sessionId} is already archived with other content (in ${this.path}); ids are never reused. Two Strata windows may be writing the same session: close one.`,
          'archive_conflict',
        );
      }
      const marks = (exchange.supersedes ?? []).map((old) => ({ seq: old, by: exchange.seq }));
      if (exchange.supersededBy !== undefined) marks.push({ seq: exchange.seq, by: exchange.supersededBy });
      if (marks.length === 0) return;
      const record: ArchiveRecord = { t: 'mark', sessionId: exchange.sessionId, marks };
      this.append(record);
      this.apply(record);
      return;
    }
    const { sessionId, seq, createdAt, header, summary, tokens, full, supersededBy, supersedes } = exchange;
    const record: ArchiveRecord = { t: 'put', sessionId, seq, createdAt, header, summary, tokens, full, ...(supersededBy !== undefined ? { supersededBy } : {}), ...(supersedes ? { supersedes } : {}) };
    this.append(record);
    this.apply({ ...record, full: structuredClone(full) });
  }

  get(sessionId: string, seq: number): ArchivedExchange | undefined {
    this.catchUp();
    const row = this.rows.get(key(sessionId, seq));
    return row && structuredClone(row);
  }

  lastSeq(sessionId: string): number {
    this.catchUp();
    let last = 0;
    for (const row of this.rows.values()) if (row.sessionId === sessionId) last = Math.max(last, row.seq);
    return last;
  }

  search(sessionId: string, query: string, limit: number): ArchiveSearchHit[] {
    this.catchUp();
    return this.searchIn(sessionId, query, limit);
  }

  searchAll(query: string, limit: number): ArchiveSearchHit[] {
    this.catchUp();
    return this.searchIn(undefined, query, limit);
  }

  /** Sessions with at least one exchange, the latest activity first; titled by their lowest seq's first query. */
  sessions(): ArchivedSessionInfo[] {
    this.catchUp();
    const found = new Map<string, Omit<ArchivedSessionInfo, 'title'> & { first: ArchivedExchange }>();
    for (const row of this.rows.values()) {
      const s = found.get(row.sessionId);
      if (!s) {
        found.set(row.sessionId, { id: row.sessionId, firstAt: row.createdAt, lastAt: row.createdAt, exchanges: 1, first: row });
        continue;
      }
      s.firstAt = Math.min(s.firstAt, row.createdAt);
      s.lastAt = Math.max(s.lastAt, row.createdAt);
      s.exchanges++;
      if (row.seq < s.first.seq) s.first = row;
    }
    return [...found.values()]
      .sort((a, b) => b.lastAt - a.lastAt || compare(a.id, b.id))
      .map(({ first, ...s }) => ({ ...s, title: sessionTitle(first.full) ?? '' }));
  }

  exchanges(sessionId: string): ArchivedExchangeInfo[] {
    this.catchUp();
    return [...this.rows.values()]
      .filter((row) => row.sessionId === sessionId)
      .sort((a, b) => a.seq - b.seq)
      .map((row) => ({ sessionId, seq: row.seq, createdAt: row.createdAt, header: row.header, summary: row.summary }));
  }

  /**
   * Appends a tombstone for the session (the file is never rewritten; `load` honours it). As in
   * SQLite, nothing of the session is left, so its id may be archived again from seq 1.
   */
  deleteSession(sessionId: string): DeletedSession {
    this.catchUp();
    let exchanges = 0;
    for (const row of this.rows.values()) if (row.sessionId === sessionId) exchanges++;
    if (exchanges === 0) return { exchanges: 0, blobs: 0 };
    const record: ArchiveRecord = { t: 'drop', sessionId };
    this.append(record);
    this.apply(record);
    return { exchanges, blobs: 0 };
  }

  updateTrio(sessionId: string, seq: number, header: string, summary: string): void {
    this.catchUp();
    if (!this.rows.has(key(sessionId, seq))) return;
    const record: ArchiveRecord = { t: 'trio', sessionId, seq, header, summary };
    this.append(record);
    this.apply(record);
  }

  /** The tokenizer correction learned for `model` in an earlier session, if any. */
  tokenFactor(model: string): number | undefined {
    this.catchUp();
    const factor = this.factors.get(model);
    return factor !== undefined && Number.isFinite(factor) && factor > 0 ? factor : undefined;
  }

  /** Keeps the tokenizer correction learned for `model` (the latest wins). */
  saveTokenFactor(model: string, factor: number, at: number): void {
    const record: ArchiveRecord = { t: 'factor', model, factor, at };
    this.append(record);
    this.apply(record);
  }

  listSessions(): string[] {
    this.catchUp();
    return [...this.sessionStarts.entries()].sort((a, b) => a[1] - b[1] || compare(a[0], b[0])).map(([id]) => id);
  }

  close(): void {
    if (this.fd === undefined) return;
    closeSync(this.fd);
    this.fd = undefined;
  }

  /** Applies what other instances appended since the last read (a line still being written waits). */
  private catchUp(): void {
    const tail = this.tail;
    if (tail && this.fd !== undefined) this.load(io(this.path, () => tail.read()));
  }

  /** Applies `lines` in order, noting the damaged ones; returns how many were Strata lines. */
  private load(lines: readonly TailLine[]): number {
    let good = 0;
    for (const line of lines) {
      if (line.text.trim().length === 0) continue;
      const raw = parseJson(line.text);
      const header = headerSchema.safeParse(raw);
      if (header.success) {
        if (header.data.strata_archive > FORMAT) {
          throw new ArchiveError(`The archive ${this.path} was written by a newer Strata (format ${header.data.strata_archive}, this one knows ${FORMAT}). Update Strata to open it; the file was not changed.`, 'archive_version');
        }
        good++;
        continue;
      }
      const record = recordSchema.safeParse(raw);
      if (!record.success) {
        this.damagedLines.push(line.n);
        continue;
      }
      good++;
      this.apply(record.data);
    }
    return good;
  }

  /** Applies a record to memory; a put that repeats a seq already read keeps the first (ids are never reused). */
  private apply(record: ArchiveRecord): void {
    if (record.t === 'factor') return void this.factors.set(record.model, record.factor);
    if (record.t === 'mark') return this.mark(record.sessionId, record.marks);
    if (record.t === 'drop') return this.drop(record.sessionId);
    const k = key(record.sessionId, record.seq);
    const row = this.rows.get(k);
    if (record.t === 'trio') {
      if (row) Object.assign(row, { header: record.header, summary: record.summary });
      return;
    }
    this.mark(record.sessionId, (record.supersedes ?? []).map((old) => ({ seq: old, by: record.seq })));
    if (row) return;
    const { t: _t, supersedes: _supersedes, ...exchange } = record;
    this.rows.set(k, { ...exchange, full: exchange.full as Message[] });
    if (!this.sessionStarts.has(record.sessionId)) this.sessionStarts.set(record.sessionId, record.createdAt);
  }

  private drop(sessionId: string): void {
    for (const [k, row] of this.rows) if (row.sessionId === sessionId) this.rows.delete(k);
    this.sessionStarts.delete(sessionId);
  }

  /** Every session's rows (`sessionId` undefined) or one session's, best match first. */
  private searchIn(sessionId: string | undefined, query: string, limit: number): ArchiveSearchHit[] {
    const phrases = queryPhrases(query);
    if (phrases.length === 0) return [];
    const hits: Array<ArchiveSearchHit & { score: number }> = [];
    for (const row of this.rows.values()) {
      if (sessionId !== undefined && row.sessionId !== sessionId) continue;
      const match = matchDocument([row.header, row.summary, searchableText(row.full)], phrases);
      if (match) hits.push({ sessionId: row.sessionId, seq: row.seq, header: row.header, snippet: match.snippet, score: match.score, ...(row.supersededBy !== undefined ? { supersededBy: row.supersededBy } : {}) });
    }
    hits.sort((a, b) => b.score - a.score || compare(a.sessionId, b.sessionId) || a.seq - b.seq);
    return hits.slice(0, Math.max(1, Math.floor(limit))).map(({ score: _score, ...hit }) => hit);
  }

  private mark(sessionId: string, marks: ReadonlyArray<{ seq: number; by: number }>): void {
    for (const { seq, by } of marks) {
      const row = this.rows.get(key(sessionId, seq));
      if (row) row.supersededBy = by;
    }
  }

  /** Writes one record durably before memory changes, so a failed write changes nothing. */
  private append(record: unknown): void {
    this.write(`${JSON.stringify(record)}\n`);
  }

  private write(text: string): void {
    if (this.path === ':memory:') return;
    const fd = this.fd;
    if (fd === undefined) throw new ArchiveError(`The archive ${this.path} is closed; reopen the session.`, 'archive_closed');
    io(this.path, () => {
      const before = fstatSync(fd).size;
      writeSync(fd, text);
      fsyncSync(fd);
      // Not read back at the next catch-up, unless another writer appended around it.
      this.tail?.skipOwn(text, before, fstatSync(fd).size);
    });
  }
}

/** Opens (creating if needed) the JSON Lines archive at `path`; ':memory:' for a throwaway one. */
export function openJsonlArchive(path: string): JsonlArchiveStore {
  return new JsonlArchiveStore(path);
}

function key(sessionId: string, seq: number): string {
  return `${seq}\u0000${sessionId}`;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function parseJson(line: string): unknown {
  try {
    return JSON.parse(line) as unknown;
  } catch {
    return undefined;
  }
}

/** Runs file work, turning Node's errors into ArchiveErrors that say what to do. */
function io<T>(path: string, work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (error instanceof ArchiveError) throw error;
    const code = (error as { code?: string }).code ?? 'unknown';
    throw new ArchiveError(`The archive ${path} cannot be read or written (${code}). Check the folder exists, is writable and has free space.`, 'archive_io');
  }
}
