import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { ArchivedExchange } from '../../src/engine/ports';
import { ArchiveError } from '../../src/engine/ports';
import { openJsonlArchive } from '../../src/adapters/jsonlArchiveStore';
import { openSqliteArchive } from '../../src/adapters/sqliteArchiveStore';
import { makeTempDir } from '../../src/adapters/tempFiles';

const temps: Array<{ remove: () => void }> = [];
afterEach(() => temps.splice(0).forEach((t) => t.remove()));
function tempFile(name: string): string {
  const t = makeTempDir('strata-archive-');
  temps.push(t);
  return join(t.dir, name);
}

const bigFile = Array.from({ length: 400 }, (_, i) => `line ${i}: export function handler${i}() { return ${i}; }`).join('\n');

function exchange(seq: number, output = 'Done.', toolText = bigFile): ArchivedExchange {
  return {
    sessionId: 's',
    seq,
    createdAt: 1_700_000_000_000 + seq,
    header: `e${seq} 09:00 Read app.ts → ok`,
    summary: `e${seq}: read the file (retrievable: e${seq})`,
    tokens: 1234 + seq,
    full: [
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: `t${seq}`, content: toolText }, { type: 'text', text: 'ünïcödé 日本語 ไทย' }] },
      { role: 'assistant', content: [{ type: 'text', text: output }, { type: 'tool_use', id: `u${seq}`, name: 'Read', input: { file_path: 'src/app.ts', nested: { n: 1 } } }] },
    ],
  };
}

/**
 * The behaviour the engine relies on, from every ArchiveStore the extension may open: SQLite, and
 * the JSON Lines fallback for an editor whose runtime cannot load the native driver.
 */
const stores = [
  { name: 'SQLite', file: 'archive.sqlite', open: (path: string) => openSqliteArchive(path) },
  { name: 'JSON Lines', file: 'archive.jsonl', open: (path: string) => openJsonlArchive(path) },
];

describe.each(stores)('$name archive (L5): a real file, reopened', (store) => {
  const tempPath = (name = store.file) => tempFile(name);
  it('round-trips the trio exactly through a closed and reopened file', () => {
    const path = tempPath();
    const a = store.open(path);
    a.put(exchange(1));
    a.put(exchange(2, 'Second answer'));
    a.close();
    const b = store.open(path);
    expect(b.get('s', 1)).toEqual(exchange(1));
    expect(b.get('s', 2)).toEqual(exchange(2, 'Second answer'));
    expect(b.get('s', 3)).toBeUndefined();
    expect(b.lastSeq('s')).toBe(2);
    expect(b.lastSeq('other')).toBe(0);
    expect(b.listSessions()).toEqual(['s']);
    b.close();
  });

  it('never reuses an id: same content is idempotent, other content is refused, a gap may be filled', () => {
    const a = store.open(tempPath());
    a.put(exchange(1));
    a.put(exchange(3));
    expect(() => a.put(exchange(3))).not.toThrow();
    const conflict = (put: () => void) => {
      try {
        put();
      } catch (error) {
        return error as ArchiveError;
      }
      return undefined;
    };
    const other = conflict(() => a.put(exchange(3, 'different')));
    expect(other).toBeInstanceOf(ArchiveError);
    expect(other!.code).toBe('archive_conflict');
    expect(other!.message).toMatch(/e3 of session s is already archived with other content/);
    // e2 was never written, but e3 was: a write of e2 that failed and is retried fills the gap
    // (the write queue must not lose it), and once there it is refused with other content.
    a.put(exchange(2));
    expect(a.get('s', 2)).toEqual(exchange(2));
    const older = conflict(() => a.put(exchange(2, 'different')));
    expect(older).toBeInstanceOf(ArchiveError);
    expect(older!.code).toBe('archive_conflict');
    expect(a.get('s', 2)).toEqual(exchange(2));
    expect(a.get('s', 3)).toEqual(exchange(3));
    expect(a.lastSeq('s')).toBe(3);
    a.close();
  });

  it('searches the full text and survives queries with FTS syntax in them', () => {
    const a = store.open(tempPath());
    a.put(exchange(1, 'The parser failed on NEAR tokens', 'TypeError: cannot read properties of undefined'));
    a.put(exchange(2, 'All good'));
    expect(a.search('s', 'TypeError', 5).map((h) => h.seq)).toEqual([1]);
    expect(a.search('s', 'typeerror', 5)[0]!.snippet).toContain('[TypeError]');
    expect(a.search('s', 'TypeError zebra', 5)).toEqual([]);
    expect(a.search('s', 'handler42', 5).map((h) => h.seq)).toEqual([2]);
    for (const q of ['"unbalanced', 'NEAR(a b)', 'foo* OR (', 'a AND', ':', '']) expect(() => a.search('s', q, 5)).not.toThrow();
    expect(a.search('s', '', 5)).toEqual([]);
    a.updateTrio('s', 2, 'e2 renamed header', 'e2: mentions zebra');
    expect(a.search('s', 'zebra', 5).map((h) => h.seq)).toEqual([2]);
    expect(a.get('s', 2)!.header).toBe('e2 renamed header');
    a.close();
  });

  it('refuses a file that is not an archive with a clear message and leaves it untouched', () => {
    const path = tempPath('notes.sqlite');
    const bytes = Buffer.from('my precious notes, not a database\n'.repeat(300));
    writeFileSync(path, bytes);
    let error: unknown;
    try {
      store.open(path);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ArchiveError);
    expect((error as ArchiveError).code).toBe('archive_corrupt');
    expect((error as Error).message).toContain(path);
    expect((error as Error).message).toMatch(/Move it away/);
    expect(readFileSync(path).equals(bytes)).toBe(true);
  });

  it('round-trips an answer with thinking and redacted thinking blocks', () => {
    const path = tempPath();
    const a = store.open(path);
    const withThinking: ArchivedExchange = {
      ...exchange(1),
      full: [
        { role: 'user', content: [{ type: 'text', text: 'go' }] },
        { role: 'assistant', content: [{ type: 'thinking', thinking: 'plan first', signature: 'sig' }, { type: 'redacted_thinking', data: 'QUJD' }, { type: 'text', text: 'ok' }] },
      ],
    };
    a.put(withThinking);
    a.close();
    const b = store.open(path);
    expect(b.get('s', 1)?.full).toEqual(withThinking.full);
    expect(b.search('s', 'plan', 5).map((h) => h.seq)).toEqual([1]);
    expect(b.search('s', 'QUJD', 5)).toEqual([]);
    b.close();
  });

  it('keeps the tokenizer factor per model across reopening, the latest winning', () => {
    const path = tempPath();
    const a = store.open(path);
    expect(a.tokenFactor('claude-sonnet-5-5')).toBeUndefined();
    a.saveTokenFactor('claude-sonnet-5-5', 1.1, 1);
    a.saveTokenFactor('claude-sonnet-5-5', 1.17, 2);
    a.saveTokenFactor('claude-haiku-5-5', 0.93, 3);
    a.close();
    const b = store.open(path);
    expect(b.tokenFactor('claude-sonnet-5-5')).toBe(1.17);
    expect(b.tokenFactor('claude-haiku-5-5')).toBe(0.93);
    b.close();
  });
});

describe('SQLite archive: blobs, locks, schema', () => {
  const tempPath = (name = 'archive.sqlite') => tempFile(name);
  it('stores the same file read twice once (content-addressed blobs)', () => {
    const a = openSqliteArchive(tempPath());
    a.put(exchange(1));
    a.put(exchange(2));
    const stats = a.stats();
    expect(stats.exchanges).toBe(2);
    expect(stats.blobs).toBe(1);
    expect(stats.blobBytes).toBe(Buffer.byteLength(bigFile));
    a.close();
  });

  it('reports a database locked by another process, and loses nothing archived before', () => {
    const path = tempPath();
    const a = openSqliteArchive(path, { busyTimeoutMs: 50 });
    a.put(exchange(1));
    const other = new Database(path);
    other.exec('BEGIN EXCLUSIVE');
    let error: unknown;
    try {
      a.put(exchange(2));
    } catch (e) {
      error = e;
    }
    expect((error as ArchiveError).code).toBe('archive_locked');
    expect((error as Error).message).toMatch(/locked by another process/);
    other.exec('ROLLBACK');
    other.close();
    a.put(exchange(2));
    expect(a.get('s', 1)).toEqual(exchange(1));
    expect(a.lastSeq('s')).toBe(2);
    a.close();
  });

  it('refuses an archive written by a newer schema, and a damaged row names its exchange', () => {
    const newer = tempPath('newer.sqlite');
    const db = new Database(newer);
    db.pragma('user_version = 999');
    db.close();
    expect(() => openSqliteArchive(newer)).toThrow(/newer Strata/);

    const path = tempPath();
    const a = openSqliteArchive(path);
    a.put(exchange(1));
    a.put(exchange(2));
    a.close();
    const raw = new Database(path);
    raw.prepare("UPDATE exchanges SET body_json = '{not json' WHERE seq = 2").run();
    raw.close();
    const b = openSqliteArchive(path);
    expect(() => b.get('s', 2)).toThrow(/e2 of session s .* is damaged/);
    expect(b.get('s', 1)).toEqual(exchange(1));
    b.close();
  });
});

describe('SQLite archive: schema upgrade', () => {
  const tempPath = (name = 'archive.sqlite') => tempFile(name);
  it('upgrades an archive of schema 1 in place, keeping its exchanges', () => {
    const path = tempPath();
    const a = openSqliteArchive(path);
    a.put(exchange(1));
    a.close();
    const db = new Database(path);
    db.exec('DROP TABLE token_calibration; DROP TABLE session_info');
    db.exec('ALTER TABLE exchanges DROP COLUMN superseded_by');
    db.exec('ALTER TABLE sessions DROP COLUMN title');
    db.pragma('user_version = 1');
    db.close();
    const b = openSqliteArchive(path);
    expect(b.get('s', 1)?.full).toEqual(exchange(1).full);
    b.saveTokenFactor('m', 1.2, 1);
    expect(b.tokenFactor('m')).toBe(1.2);
    b.setSessionInfo('s', { title: 'Fix it', source: 'cline:/t/api.json' }, 2);
    expect(b.sessionInfo('s')).toEqual({ title: 'Fix it', source: 'cline:/t/api.json' });
    b.close();
  });

  it("keeps a session's title and source across a reopen; the latest call wins; an unnamed session has none", () => {
    const path = tempPath();
    const a = openSqliteArchive(path);
    a.put(exchange(1));
    a.setSessionInfo('s', { title: 'First', source: 'claude-code:/a.jsonl' }, 1);
    a.setSessionInfo('s', { title: 'Second', source: 'claude-code:/b.jsonl' }, 2);
    a.close();
    const b = openSqliteArchive(path);
    expect(b.sessionInfo('s')).toEqual({ title: 'Second', source: 'claude-code:/b.jsonl' });
    expect(b.sessionInfo('other')).toBeUndefined();
    b.close();
  });
});

describe('JSON Lines archive: what a crash or another version leaves', () => {
  it('skips a damaged line and a line cut by a crash, keeps the rest, and appends after them', () => {
    const path = tempFile('archive.jsonl');
    const a = openJsonlArchive(path);
    a.put(exchange(1));
    a.put(exchange(2));
    a.close();
    const lines = readFileSync(path, 'utf8').split('\n');
    // Line 2 is e1's record: damage it; then a half-written record with no newline.
    lines[1] = '{"t": "put", "sessionId": "s", "seq": 1, "oops"';
    writeFileSync(path, `${lines.join('\n')}{"t":"put","sessionId":"s","se`);
    const b = openJsonlArchive(path);
    expect(b.damagedLines).toEqual([2, 4]);
    expect(b.get('s', 1)).toBeUndefined();
    expect(b.get('s', 2)).toEqual(exchange(2));
    b.put(exchange(3));
    b.close();
    const c = openJsonlArchive(path);
    expect(c.get('s', 3)).toEqual(exchange(3));
    expect(c.lastSeq('s')).toBe(3);
    c.close();
  });

  it('refuses an archive written by a newer format and leaves it untouched', () => {
    const path = tempFile('archive.jsonl');
    writeFileSync(path, '{"strata_archive": 99}\n');
    expect(() => openJsonlArchive(path)).toThrow(/newer Strata/);
    expect(readFileSync(path, 'utf8')).toBe('{"strata_archive": 99}\n');
  });

  it('searches words without case or accents, a hyphenated query word as a phrase, best match first', () => {
    const a = openJsonlArchive(':memory:');
    a.put(exchange(1, 'Le café est prêt: re-run the build'));
    a.put(exchange(2, 'run it, run it again, then run the build'));
    expect(a.search('s', 'CAFE', 5).map((h) => h.seq)).toEqual([1]);
    expect(a.search('s', 're-run', 5).map((h) => h.seq)).toEqual([1]);
    expect(a.search('s', 'run', 5).map((h) => h.seq)).toEqual([2, 1]);
    expect(a.search('s', 'run', 1).map((h) => h.seq)).toEqual([2]);
    expect(a.search('other', 'run', 5)).toEqual([]);
    a.close();
  });
});
