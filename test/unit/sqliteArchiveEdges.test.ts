import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { openSqliteArchive, sqliteArchiveError } from '../../src/adapters/sqliteArchiveStore';
import type { ArchivedExchange } from '../../src/engine/ports';
import { ArchiveError, StrataError } from '../../src/engine/ports';
import { archivedTurn } from '../support/archivedTurn';
import { countRows, withRawDb } from '../support/rawSqlite';
import { useTempDirs } from '../support/tempDirs';
import { thrown } from '../support/thrown';
import { DRIVERS } from '../support/sqliteDrivers';

/** What the SQLite archive does at its edges: damaged files, errors, old rows, odd input. */
const tempDir = useTempDirs('strata-sqlite-edges-');
function tempPath(): string {
  return join(tempDir(), 'archive.sqlite');
}

/** Long enough to be stored as a blob. */
const bigFile = Array.from({ length: 40 }, (_, i) => `export const value${i} = ${i};`).join('\n');

function asked(sessionId: string, seq: number, query: string): ArchivedExchange {
  return archivedTurn(sessionId, seq, seq, [{ type: 'text', text: query }], `answer ${seq}`);
}
function toolOnly(sessionId: string, seq: number): ArchivedExchange {
  return archivedTurn(sessionId, seq, seq, [{ type: 'tool_result', tool_use_id: `t${seq}`, content: bigFile }], `answer ${seq}`);
}

describe.each(DRIVERS)('SQLite archive: a damaged file (on $name)', ({ driver }) => {
  it('a blob missing from the file is named by its hash and the file, not reworded as a damaged row', () => {
    const path = tempPath();
    const a = openSqliteArchive(path, { driver });
    a.put(toolOnly('s', 1));
    a.put(asked('s', 2, 'No blob in this one'));
    a.close();
    const hash = withRawDb(path, (db) => {
      const { hash } = db.prepare('SELECT hash FROM blobs').get() as { hash: string };
      db.prepare('DELETE FROM blobs').run();
      return hash;
    });
    const b = openSqliteArchive(path, { driver });
    const error = thrown(() => b.get('s', 1));
    expect(error).toBeInstanceOf(ArchiveError);
    expect(error.code).toBe('archive_corrupt');
    expect(error.message).toBe(`A stored text (${hash.slice(0, 12)}…) is missing from ${path}; the archive is damaged. Move the file away to start a new archive.`);
    expect(b.get('s', 2)).toEqual(asked('s', 2, 'No blob in this one'));
    b.close();
  });

  it.each([
    ['is not JSON', '{not json'],
    ['does not hold messages', '[{"role":"robot","content":[]}]'],
  ])('a row whose body %s names its exchange under archive_corrupt', (_what, body) => {
    const path = tempPath();
    const a = openSqliteArchive(path, { driver });
    a.put(asked('s', 1, 'First'));
    a.put(asked('s', 2, 'Second'));
    a.close();
    withRawDb(path, (db) => db.prepare('UPDATE exchanges SET body_json = ? WHERE seq = 2').run(body));
    const b = openSqliteArchive(path, { driver });
    const error = thrown(() => b.get('s', 2));
    expect(error.code).toBe('archive_corrupt');
    expect(error.message).toBe(`Exchange e2 of session s in ${path} is damaged and cannot be read; the other exchanges are unaffected.`);
    expect(b.get('s', 1)?.full).toEqual(asked('s', 1, 'First').full);
    b.close();
  });

  it('a damaged full-text index (SQLITE_CORRUPT_VTAB, an extended code) is reported as a damaged archive', () => {
    const path = tempPath();
    const a = openSqliteArchive(path, { driver });
    a.put(asked('s', 1, 'Where do zebras live?'));
    a.close(); // the last connection checkpoints: every page is in the main file
    const blocks = withRawDb(path, (db) => (db.prepare('SELECT block FROM exchanges_fts_data WHERE id > 1').all() as Array<{ block: Buffer }>).map((r) => r.block));
    const bytes = readFileSync(path);
    for (const block of blocks) {
      const at = bytes.indexOf(block);
      expect(at).toBeGreaterThan(0);
      bytes.fill(0xff, at, at + block.length);
    }
    writeFileSync(path, bytes);
    const b = openSqliteArchive(path, { driver });
    const error = thrown(() => b.search('s', 'zebras', 5));
    expect(error.code).toBe('archive_corrupt');
    expect(error.message).toBe(`${path} is not a readable Strata archive (SQLITE_CORRUPT_VTAB). Move it away (it was not changed) and Strata will start a new archive.`);
    b.close();
  });

  it('refuses a newer schema under archive_version', () => {
    const path = tempPath();
    withRawDb(path, (db) => db.exec('PRAGMA user_version = 999'));
    const error = thrown(() => openSqliteArchive(path, { driver }));
    expect(error.code).toBe('archive_version');
    expect(error.message).toMatch(/written by a newer Strata \(schema 999, this one knows \d+\)\. Update Strata to open it; the file was not changed\.$/);
  });
});

describe.each(DRIVERS)('SQLite archive: what an error tells the user (on $name)', ({ driver }) => {
  it('an archive whose folder is a file cannot be opened: archive_io, saying what to check', () => {
    const folder = join(tempDir(), 'not-a-folder');
    writeFileSync(folder, 'a file');
    const path = join(folder, 'archive.sqlite');
    const error = thrown(() => openSqliteArchive(path, { driver }));
    expect(error.code).toBe('archive_io');
    expect(error.message).toBe(`The archive ${path} cannot be written (SQLITE_CANTOPEN). Check the folder exists, is writable and has free space.`);
  });

  it("an SQLite error with no advice of its own keeps SQLite's message, under code archive", () => {
    const path = tempPath();
    const a = openSqliteArchive(path, { driver });
    withRawDb(path, (db) => db.exec("CREATE TRIGGER refuse BEFORE INSERT ON exchanges BEGIN SELECT RAISE(ABORT, 'disk trouble'); END"));
    const error = thrown(() => a.put(asked('s', 1, 'Anything')));
    expect(error.code).toBe('archive');
    expect(error.message).toBe(`The archive ${path} failed: disk trouble.`);
    a.close();
  });
});

describe('SQLite archive: which ArchiveError a SQLite result code becomes (the code as a driver reports it)', () => {
  it.each([
    ['SQLITE_NOTADB', 'archive_corrupt'],
    ['SQLITE_CORRUPT', 'archive_corrupt'],
    ['SQLITE_CORRUPT_INDEX', 'archive_corrupt'],
    ['SQLITE_BUSY', 'archive_locked'],
    ['SQLITE_BUSY_SNAPSHOT', 'archive_locked'],
    ['SQLITE_LOCKED', 'archive_locked'],
    ['SQLITE_LOCKED_SHAREDCACHE', 'archive_locked'],
    ['SQLITE_CANTOPEN', 'archive_io'],
    ['SQLITE_CANTOPEN_ISDIR', 'archive_io'],
    ['SQLITE_READONLY', 'archive_io'],
    ['SQLITE_READONLY_DBMOVED', 'archive_io'],
    ['SQLITE_FULL', 'archive_io'],
    ['SQLITE_IOERR', 'archive_io'],
    ['SQLITE_IOERR_WRITE', 'archive_io'],
    ['SQLITE_CONSTRAINT_UNIQUE', 'archive'],
    ['SQLITE_ERROR', 'archive'],
  ])('maps %s to %s, naming the code where it advises', (code, expected) => {
    const error = sqliteArchiveError('/a/archive.sqlite', new Error('from SQLite'), code);
    expect(error.code).toBe(expected);
    expect(error.message).toContain('/a/archive.sqlite');
    if (expected === 'archive_io') expect(error.message).toBe(`The archive /a/archive.sqlite cannot be written (${code}). Check the folder exists, is writable and has free space.`);
    if (expected === 'archive_corrupt') expect(error.message).toContain(`(${code})`);
    if (expected === 'archive_locked') expect(error.message).toMatch(/locked by another process/);
    if (expected === 'archive') expect(error.message).toBe('The archive /a/archive.sqlite failed: from SQLite.');
  });

  it('keeps an ArchiveError as it is, and words an error without a code (or not an Error) as a plain failure', () => {
    const own = new ArchiveError('Already worded.', 'archive_conflict');
    expect(sqliteArchiveError('/a', own, undefined)).toBe(own);
    // a StrataError that names its kind where it is printed (logs, the CLI's stderr)
    expect(own).toBeInstanceOf(StrataError);
    expect(String(own)).toBe('ArchiveError: Already worded.');
    expect(sqliteArchiveError('/a', new TypeError('x is not a function'), undefined)).toMatchObject({ code: 'archive', message: 'The archive /a failed: x is not a function.' });
    expect(sqliteArchiveError('/a', 'a thrown string', undefined)).toMatchObject({ code: 'archive', message: 'The archive /a failed: a thrown string.' });
    expect(sqliteArchiveError('/a', null, undefined)).toMatchObject({ code: 'archive', message: 'The archive /a failed: null.' });
  });
});

describe.each(DRIVERS)('SQLite archive: titles of sessions archived before schema 5 (on $name)', ({ driver }) => {
  /** An archive where `ids` were archived before titles were stored (NULL, as schema 4 left them). */
  function oldSessions(path: string, exchanges: ArchivedExchange[]): void {
    const a = openSqliteArchive(path, { driver });
    for (const e of exchanges) a.put(e);
    a.close();
    withRawDb(path, (db) => db.prepare('UPDATE sessions SET title = NULL').run());
  }
  const stored = (path: string) => withRawDb(path, (db) => Object.fromEntries((db.prepare('SELECT id, title FROM sessions').all() as Array<{ id: string; title: string | null }>).map((r) => [r.id, r.title])));

  it('titles a session whose first exchange has no query with an empty title, recorded so it is read once', () => {
    const path = tempPath();
    oldSessions(path, [toolOnly('tools', 1), asked('tools', 2, 'A later question is not the title')]);
    const a = openSqliteArchive(path, { driver });
    const reads = vi.spyOn(a, 'get');
    expect(a.sessions()).toEqual([expect.objectContaining({ id: 'tools', title: '', exchanges: 2 })]);
    expect(reads).toHaveBeenCalledTimes(1);
    reads.mockClear();
    expect(a.sessions()[0]!.title).toBe('');
    expect(reads).not.toHaveBeenCalled();
    a.close();
    expect(stored(path)).toEqual({ tools: '' });
  });

  it('records the titles it could read and leaves a damaged one to the next listing', () => {
    const path = tempPath();
    oldSessions(path, [asked('ok', 1, 'Readable question'), asked('bad', 1, 'Lost question')]);
    withRawDb(path, (db) => db.prepare("UPDATE exchanges SET body_json = '{broken' WHERE session_id = 'bad'").run());
    const a = openSqliteArchive(path, { driver });
    expect(a.sessions().map((s) => [s.id, s.title])).toEqual([['bad', ''], ['ok', 'Readable question']]);
    a.close();
    expect(stored(path)).toEqual({ ok: 'Readable question', bad: null });
  });
});

describe.each(DRIVERS)('SQLite archive: what it keeps and finds (on $name)', ({ driver }) => {
  it('a repeated identical put without a mark keeps the mark its row already has', () => {
    const path = tempPath();
    const a = openSqliteArchive(path, { driver });
    a.put(asked('s', 1, 'First try'));
    a.put({ ...asked('s', 2, 'Edited'), supersedes: [1] });
    a.put(asked('s', 1, 'First try')); // a retried write of e1 as first sent
    expect(a.get('s', 1)?.supersededBy).toBe(2);
    a.close();
    const b = openSqliteArchive(path, { driver });
    expect(b.get('s', 1)?.supersededBy).toBe(2);
    b.close();
  });

  it('uses a stored tokenizer factor only when it is a positive finite number', () => {
    const path = tempPath();
    const a = openSqliteArchive(path, { driver });
    const factors: Array<[string, number]> = [['zero', 0], ['negative', -0.5], ['infinite', Infinity], ['minus-infinite', -Infinity], ['tiny', 1e-9], ['usual', 1.17]];
    for (const [model, factor] of factors) a.saveTokenFactor(model, factor, 1);
    expect(() => a.saveTokenFactor('nan', NaN, 1)).toThrow(ArchiveError); // SQLite binds NaN as NULL: refused
    a.close();
    const b = openSqliteArchive(path, { driver });
    expect(Object.fromEntries(['zero', 'negative', 'infinite', 'minus-infinite', 'tiny', 'usual', 'nan'].map((m) => [m, b.tokenFactor(m)]))).toEqual({
      zero: undefined,
      negative: undefined,
      infinite: undefined,
      'minus-infinite': undefined,
      tiny: 1e-9,
      usual: 1.17,
      nan: undefined,
    });
    b.close();
  });

  it('matches each query word on its own, anywhere in the exchange; a quote inside a word splits it like the text', () => {
    const a = openSqliteArchive(tempPath(), { driver });
    a.put(asked('s', 1, 'The zebra ran far away from the old lion'));
    a.put(asked('s', 2, 'Then the tool printed say "hello"world and stopped'));
    expect(a.search('s', '  lion   zebra ', 5).map((h) => h.seq)).toEqual([1]);
    expect(a.search('s', '"hello"world', 5).map((h) => h.seq)).toEqual([2]);
    expect(a.search('s', 'hello"world', 5).map((h) => h.seq)).toEqual([2]);
    expect(a.search('s', 'helloworld', 5)).toEqual([]);
    expect(a.search('s', ' \n\t ', 5)).toEqual([]);
    a.close();
  });

  it('reads back a tool input that looks like a stored-text reference but has other keys', () => {
    const path = tempPath();
    const a = openSqliteArchive(path, { driver });
    const e: ArchivedExchange = {
      ...asked('s', 1, 'Call it'),
      full: [
        { role: 'user', content: [{ type: 'text', text: 'Call it' }] },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'u1', name: 'store', input: { $blob: 'not-a-hash', note: 'kept' } }] },
      ],
    };
    a.put(e);
    a.close();
    const b = openSqliteArchive(path, { driver });
    expect(b.get('s', 1)).toEqual(e);
    b.close();
  });

  it('reads back tool inputs that are exactly a stored-text reference, or use its key escaped, as they were sent', () => {
    const path = tempPath();
    const a = openSqliteArchive(path, { driver });
    const hash = 'a'.repeat(64);
    const inputs = [{ $blob: hash }, { $blob: 'short' }, { $$blob: hash }, { nested: [{ $blob: bigFile }], $$$blob: 'x' }, { $blob: { $blob: hash } }];
    const e: ArchivedExchange = {
      ...asked('s', 1, 'Call it'),
      full: [
        { role: 'user', content: [{ type: 'text', text: 'Call it' }] },
        { role: 'assistant', content: inputs.map((input, i) => ({ type: 'tool_use' as const, id: `u${i}`, name: 'store', input })) },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'u0', content: bigFile }] },
      ],
    };
    a.put(e);
    a.close();
    const b = openSqliteArchive(path, { driver });
    expect(b.get('s', 1)).toEqual(e);
    // the long text inside was still stored once, as a blob, and only our reference names it
    expect(countRows(path, 'SELECT COUNT(*) AS n FROM blobs')).toBe(1);
    b.close();
  });

  it("keeps a ':memory:' archive (no file, no WAL) working like a file", () => {
    const a = openSqliteArchive(':memory:', { driver });
    a.put(toolOnly('s', 1));
    expect(a.get('s', 1)).toEqual(toolOnly('s', 1));
    expect(a.search('s', 'value7', 5).map((h) => h.seq)).toEqual([1]);
    a.close();
  });
});
