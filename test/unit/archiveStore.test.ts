import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ArchivedExchange } from '../../src/engine/ports';
import { ArchiveError } from '../../src/engine/ports';
import { openJsonlArchive } from '../../src/adapters/jsonlArchiveStore';
import { openSqliteArchive } from '../../src/adapters/sqliteArchiveStore';
import { makeTempDir } from '../../src/adapters/tempFiles';
import { archivedTurn, T0 } from '../support/archivedTurn';
import { withRawDb } from '../support/rawSqlite';
import { DRIVERS, openRaw } from '../support/sqliteDrivers';

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
  ...DRIVERS.map(({ name, driver }) => ({ name: `SQLite (${name})`, file: 'archive.sqlite', open: (path: string) => openSqliteArchive(path, { driver }) })),
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


/** An exchange of `sessionId` at `minutes` after T0; `query` undefined: a tool result only (no title in it). */
function turn(sessionId: string, seq: number, minutes: number, query: string | undefined, answer: string): ArchivedExchange {
  const input = query === undefined ? [{ type: 'tool_result' as const, tool_use_id: `t${seq}`, content: bigFile }] : [{ type: 'text' as const, text: query }];
  return archivedTurn(sessionId, seq, minutes, input, answer, 100 + seq);
}

/** Sessions a (2 exchanges), b (3, the latest activity) and c (tools only, so untitled). */
const browsed = [
  turn('a', 1, 0, '  Refactor   the parser\nplease', 'Reading it.'),
  turn('a', 2, 5, undefined, 'The parser uses zebras.'),
  turn('b', 2, 11, undefined, 'Found it.'),
  turn('b', 1, 10, 'Why does the build fail?', 'Looking.'),
  turn('b', 3, 12, undefined, 'The build fails on zebras too.'),
  turn('c', 1, 7, undefined, 'Nothing asked.'),
];

/** What the editor's archive view, session pickers and archive search use, from both stores. */
describe.each(stores)('$name archive: browsing and deleting sessions', (store) => {
  const filled = () => {
    const path = tempFile(store.file);
    const a = store.open(path);
    for (const e of browsed) a.put(e);
    return { path, a };
  };

  it('lists sessions newest activity first, titled by the first query of their lowest seq, the same after a reopen', () => {
    const { path, a } = filled();
    const expected = [
      { id: 'b', title: 'Why does the build fail?', firstAt: T0 + 10 * 60_000, lastAt: T0 + 12 * 60_000, exchanges: 3 },
      { id: 'c', title: '', firstAt: T0 + 7 * 60_000, lastAt: T0 + 7 * 60_000, exchanges: 1 },
      { id: 'a', title: 'Refactor the parser please', firstAt: T0, lastAt: T0 + 5 * 60_000, exchanges: 2 },
    ];
    expect(a.sessions()).toEqual(expected);
    a.close();
    const b = store.open(path);
    expect(b.sessions()).toEqual(expected);
    b.close();
  });

  it("lists a session's exchanges in seq order, reads one back in full, and knows no unknown ones", () => {
    const { a } = filled();
    expect(a.exchanges('b')).toEqual([1, 2, 3].map((seq) => {
      const e = browsed.find((x) => x.sessionId === 'b' && x.seq === seq)!;
      return { sessionId: 'b', seq, createdAt: e.createdAt, header: e.header, summary: e.summary };
    }));
    expect(a.exchanges('nobody')).toEqual([]);
    expect(a.get('b', 3)).toEqual(turn('b', 3, 12, undefined, 'The build fails on zebras too.'));
    expect(a.get('b', 4)).toBeUndefined();
    a.close();
  });

  it('searches every session; the per-session search still sees only its own', () => {
    const { a } = filled();
    const hits = a.searchAll('zebras', 10);
    expect(hits.map((h) => `${h.sessionId}/${h.seq}`).sort()).toEqual(['a/2', 'b/3']);
    expect(hits.every((h) => h.snippet.includes('[zebras]'))).toBe(true);
    expect(a.search('a', 'zebras', 10).map((h) => `${h.sessionId}/${h.seq}`)).toEqual(['a/2']);
    expect(a.searchAll('zebras build', 10).map((h) => `${h.sessionId}/${h.seq}`)).toEqual(['b/3']);
    expect(a.searchAll('zebras', 1)).toHaveLength(1);
    expect(a.searchAll('   ', 10)).toEqual([]);
    expect(() => a.searchAll('"quoted NEAR(', 10)).not.toThrow();
    a.close();
  });

  it('deletes a session: gone from every listing, search and read, also after a reopen; the others stay', () => {
    const { path, a } = filled();
    expect(a.deleteSession('b').exchanges).toBe(3);
    const gone = (x: ReturnType<typeof store.open>) => {
      expect(x.sessions().map((s) => s.id)).toEqual(['c', 'a']);
      expect(x.exchanges('b')).toEqual([]);
      expect(x.get('b', 1)).toBeUndefined();
      expect(x.searchAll('zebras', 10).map((h) => h.sessionId)).toEqual(['a']);
      expect(x.search('b', 'zebras', 10)).toEqual([]);
      expect(x.lastSeq('b')).toBe(0);
      expect(x.listSessions()).toEqual(['a', 'c']);
      expect(x.get('a', 2)).toEqual(browsed[1]);
    };
    gone(a);
    a.close();
    const b = store.open(path);
    gone(b);
    expect(b.deleteSession('b')).toEqual({ exchanges: 0, blobs: 0 });
    expect(b.deleteSession('nobody')).toEqual({ exchanges: 0, blobs: 0 });
    b.close();
  });

  it('a deleted session leaves nothing behind: its id starts again from e1 with new content, which a reopen keeps', () => {
    const { path, a } = filled();
    a.deleteSession('b');
    // As SQLite: the deleted rows are gone, so the same (session, seq) holds the new exchange, not a conflict.
    const again = turn('b', 1, 30, 'A new start', 'Sure.');
    expect(() => a.put(again)).not.toThrow();
    expect(a.lastSeq('b')).toBe(1);
    a.close();
    const b = store.open(path);
    expect(b.get('b', 1)).toEqual(again);
    expect(b.get('b', 2)).toBeUndefined();
    expect(b.sessions()[0]).toEqual({ id: 'b', title: 'A new start', firstAt: again.createdAt, lastAt: again.createdAt, exchanges: 1 });
    // And ids are still never reused within what is kept.
    expect(() => b.put(turn('b', 1, 31, 'Other', 'Other.'))).toThrow(/already archived with other content/);
    b.close();
  });

  it('the browser sees what another connection to the file archived and deleted since it opened', () => {
    const path = tempFile(store.file);
    const browser = store.open(path);
    browser.put(browsed[0]!);
    expect(browser.sessions().map((s) => s.id)).toEqual(['a']);
    const chat = store.open(path);
    chat.put(browsed[3]!);
    chat.put(browsed[2]!);
    chat.updateTrio('b', 2, 'e2 renamed', 'e2: mentions okapis');
    expect(browser.sessions().map((s) => [s.id, s.exchanges])).toEqual([['b', 2], ['a', 1]]);
    expect(browser.exchanges('b').map((e) => e.header)).toEqual(['e1 header of b', 'e2 renamed']);
    expect(browser.get('b', 2)?.full).toEqual(browsed[2]!.full);
    expect(browser.searchAll('okapis', 5).map((h) => `${h.sessionId}/${h.seq}`)).toEqual(['b/2']);
    chat.deleteSession('a');
    expect(browser.sessions().map((s) => s.id)).toEqual(['b']);
    expect(browser.deleteSession('b').exchanges).toBe(2);
    chat.close();
    browser.close();
  });
});

describe.each(DRIVERS)('SQLite archive: blobs, locks, schema (on $name)', ({ driver }) => {
  const tempPath = (name = 'archive.sqlite') => tempFile(name);
  it('stores the same file read twice once (content-addressed blobs)', () => {
    const a = openSqliteArchive(tempPath(), { driver });
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
    const a = openSqliteArchive(path, { busyTimeoutMs: 50, driver });
    a.put(exchange(1));
    const other = openRaw(path);
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
    withRawDb(newer, (db) => db.exec('PRAGMA user_version = 999'));
    expect(() => openSqliteArchive(newer, { driver })).toThrow(/newer Strata/);

    const path = tempPath();
    const a = openSqliteArchive(path, { driver });
    a.put(exchange(1));
    a.put(exchange(2));
    a.close();
    withRawDb(path, (db) => db.prepare("UPDATE exchanges SET body_json = '{not json' WHERE seq = 2").run());
    const b = openSqliteArchive(path, { driver });
    expect(() => b.get('s', 2)).toThrow(/e2 of session s .* is damaged/);
    expect(b.get('s', 1)).toEqual(exchange(1));
    b.close();
  });
});

describe.each(DRIVERS)('SQLite archive: schema upgrade (on $name)', ({ driver }) => {
  const tempPath = (name = 'archive.sqlite') => tempFile(name);
  it('upgrades an archive of schema 1 in place, keeping its exchanges', () => {
    const path = tempPath();
    const a = openSqliteArchive(path, { driver });
    a.put(exchange(1));
    a.close();
    withRawDb(path, (db) => {
      db.exec('DROP TABLE token_calibration; DROP TABLE session_info');
      db.exec('ALTER TABLE exchanges DROP COLUMN superseded_by');
      db.exec('ALTER TABLE sessions DROP COLUMN title');
      db.exec('PRAGMA user_version = 1');
    });
    const b = openSqliteArchive(path, { driver });
    expect(b.get('s', 1)?.full).toEqual(exchange(1).full);
    b.saveTokenFactor('m', 1.2, 1);
    expect(b.tokenFactor('m')).toBe(1.2);
    b.setSessionInfo('s', { title: 'Fix it', source: 'cline:/t/api.json' }, 2);
    expect(b.sessionInfo('s')).toEqual({ title: 'Fix it', source: 'cline:/t/api.json' });
    b.close();
  });

  it("keeps a session's title and source across a reopen; the latest call wins; an unnamed session has none", () => {
    const path = tempPath();
    const a = openSqliteArchive(path, { driver });
    a.put(exchange(1));
    a.setSessionInfo('s', { title: 'First', source: 'claude-code:/a.jsonl' }, 1);
    a.setSessionInfo('s', { title: 'Second', source: 'claude-code:/b.jsonl' }, 2);
    a.close();
    const b = openSqliteArchive(path, { driver });
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
