import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ArchivedExchange } from '../../src/engine/ports';
import { ArchiveError, StrataError } from '../../src/engine/ports';
import { openSqliteArchive } from '../../src/adapters/sqliteArchiveStore';
import type { ArchiveStore, Logger } from '../../src/engine/ports';
import { ContextEngine } from '../../src/engine/contextEngine';
import { ExtractiveSummarizer } from '../../src/engine/extractiveSummarizer';
import { resolveEngineSettings } from '../../src/shared/engineSettings';
import { parseSessionText } from '../../src/shared/sessionSchema';
import { replaySession } from '../../src/host/replaySession';
import type { ReplayTurn } from '../../src/host/replaySession';
import { PROTOCOL_INSTRUCTIONS } from '../../src/engine/protocolText';
import { steppingClock } from '../../src/adapters/systemClock';
import { MemoryArchive } from '../support/memoryArchive';
import { assistant, charTokenizer, silentLogger, text, user } from '../support/engineHarness';
import { useTempDirs } from '../support/tempDirs';
import { withRawDb } from '../support/rawSqlite';
import { DRIVERS, openRaw } from '../support/sqliteDrivers';
import type { SqliteConnection } from '../../src/adapters/sqliteDriver';

function engineOn(archive: ArchiveStore, logger: Logger = silentLogger): ContextEngine {
  return new ContextEngine({
    sessionId: 's1',
    settings: resolveEngineSettings({}),
    tokenizer: charTokenizer,
    archive,
    summarizer: new ExtractiveSummarizer(charTokenizer),
    clock: steppingClock(Date.UTC(2025, 0, 1), 60_000),
    logger,
    systemPrompt: 'You are a test agent.',
  });
}

const tempDir = useTempDirs('strata-durability-');
function tempPath(): string {
  return join(tempDir(), 'archive.sqlite');
}

/** An exchange whose tool output is long enough to be stored as a blob, unique per `tag`. */
function exchange(seq: number, tag = `e${seq}`): ArchivedExchange {
  const big = Array.from({ length: 50 }, (_, i) => `${tag} line ${i}: export const value${i} = ${i};`).join('\n');
  return {
    sessionId: 's',
    seq,
    createdAt: 1_700_000_000_000 + seq,
    header: `e${seq} Read app.ts`,
    summary: `e${seq}: read it`,
    tokens: 100 + seq,
    full: [
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: `t${seq}`, content: big }] },
      { role: 'assistant', content: [{ type: 'text', text: `answer ${seq}` }] },
    ],
  };
}

function rawCounts(path: string): { exchanges: number; blobs: number; fts: number; blobTexts: string[] } {
  return withRawDb(path, (db) => {
    const n = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
    const blobTexts = (db.prepare('SELECT text FROM blobs').all() as Array<{ text: string }>).map((r) => r.text);
    return { exchanges: n('SELECT COUNT(*) AS n FROM exchanges'), blobs: n('SELECT COUNT(*) AS n FROM blobs'), fts: n('SELECT COUNT(*) AS n FROM exchanges_fts'), blobTexts };
  }, { readonly: true });
}

describe.each(DRIVERS)('SQLite archive: one transaction per exchange, blobs included (on $name)', ({ driver }) => {
  it('leaves no blob behind when an exchange fails half-way through its write', () => {
    const path = tempPath();
    const archive = openSqliteArchive(path, { driver });
    archive.put(exchange(1));
    // Another connection makes the row insert of e2 fail after its blob rows were written.
    const other = openRaw(path);
    other.exec("CREATE TRIGGER fail_e2 BEFORE INSERT ON exchanges WHEN NEW.seq = 2 BEGIN SELECT RAISE(ABORT, 'disk trouble'); END");
    expect(() => archive.put(exchange(2))).toThrow(ArchiveError);
    let counts = rawCounts(path);
    expect(counts).toMatchObject({ exchanges: 1, blobs: 1, fts: 1 });
    expect(counts.blobTexts.some((t) => t.includes('e2 line'))).toBe(false);
    other.exec('DROP TRIGGER fail_e2');
    other.close();
    archive.put(exchange(2));
    counts = rawCounts(path);
    expect(counts).toMatchObject({ exchanges: 2, blobs: 2, fts: 2 });
    expect(archive.get('s', 2)).toEqual(exchange(2));
    archive.close();
  });

  it('leaves no blob behind when an id is refused for other content', () => {
    const path = tempPath();
    const archive = openSqliteArchive(path, { driver });
    archive.put(exchange(1));
    const error = (() => {
      try {
        archive.put(exchange(1, 'different'));
      } catch (e) {
        return e as ArchiveError;
      }
      return undefined;
    })();
    expect(error?.code).toBe('archive_conflict');
    expect(error?.message).toContain(path);
    expect(rawCounts(path).blobTexts.some((t) => t.includes('different line'))).toBe(false);
    archive.close();
  });

  it('fills a missing id below the last one (a retried write), but never rewrites a stored one', () => {
    const path = tempPath();
    const archive = openSqliteArchive(path, { driver });
    archive.put(exchange(1));
    archive.put(exchange(3));
    archive.put(exchange(2));
    expect(archive.lastSeq('s')).toBe(3);
    expect([1, 2, 3].map((seq) => archive.get('s', seq))).toEqual([exchange(1), exchange(2), exchange(3)]);
    expect(() => archive.put(exchange(2, 'other'))).toThrow(/already archived with other content/);
    archive.close();
  });

  it('runs with synchronous = FULL unless asked for NORMAL (temporary archives)', () => {
    const read = (options?: { synchronous: 'NORMAL' | 'FULL' }) => {
      const archive = openSqliteArchive(tempPath(), options);
      const db = (archive as unknown as { db: SqliteConnection }).db;
      const level = (db.prepare('PRAGMA synchronous').get() as { synchronous: number }).synchronous;
      archive.close();
      return level;
    };
    expect(read()).toBe(2);
    expect(read({ synchronous: 'NORMAL' })).toBe(1);
  });
});

describe('ContextEngine.flush() and close()', () => {
  async function oneExchange(engine: ContextEngine, answer: string) {
    engine.beginExchange(user(text(`question before ${answer}`)));
    await engine.assemble();
    return engine.completeExchange(assistant(text(answer)));
  }

  it('flush writes what a locked archive held back and reports nothing pending', async () => {
    const archive = new MemoryArchive();
    const engine = engineOn(archive);
    archive.failWrites = true;
    const { problems } = await oneExchange(engine, 'first');
    expect(problems.join()).toMatch(/not archived yet.*retried after each exchange/);
    expect(engine.pendingArchiveWrites).toBe(1);
    expect(engine.flush().pending.map((p) => p.seq)).toEqual([1]);
    archive.failWrites = false;
    expect(engine.flush()).toEqual({ pending: [], problems: [] });
    expect(engine.pendingArchiveWrites).toBe(0);
    expect(archive.get('s1', 1)!.full[1]!.content).toEqual([{ type: 'text', text: 'first' }]);
  });

  it('close flushes, then closes the archive; a closed engine refuses new exchanges', async () => {
    const archive = new (class extends MemoryArchive {
      closed = 0;
      override close(): void {
        this.closed += 1;
      }
    })();
    const engine = engineOn(archive);
    archive.failWrites = true;
    await oneExchange(engine, 'first');
    archive.failWrites = false;
    const report = engine.close();
    expect(report.pending).toEqual([]);
    expect(archive.get('s1', 1)).toBeDefined();
    expect(archive.closed).toBe(1);
    expect(engine.close()).toEqual({ pending: [], problems: [] });
    expect(archive.closed).toBe(1);
    expect(() => engine.beginExchange(user(text('more')))).toThrow(StrataError);
  });

  it('close reports, and logs as an error, the writes it could not do', async () => {
    const errors: string[] = [];
    const archive = new MemoryArchive();
    const engine = engineOn(archive, { ...silentLogger, error: (m) => errors.push(m) });
    archive.failWrites = true;
    await oneExchange(engine, 'first');
    await oneExchange(engine, 'second');
    const report = engine.close();
    expect(report.pending.map((p) => p.seq)).toEqual([1, 2]);
    expect(errors.join()).toMatch(/2 archive writes still pending \(e1, e2\)/);
  });

  it('a real SQLITE_BUSY is retried: the exchange waits while another process holds the lock, then is written', async () => {
    const path = tempPath();
    const engine = engineOn(openSqliteArchive(path, { busyTimeoutMs: 20 }));
    await oneExchange(engine, 'one');
    const other = openRaw(path);
    other.exec('BEGIN EXCLUSIVE');
    const { problems } = await oneExchange(engine, 'two');
    expect(problems.join()).toMatch(/e2 was not archived yet: .*locked by another process.*retried after each exchange/);
    expect(engine.pendingArchiveWrites).toBe(1);
    expect(engine.retrieve(['e2'], 'full')).toContain('two');
    other.exec('ROLLBACK');
    other.close();
    await oneExchange(engine, 'three');
    expect(engine.pendingArchiveWrites).toBe(0);
    engine.close();
    const reopened = openSqliteArchive(path);
    expect([1, 2, 3].map((seq) => reopened.get('s1', seq)?.full[1]!.content)).toEqual(['one', 'two', 'three'].map((t) => [{ type: 'text', text: t }]));
    reopened.close();
  });

  it('a real SQLite archive holds every exchange after close, read back from the file', async () => {
    const path = tempPath();
    const engine = engineOn(openSqliteArchive(path));
    for (const answer of ['one', 'two', 'three']) await oneExchange(engine, answer);
    expect(engine.close().pending).toEqual([]);
    const reopened = openSqliteArchive(path);
    expect(reopened.lastSeq('s1')).toBe(3);
    expect(reopened.get('s1', 3)!.full[1]!.content).toEqual([{ type: 'text', text: 'three' }]);
    reopened.close();
  });
});

describe('replaySession flushes its engine', () => {
  const lines = [
    JSON.stringify({ role: 'user', content: 'Read the config.' }),
    JSON.stringify({ role: 'assistant', content: [{ type: 'text', text: 'Reading it.' }] }),
    JSON.stringify({ role: 'user', content: 'Now the tests.' }),
    JSON.stringify({ role: 'assistant', content: [{ type: 'text', text: 'Done.' }] }),
  ];

  it('flushes at the end: what a locked archive held back is written before it returns', async () => {
    const archive = new MemoryArchive();
    archive.failWrites = true;
    const result = await replaySession(parseSessionText(lines.join('\n'), 'two.jsonl'), 'two', resolveEngineSettings({}), { tokenizer: charTokenizer, archive, logger: silentLogger }, () => undefined, {
      onArchived: (turn) => {
        expect(archive.rows.size).toBe(0);
        if (turn === 2) archive.failWrites = false;
      },
    });
    expect(result).toMatchObject({ turns: 2, unarchived: 0, interrupted: false });
    expect(archive.get('two', 1)).toBeDefined();
    expect(archive.get('two', 2)).toBeDefined();
  });

  it('reports as unarchived what the archive never took', async () => {
    const archive = new MemoryArchive();
    archive.failWrites = true;
    const result = await replaySession(parseSessionText(lines.join('\n'), 'two.jsonl'), 'two', resolveEngineSettings({}), { tokenizer: charTokenizer, archive, logger: silentLogger }, () => undefined);
    expect(result).toMatchObject({ turns: 2, unarchived: 2 });
    expect(result.problems.join('\n')).toMatch(/2 archive writes still pending \(e1, e2\)/);
  });

  it('refuses to replay into a session that already has exchanges unless resuming, and resumes after them', async () => {
    const session = parseSessionText(lines.join('\n'), 'two.jsonl');
    const archive = new MemoryArchive();
    const ports = { tokenizer: charTokenizer, archive, logger: silentLogger };
    const first = await replaySession(parseSessionText(lines.slice(0, 2).join('\n'), 'one.jsonl'), 'two', resolveEngineSettings({}), ports, () => undefined);
    expect(first).toMatchObject({ turns: 1, skipped: 0 });
    await expect(replaySession(session, 'two', resolveEngineSettings({}), ports, () => undefined)).rejects.toThrow(/already has 1 exchanges/);
    const seen: number[] = [];
    const resumed = await replaySession(session, 'two', resolveEngineSettings({}), ports, (t) => seen.push(t.turn), { resume: true });
    expect(resumed).toMatchObject({ turns: 1, skipped: 1 });
    expect(seen).toEqual([2]);
    expect(archive.get('two', 2)!.createdAt - archive.get('two', 1)!.createdAt).toBe(60_000);
    expect(archive.get('two', 2)!.full[1]!.content).toEqual([{ type: 'text', text: 'Done.' }]);
  });
});

describe('replaySession: the system prompt', () => {
  const chat = [JSON.stringify({ role: 'user', content: 'Fix the build.' }), JSON.stringify({ role: 'assistant', content: [{ type: 'text', text: 'Fixed.' }] })];
  const systemOf = async (lines: string[]): Promise<string> => {
    const turns: ReplayTurn[] = [];
    await replaySession(parseSessionText(lines.join('\n'), 's.jsonl'), 's', resolveEngineSettings({}), { tokenizer: charTokenizer, archive: new MemoryArchive(), logger: silentLogger }, (t) => turns.push(t));
    return turns[0]!.assembled.request.system.map((b) => b.text).join('\n');
  };

  it("is the session's recorded prompt, or a coding-agent prompt when it recorded none, before the protocol", async () => {
    expect(await systemOf([JSON.stringify({ meta: { system: 'You review Go code.' } }), ...chat])).toBe(`You review Go code.\n\n${PROTOCOL_INSTRUCTIONS}`);
    expect(await systemOf(chat)).toMatch(/^You are a coding agent\b[^\n]*\n\n## Strata context protocol\n/);
  });
});
