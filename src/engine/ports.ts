/**
 * The engine's only doors to the outside world. Adapters in `src/adapters/` implement them;
 * tests may pass simple in-memory versions. Nothing here imports a third-party library.
 */

/** Counts model tokens. Must be linear in the input length and deterministic. */
export interface Tokenizer {
  /** Estimated model tokens of `text` (already corrected by the learned factor). */
  count(text: string): number;
  /** Feed the usage the API reported for a request whose estimate was `estimated`. */
  observe(estimated: number, reported: number): void;
  /**
   * True once `observe` has taken at least one reported usage, so `count` is corrected for the
   * model's real tokenizer; until then the engine keeps a safety margin off the budget.
   */
  learned(): boolean;
}

/** How an exchange is fetched back from the archive. */
export type RetrievalFormat = 'header' | 'summary' | 'full' | 'mixed';

/** One exchange as the archive keeps it: the trio plus what the index needs. */
export interface ArchivedExchange {
  sessionId: string;
  /** Monotonic per session, starting at 1; the id shown to the model is `e${seq}`. */
  seq: number;
  /** Milliseconds since epoch, from the Clock port. */
  createdAt: number;
  header: string;
  summary: string;
  /** The exchange's messages (input then answer), verbatim. */
  full: import('../shared/messages').Message[];
  /** Model tokens of `full` as sent uncompressed. */
  tokens: number;
  /** Set when an edited, resent message replaced this exchange: the seq of that new exchange. */
  supersededBy?: number;
  /**
   * On the exchange of a resent message: the seqs it superseded. `put` marks their rows in the
   * same transaction, so the archive never shows a resend half done.
   */
  supersedes?: number[];
}

export interface ArchiveSearchHit {
  sessionId: string;
  seq: number;
  header: string;
  /** FTS5 snippet around the match. */
  snippet: string;
  /** Set when the hit is a superseded exchange (see ArchivedExchange). */
  supersededBy?: number;
}

/**
 * Durable store of every exchange (L5). Writes are idempotent per (session, seq); a seq once
 * written is never reused, but a missing one may be filled later (a write that failed and was
 * retried). Each `put` is all or nothing. Implementations raise `ArchiveError` with a
 * user-facing message; code `archive_locked` means "try again shortly".
 */
export interface ArchiveStore {
  /** Where the archive lives (a file path), for messages; absent for in-memory stores. */
  readonly path?: string;
  put(exchange: ArchivedExchange): void;
  get(sessionId: string, seq: number): ArchivedExchange | undefined;
  /** Highest seq stored for the session, 0 when none. */
  lastSeq(sessionId: string): number;
  search(sessionId: string, query: string, limit: number): ArchiveSearchHit[];
  /** Replace the header and summary (the model's housekeeping arrives after the exchange). */
  updateTrio(sessionId: string, seq: number, header: string, summary: string): void;
  listSessions(): string[];
  close(): void;
}

export interface SummarizeRequest {
  /** Exactly the body that would go to `messages.create`: instructions in system, text in messages. */
  request: import('../shared/messages').MessagesRequest;
  /** Upper bound for the answer, in model tokens. */
  maxOutputTokens: number;
}

export interface SummarizeResult {
  text: string;
  inputTokens: number;
  outputTokens: number;
}

/** Produces a condensed summary: an LLM call in the extension, extractive offline. */
export interface Summarizer {
  summarize(request: SummarizeRequest, signal?: AbortSignal): Promise<SummarizeResult>;
}

export interface Clock {
  /** Milliseconds since epoch. */
  now(): number;
}

export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

import { StrataError } from '../shared/strataError';

export { StrataError };

/** An archive failure the user can act on; `code` names it (archive_locked, archive_corrupt, archive_io, ...). */
export class ArchiveError extends StrataError {
  constructor(message: string, code: string) {
    super(message, code);
    this.name = 'ArchiveError';
  }
}
