import { closeSync, existsSync, fsyncSync, openSync, readFileSync, writeSync } from 'node:fs';
import { z } from 'zod';
import { searchableText } from '../engine/blockTokens';
import type { ArchivedExchange, ArchiveSearchHit, ArchiveStore } from '../engine/ports';
import { ArchiveError } from '../engine/ports';
import type { Message } from '../shared/messages';
import { archivedBodySchema } from './archivedBodySchema';
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
]);
type ArchiveRecord = z.infer<typeof recordSchema>;

/**
 * The archive without SQLite, for an editor whose runtime cannot load the native driver: one
 * JSON record per line (exchanges, trio updates, tokenizer factors), appended and fsynced, read
 * whole at open. Same contract as the SQLite store (ids never reused, gaps fillable, word
 * search), but no blob sharing, and one process at a time: a second window's writes are seen
 * only at the next open. `':memory:'` keeps it in memory only.
 */
export class JsonlArchiveStore implements ArchiveStore {
  private readonly rows = new Map<string, ArchivedExchange>();
  private readonly sessions = new Map<string, number>();
  private readonly factors = new Map<string, number>();
  private fd: number | undefined;
  /** Lines (1-based) that did not parse and were skipped; the file keeps them as they were. */
  readonly damagedLines: number[] = [];

  constructor(readonly path: string) {
    if (path === ':memory:') return;
    const existed = existsSync(path);
    const text = existed ? io(path, () => readFileSync(path, 'utf8')) : '';
    if (text.trim().length > 0) this.load(text);
    this.fd = io(path, () => openSync(path, 'a'));
    // A line cut by a crash mid-write stays a damaged line of its own, not the start of the next record.
    if (text.length > 0 && !text.endsWith('\n')) this.write('\n');
    if (text.trim().length === 0) this.append({ strata_archive: FORMAT });
  }

  /** As SQLite's: `supersedes` marks those rows (present ones) with this seq, in the same record. */
  put(exchange: ArchivedExchange): void {
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
    const row = this.rows.get(key(sessionId, seq));
    return row && structuredClone(row);
  }

  lastSeq(sessionId: string): number {
    let last = 0;
    for (const row of this.rows.values()) if (row.sessionId === sessionId) last = Math.max(last, row.seq);
    return last;
  }

  search(sessionId: string, query: string, limit: number): ArchiveSearchHit[] {
    const phrases = queryPhrases(query);
    if (phrases.length === 0) return [];
    const hits: Array<ArchiveSearchHit & { score: number }> = [];
    for (const row of this.rows.values()) {
      if (row.sessionId !== sessionId) continue;
      const match = matchDocument([row.header, row.summary, searchableText(row.full)], phrases);
      if (match) hits.push({ sessionId, seq: row.seq, header: row.header, snippet: match.snippet, score: match.score, ...(row.supersededBy !== undefined ? { supersededBy: row.supersededBy } : {}) });
    }
    hits.sort((a, b) => b.score - a.score || a.seq - b.seq);
    return hits.slice(0, Math.max(1, Math.floor(limit))).map(({ score: _score, ...hit }) => hit);
  }

  updateTrio(sessionId: string, seq: number, header: string, summary: string): void {
    if (!this.rows.has(key(sessionId, seq))) return;
    const record: ArchiveRecord = { t: 'trio', sessionId, seq, header, summary };
    this.append(record);
    this.apply(record);
  }

  /** The tokenizer correction learned for `model` in an earlier session, if any. */
  tokenFactor(model: string): number | undefined {
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
    return [...this.sessions.entries()].sort((a, b) => a[1] - b[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map(([id]) => id);
  }

  close(): void {
    if (this.fd === undefined) return;
    closeSync(this.fd);
    this.fd = undefined;
  }

  private load(text: string): void {
    const lines = text.split('\n');
    let good = 0;
    lines.forEach((line, i) => {
      if (line.trim().length === 0) return;
      const raw = parseJson(line);
      const header = headerSchema.safeParse(raw);
      if (header.success) {
        if (header.data.strata_archive > FORMAT) {
          throw new ArchiveError(`The archive ${this.path} was written by a newer Strata (format ${header.data.strata_archive}, this one knows ${FORMAT}). Update Strata to open it; the file was not changed.`, 'archive_version');
        }
        good++;
        return;
      }
      const record = recordSchema.safeParse(raw);
      if (!record.success) return void this.damagedLines.push(i + 1);
      good++;
      this.apply(record.data);
    });
    if (good === 0) throw new ArchiveError(`${this.path} is not a readable Strata archive (no line of it is a Strata record). Move it away (it was not changed) and Strata will start a new archive.`, 'archive_corrupt');
  }

  /** Applies a record to memory; a put that repeats a seq already read keeps the first (ids are never reused). */
  private apply(record: ArchiveRecord): void {
    if (record.t === 'factor') return void this.factors.set(record.model, record.factor);
    if (record.t === 'mark') return this.mark(record.sessionId, record.marks);
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
    if (!this.sessions.has(record.sessionId)) this.sessions.set(record.sessionId, record.createdAt);
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
      writeSync(fd, text);
      fsyncSync(fd);
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
