import type { ArchivedExchange, ArchiveStore, Logger } from './ports';
import { StrataError } from './ports';

/** How a failed archive write is treated: retried on every pass, retried a few times, or given up on. */
export type FailureKind = 'passing' | 'retry' | 'permanent';

/** A write the queue still holds: an exchange to put, or new header/summary for one already stored. */
export interface PendingWrite {
  kind: 'put' | 'trio';
  sessionId: string;
  seq: number;
  /** Failed attempts so far (0 while never tried). */
  attempts: number;
  /** True once the queue stopped retrying it on its own (only a flush tries it again). */
  permanent: boolean;
  lastError?: string;
}

interface Job extends PendingWrite {
  exchange?: ArchivedExchange;
  trio?: { header: string; summary: string };
}

/** What a flush left behind: the writes still pending and why. */
export interface FlushReport {
  pending: PendingWrite[];
  problems: string[];
}

/**
 * Failed writes of kind 'retry' (a full or read-only disk, an unknown error) become permanent
 * after this many attempts; a locked archive ('passing') is retried without limit.
 */
export const MAX_ATTEMPTS = 3;

/**
 * Archive writes, each on its own. A write that fails stays queued and is retried on the next
 * pass (after the next exchange, and on flush) without holding the others back: every pass
 * tries every retryable write in seq order, except that a locked file ends the pass (the lock
 * is the whole file's, and each try waits out the busy timeout). A locked archive is retried without limit; a
 * corrupt or newer archive, or a conflicting id, is permanent at once; a write failing for
 * other reasons (full or read-only disk) is permanent after MAX_ATTEMPTS. Permanent writes are
 * tried again only when another write has just succeeded (the store works again) or on flush.
 * Pending exchanges stay readable through `pendingExchange` so nothing disappears in between.
 */
export class ArchiveWriteQueue {
  private readonly jobs: Job[] = [];

  constructor(
    private readonly archive: ArchiveStore,
    private readonly logger: Logger,
  ) {}

  /** Writes not yet in the archive (puts and header/summary updates). */
  get pendingCount(): number {
    return this.jobs.length;
  }

  /** A snapshot of what is pending, oldest seq first. */
  pending(): PendingWrite[] {
    return this.jobs.map(({ kind, sessionId, seq, attempts, permanent, lastError }) => ({ kind, sessionId, seq, attempts, permanent, ...(lastError !== undefined ? { lastError } : {}) }));
  }

  /** Queues an exchange; a write for a (session, seq) already queued is replaced. */
  put(exchange: ArchivedExchange): void {
    this.remove(exchange.sessionId, exchange.seq);
    this.insert({ kind: 'put', sessionId: exchange.sessionId, seq: exchange.seq, attempts: 0, permanent: false, exchange });
  }

  /** Queues a header/summary update; folded into the exchange itself when its put is still queued. */
  updateTrio(sessionId: string, seq: number, header: string, summary: string): void {
    const waiting = this.find(sessionId, seq);
    if (waiting?.exchange) {
      waiting.exchange = { ...waiting.exchange, header, summary };
      return;
    }
    this.remove(sessionId, seq);
    this.insert({ kind: 'trio', sessionId, seq, attempts: 0, permanent: false, trio: { header, summary } });
  }

  /**
   * Marks queued exchanges superseded by `by` (their rows get the mark when written). Rows
   * already stored are marked by the put of `by` itself (its `supersedes`).
   */
  markSuperseded(sessionId: string, seqs: readonly number[], by: number): void {
    for (const seq of seqs) {
      const waiting = this.find(sessionId, seq);
      if (waiting?.exchange) waiting.exchange = { ...waiting.exchange, supersededBy: by };
    }
  }

  /** The queued exchange (with its latest header and summary), if its put has not succeeded yet. */
  pendingExchange(sessionId: string, seq: number): ArchivedExchange | undefined {
    return this.find(sessionId, seq)?.exchange;
  }

  /** Highest seq of a queued put for the session, 0 when none. */
  lastPendingSeq(sessionId: string): number {
    let last = 0;
    for (const job of this.jobs) if (job.exchange && job.sessionId === sessionId) last = Math.max(last, job.seq);
    return last;
  }

  /**
   * One pass: tries every write that is not permanent, in seq order, each on its own; if one
   * succeeds, permanent ones are tried once more too. Returns new problems worth telling the user.
   */
  drain(): string[] {
    const first = this.pass((job) => !job.permanent);
    if (!first.wrote || !this.jobs.some((j) => j.permanent)) return first.problems;
    return [...first.problems, ...this.pass((job) => job.permanent).problems];
  }

  /** Tries every pending write, permanent ones included; reports what is still pending. */
  flush(): FlushReport {
    const { problems } = this.pass(() => true);
    const pending = this.pending();
    if (pending.length > 0) problems.push(this.stillPendingMessage(pending));
    return { pending, problems };
  }

  private pass(select: (job: Job) => boolean): { problems: string[]; wrote: boolean } {
    let wrote = false;
    const problems: string[] = [];
    for (const job of this.jobs.filter(select)) {
      const error = this.attempt(job);
      if (error === undefined) {
        wrote = true;
        this.jobs.splice(this.jobs.indexOf(job), 1);
        if (job.attempts > 0) this.logger.info(`${label(job)} archived after ${job.attempts + 1} attempts.`);
        continue;
      }
      const problem = this.recordFailure(job, error);
      if (problem) {
        this.logger.warn(problem);
        problems.push(problem);
      }
      // A lock holds the whole file and each try waits out the busy timeout: the rest wait for the next pass.
      if (failureKind(error) === 'passing') break;
    }
    return { problems, wrote };
  }

  private attempt(job: Job): unknown {
    try {
      if (job.exchange) this.archive.put(job.exchange);
      else if (job.trio) this.archive.updateTrio(job.sessionId, job.seq, job.trio.header, job.trio.summary);
      return undefined;
    } catch (error) {
      return error ?? new Error('unknown failure');
    }
  }

  /** Updates the job after a failed attempt; returns a message when the user should hear of it. */
  private recordFailure(job: Job, error: unknown): string | undefined {
    job.attempts += 1;
    const kind = failureKind(error);
    const reason = describe(error, this.archive.path);
    const firstTime = job.lastError === undefined;
    job.lastError = reason;
    if (job.permanent) return undefined;
    if (kind === 'permanent' || (kind === 'retry' && job.attempts >= MAX_ATTEMPTS)) {
      job.permanent = true;
      const tries = job.attempts > 1 ? ` after ${job.attempts} attempts` : '';
      return `${label(job)} could not be archived${tries}: ${reason} It stays readable in this session and is tried again when another write succeeds and when the session closes; it is lost if the process ends first.`;
    }
    if (!firstTime) return undefined;
    return `${label(job)} was not archived yet: ${reason} It stays in memory and is retried after each exchange and when the session closes (${this.jobs.length} write${this.jobs.length === 1 ? '' : 's'} waiting).`;
  }

  private stillPendingMessage(pending: PendingWrite[]): string {
    const names = pending.map((p) => (p.kind === 'put' ? `e${p.seq}` : `e${p.seq} (summary)`)).join(', ');
    const last = pending[pending.length - 1]?.lastError ?? '';
    return `${pending.length} archive write${pending.length === 1 ? '' : 's'} still pending (${names}); they are lost if the process ends now. Last error: ${last}`;
  }

  private find(sessionId: string, seq: number): Job | undefined {
    return this.jobs.find((j) => j.sessionId === sessionId && j.seq === seq);
  }

  private remove(sessionId: string, seq: number): void {
    const at = this.jobs.findIndex((j) => j.sessionId === sessionId && j.seq === seq);
    if (at >= 0) this.jobs.splice(at, 1);
  }

  /** Keeps jobs sorted by seq so every pass writes in the order the exchanges happened. */
  private insert(job: Job): void {
    let at = this.jobs.length;
    while (at > 0 && this.jobs[at - 1]!.seq > job.seq) at -= 1;
    this.jobs.splice(at, 0, job);
  }
}

/**
 * Sorts an archive error: a lock passes (another process holds it for a moment); a corrupt or
 * newer file, or an id already used for other content, will not fix itself; anything else
 * (full or read-only disk, a missing folder, an unknown error) may, and is retried a few times.
 */
export function failureKind(error: unknown): FailureKind {
  const code = error instanceof StrataError ? error.code : '';
  if (code === 'archive_locked') return 'passing';
  if (code === 'archive_corrupt' || code === 'archive_version' || code === 'archive_conflict') return 'permanent';
  return 'retry';
}

function describe(error: unknown, path: string | undefined): string {
  if (error instanceof StrataError) return error.message;
  const where = path ? ` to ${path}` : '';
  return `Writing${where} failed: ${error instanceof Error ? error.message : String(error)}.`;
}

function label(job: PendingWrite): string {
  return job.kind === 'put' ? `Exchange e${job.seq}` : `The new summary of e${job.seq}`;
}
