import type { ArchivedExchange, ArchiveSearchHit, ArchiveStore } from '../../src/engine/ports';
import { ArchiveError } from '../../src/engine/ports';

/** An in-memory ArchiveStore for engine unit tests; `failWrites` simulates a locked database. */
export class MemoryArchive implements ArchiveStore {
  readonly rows = new Map<string, ArchivedExchange>();
  failWrites = false;

  put(exchange: ArchivedExchange): void {
    if (this.failWrites) throw new ArchiveError('The archive database is locked by another process; close the other Strata window or wait.', 'archive_locked');
    for (const old of exchange.supersedes ?? []) {
      const row = this.get(exchange.sessionId, old);
      if (row) row.supersededBy = exchange.seq;
    }
    this.rows.set(`${exchange.sessionId}#${exchange.seq}`, structuredClone(exchange));
  }
  get(sessionId: string, seq: number): ArchivedExchange | undefined {
    return this.rows.get(`${sessionId}#${seq}`);
  }
  lastSeq(sessionId: string): number {
    let last = 0;
    for (const row of this.rows.values()) if (row.sessionId === sessionId) last = Math.max(last, row.seq);
    return last;
  }
  search(): ArchiveSearchHit[] {
    return [];
  }
  updateTrio(sessionId: string, seq: number, header: string, summary: string): void {
    const row = this.get(sessionId, seq);
    if (row) Object.assign(row, { header, summary });
  }
  listSessions(): string[] {
    return [...new Set([...this.rows.values()].map((r) => r.sessionId))];
  }
  close(): void {}
}
