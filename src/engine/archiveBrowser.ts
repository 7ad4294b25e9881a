import type { ArchivedExchange, ArchiveSearchHit } from './ports';

/**
 * What the archive offers front ends that browse and maintain it (the editor's archive tree,
 * session pickers, import). The engine never uses it: it needs only `ArchiveStore`, which
 * this port leaves as it is. `SqliteArchiveStore` and `JsonlArchiveStore` implement both.
 */

/** One archived session as a list shows it. Times are ms since epoch. */
export interface ArchivedSessionInfo {
  id: string;
  /** The first user message of the session, on one line and cut short (`sessionTitle`); '' when it has none. */
  title: string;
  firstAt: number;
  lastAt: number;
  exchanges: number;
}

/** One archived exchange without its messages. */
export interface ArchivedExchangeInfo {
  sessionId: string;
  seq: number;
  createdAt: number;
  header: string;
  summary: string;
}

/** What `deleteSession` removed: rows of `exchanges`, and stored texts no other session uses. */
export interface DeletedSession {
  exchanges: number;
  blobs: number;
}

/** Read and maintenance access to the archive. Methods throw `ArchiveError` with a user-facing message. */
export interface ArchiveBrowser {
  readonly path: string;
  /** Every session that holds at least one exchange, newest activity first. */
  sessions(): ArchivedSessionInfo[];
  /** The session's exchanges in seq order; [] for an unknown session. */
  exchanges(sessionId: string): ArchivedExchangeInfo[];
  get(sessionId: string, seq: number): ArchivedExchange | undefined;
  /** Full-text search over every session (header, summary, body), best first. */
  searchAll(query: string, limit: number): ArchiveSearchHit[];
  /** Removes the session, its exchanges, their search rows and unshared blobs, at once (one transaction, or one appended record). */
  deleteSession(sessionId: string): DeletedSession;
  close(): void;
}
