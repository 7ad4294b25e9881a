import { describe, expect, it } from 'vitest';
import { ArchiveWriteQueue, failureKind, MAX_ATTEMPTS } from '../../src/engine/archiveWriteQueue';
import type { ArchivedExchange } from '../../src/engine/ports';
import { ArchiveError } from '../../src/engine/ports';
import { MemoryArchive } from '../support/memoryArchive';

const locked = () => new ArchiveError('The archive /data/a.sqlite is locked by another process.', 'archive_locked');
const full = () => new ArchiveError('The archive /data/a.sqlite cannot be written (SQLITE_FULL). Check the folder exists, is writable and has free space.', 'archive_io');
const corrupt = () => new ArchiveError('/data/a.sqlite is not a readable Strata archive (SQLITE_CORRUPT). Move it away (it was not changed) and Strata will start a new archive.', 'archive_corrupt');

/** A store whose writes of a given seq throw the listed errors, one per attempt, then succeed. */
class FlakyArchive extends MemoryArchive {
  readonly path = '/data/a.sqlite';
  readonly failPut = new Map<number, Error[]>();
  readonly failTrio = new Map<number, Error[]>();
  readonly attempts: string[] = [];

  override put(exchange: ArchivedExchange): void {
    this.attempts.push(`put e${exchange.seq}`);
    const error = this.failPut.get(exchange.seq)?.shift();
    if (error) throw error;
    super.put(exchange);
  }

  override updateTrio(sessionId: string, seq: number, header: string, summary: string): void {
    this.attempts.push(`trio e${seq}`);
    const error = this.failTrio.get(seq)?.shift();
    if (error) throw error;
    super.updateTrio(sessionId, seq, header, summary);
  }
}

function recordingLogger() {
  const lines: string[] = [];
  return { lines, info: (m: string) => lines.push(`info: ${m}`), warn: (m: string) => lines.push(`warn: ${m}`), error: (m: string) => lines.push(`error: ${m}`) };
}

function ex(seq: number): ArchivedExchange {
  return { sessionId: 's', seq, createdAt: seq, header: `e${seq} header`, summary: `e${seq} summary`, full: [{ role: 'user', content: [{ type: 'text', text: `input ${seq}` }] }], tokens: seq };
}

function setup() {
  const store = new FlakyArchive();
  const logger = recordingLogger();
  return { store, logger, queue: new ArchiveWriteQueue(store, logger) };
}

describe('ArchiveWriteQueue: every exchange written on its own', () => {
  it('retries a write that fails twice and succeeds the third time, and counts it pending meanwhile', () => {
    const { store, queue, logger } = setup();
    store.failPut.set(1, [full(), full()]);
    queue.put(ex(1));
    expect(queue.drain()).toHaveLength(1);
    expect(queue.pendingCount).toBe(1);
    expect(queue.pendingExchange('s', 1)).toEqual(ex(1));
    expect(queue.drain()).toEqual([]); // the second failure of the same write is not told again
    expect(queue.pendingCount).toBe(1);
    expect(queue.drain()).toEqual([]);
    expect(queue.pendingCount).toBe(0);
    expect(store.get('s', 1)).toEqual(ex(1));
    expect(store.attempts).toEqual(['put e1', 'put e1', 'put e1']);
    expect(logger.lines.filter((l) => l.startsWith('warn'))).toHaveLength(1);
    expect(logger.lines.at(-1)).toMatch(/e1 archived after 3 attempts/);
  });

  it('does not let one failing exchange hold the others back, and tries them in seq order', () => {
    const { store, queue } = setup();
    store.failPut.set(1, [full(), full()]);
    queue.put(ex(1));
    queue.drain();
    queue.put(ex(2));
    queue.drain();
    expect(store.get('s', 2)).toBeDefined();
    expect(store.get('s', 1)).toBeUndefined();
    expect(queue.pendingCount).toBe(1);
    queue.put(ex(3));
    queue.drain();
    expect(store.attempts).toEqual(['put e1', 'put e1', 'put e2', 'put e1', 'put e3']);
    expect([1, 2, 3].map((seq) => store.get('s', seq))).toEqual([ex(1), ex(2), ex(3)]);
    expect(queue.pendingCount).toBe(0);
  });

  it('ends a pass at a locked file (each try waits out the busy timeout) and resumes with the oldest write', () => {
    const { store, queue } = setup();
    store.failPut.set(1, [locked()]);
    queue.put(ex(1));
    queue.drain();
    store.failPut.set(1, [locked()]);
    queue.put(ex(2));
    queue.drain();
    expect(store.attempts).toEqual(['put e1', 'put e1']);
    expect(queue.pendingCount).toBe(2);
    queue.drain();
    expect(store.attempts).toEqual(['put e1', 'put e1', 'put e1', 'put e2']);
    expect(queue.pendingCount).toBe(0);
  });

  it('keeps retrying a locked archive without giving up, and says what really happens', () => {
    const { store, queue } = setup();
    store.failPut.set(1, Array.from({ length: MAX_ATTEMPTS * 3 }, locked));
    queue.put(ex(1));
    const first = queue.drain();
    expect(first.join()).toMatch(/locked by another process/);
    expect(first.join()).toMatch(/retried after each exchange and when the session closes/);
    expect(first.join()).not.toMatch(/with the next one/);
    for (let i = 1; i < MAX_ATTEMPTS * 3; i++) expect(queue.drain()).toEqual([]);
    expect(queue.pending()[0]).toMatchObject({ seq: 1, permanent: false, attempts: MAX_ATTEMPTS * 3 });
    queue.drain();
    expect(store.get('s', 1)).toBeDefined();
  });

  it('gives up retrying a full disk after MAX_ATTEMPTS, naming the file and what to do', () => {
    const { store, queue } = setup();
    store.failPut.set(1, Array.from({ length: MAX_ATTEMPTS + 1 }, full));
    queue.put(ex(1));
    const told: string[] = [];
    for (let i = 0; i < MAX_ATTEMPTS + 2; i++) told.push(...queue.drain());
    expect(store.attempts).toHaveLength(MAX_ATTEMPTS);
    expect(told).toHaveLength(2);
    expect(told[1]).toContain(`could not be archived after ${MAX_ATTEMPTS} attempts`);
    expect(told[1]).toContain('/data/a.sqlite');
    expect(told[1]).toContain('free space');
    expect(told[1]).toMatch(/lost if the process ends first/);
    expect(queue.pending()[0]).toMatchObject({ permanent: true });
  });

  it('treats a corrupt file as permanent at once; a later successful write makes it try again', () => {
    const { store, queue } = setup();
    store.failPut.set(1, [corrupt()]);
    queue.put(ex(1));
    expect(queue.drain()[0]).toMatch(/could not be archived: .*a\.sqlite.*Move it away/);
    expect(queue.pending()[0]).toMatchObject({ seq: 1, permanent: true, attempts: 1 });
    expect(queue.drain()).toEqual([]);
    expect(store.attempts).toEqual(['put e1']); // a permanent write is not retried on every pass
    queue.put(ex(2));
    queue.drain();
    expect(store.attempts).toEqual(['put e1', 'put e2', 'put e1']);
    expect(store.get('s', 1)).toEqual(ex(1));
  });

  it('flush tries permanent writes too and lists what is still pending', () => {
    const { store, queue } = setup();
    store.failPut.set(1, [corrupt(), corrupt()]);
    store.failPut.set(2, [locked()]);
    queue.put(ex(1));
    queue.put(ex(2));
    queue.drain();
    const report = queue.flush();
    expect(store.attempts).toEqual(['put e1', 'put e2', 'put e1', 'put e2']);
    expect(report.pending.map((p) => p.seq)).toEqual([1]);
    expect(report.problems.at(-1)).toMatch(/1 archive write still pending \(e1\); they are lost if the process ends now/);
    expect(queue.flush()).toEqual({ pending: [], problems: [] });
    expect(store.get('s', 1)).toBeDefined();
  });

  it('retries a failed summary update, and folds one for a queued exchange into that exchange', () => {
    const { store, queue } = setup();
    queue.put(ex(1));
    queue.drain();
    store.failTrio.set(1, [locked()]);
    queue.updateTrio('s', 1, 'model header', 'model summary');
    expect(queue.drain()).toHaveLength(1);
    expect(queue.pending()[0]).toMatchObject({ kind: 'trio', seq: 1 });
    queue.drain();
    expect(store.get('s', 1)).toMatchObject({ header: 'model header', summary: 'model summary' });

    store.failPut.set(2, [locked()]);
    queue.put(ex(2));
    queue.drain();
    queue.updateTrio('s', 2, 'h2', 's2');
    expect(queue.pendingCount).toBe(1);
    expect(queue.pendingExchange('s', 2)).toMatchObject({ header: 'h2', summary: 's2' });
    queue.drain();
    expect(store.get('s', 2)).toMatchObject({ header: 'h2', summary: 's2' });
    expect(store.attempts.filter((a) => a.startsWith('trio'))).toEqual(['trio e1', 'trio e1']);
  });

  it('reports the highest queued seq per session (what resuming and retrieval must see)', () => {
    const { store, queue } = setup();
    store.failPut.set(4, [locked()]);
    queue.put(ex(4));
    queue.drain();
    expect(queue.lastPendingSeq('s')).toBe(4);
    expect(queue.lastPendingSeq('other')).toBe(0);
  });

  it('sorts failures: a lock passes, damage and conflicts are permanent, the rest is retried', () => {
    expect(failureKind(locked())).toBe('passing');
    expect(failureKind(corrupt())).toBe('permanent');
    expect(failureKind(new ArchiveError('newer', 'archive_version'))).toBe('permanent');
    expect(failureKind(new ArchiveError('conflict', 'archive_conflict'))).toBe('permanent');
    expect(failureKind(full())).toBe('retry');
    expect(failureKind(new Error('driver bug'))).toBe('retry');
  });
});
