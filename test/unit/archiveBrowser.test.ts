import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { openSqliteArchive } from '../../src/adapters/sqliteArchiveStore';
import type { ArchivedExchange } from '../../src/engine/ports';
import { ArchiveError } from '../../src/engine/ports';
import { countRows, withRawDb } from '../support/rawSqlite';
import { useTempDirs } from '../support/tempDirs';
import { archivedTurn, T0 } from '../support/archivedTurn';

/** The archive's browsing and maintenance API over real SQLite files. */
const tempDir = useTempDirs('strata-browse-');
function tempPath(): string {
  return join(tempDir(), 'archive.sqlite');
}

/** Long enough to be stored as a blob; `shared` is read by two sessions. */
const shared = Array.from({ length: 60 }, (_, i) => `shared line ${i}`).join('\n');
const onlyB = Array.from({ length: 60 }, (_, i) => `only-b line ${i}`).join('\n');

function exchange(sessionId: string, seq: number, minutes: number, query: string | undefined, resultText: string, answer: string): ArchivedExchange {
  const input = query === undefined
    ? [{ type: 'tool_result' as const, tool_use_id: `t${seq}`, content: resultText }]
    : [{ type: 'text' as const, text: query }, { type: 'text' as const, text: '<environment>\nTime: now\n</environment>' }];
  return archivedTurn(sessionId, seq, minutes, input, answer);
}

function fill(path: string) {
  const a = openSqliteArchive(path);
  const longQuery = `  Please   refactor the parser ${'and keep every test green '.repeat(20)}`;
  a.put(exchange('a', 1, 0, longQuery, '', 'Reading it.'));
  a.put(exchange('a', 2, 5, undefined, shared, 'The parser uses zebras.'));
  a.put(exchange('b', 1, 10, 'Why does the build fail?', '', 'Looking.'));
  a.put(exchange('b', 2, 11, undefined, shared, 'Found it.'));
  a.put(exchange('b', 3, 12, undefined, onlyB, 'The build fails on zebras too.'));
  return { a, longQuery };
}

describe('archive browsing over a real SQLite file', () => {
  it('lists sessions newest activity first with title, times and exchange count', () => {
    const path = tempPath();
    const { a, longQuery } = fill(path);
    const sessions = a.sessions();
    expect(sessions.map((s) => s.id)).toEqual(['b', 'a']);
    expect(sessions[0]).toEqual({ id: 'b', title: 'Why does the build fail?', firstAt: T0 + 10 * 60_000, lastAt: T0 + 12 * 60_000, exchanges: 3 });
    // The long first query is a blob in the file; the title is its start, on one line, cut with an ellipsis.
    const title = sessions[1]!.title;
    expect(title.length).toBeLessThanOrEqual(80); // 79 chars and '…', less when the cut lands after a space
    expect(title.length).toBeGreaterThan(70);
    expect(title.endsWith('…')).toBe(true);
    expect(longQuery.replace(/\s+/g, ' ').trim().startsWith(title.slice(0, -1))).toBe(true);
    expect(title).not.toContain('environment');
    a.close();
  });

  it("lists a session's exchanges in seq order and reads one back in full", () => {
    const { a } = fill(tempPath());
    expect(a.exchanges('b').map((e) => [e.seq, e.header, e.summary])).toEqual([
      [1, 'e1 header of b', 'e1 summary of b'],
      [2, 'e2 header of b', 'e2 summary of b'],
      [3, 'e3 header of b', 'e3 summary of b'],
    ]);
    expect(a.exchanges('b')[2]!.createdAt).toBe(T0 + 12 * 60_000);
    expect(a.exchanges('nobody')).toEqual([]);
    expect(a.get('b', 3)).toEqual(exchange('b', 3, 12, undefined, onlyB, 'The build fails on zebras too.'));
    a.close();
  });

  it('searches across sessions; a per-session search still sees only its own', () => {
    const { a } = fill(tempPath());
    const hits = a.searchAll('zebras', 10);
    expect(hits.map((h) => `${h.sessionId}/${h.seq}`).sort()).toEqual(['a/2', 'b/3']);
    expect(hits.every((h) => h.snippet.includes('[zebras]'))).toBe(true);
    expect(a.search('a', 'zebras', 10).map((h) => h.sessionId)).toEqual(['a']);
    expect(a.searchAll('zebras', 1)).toHaveLength(1);
    expect(a.searchAll('   ', 10)).toEqual([]);
    expect(a.searchAll('"quoted', 10)).toEqual([]); // a stray quote is a term, not an FTS syntax error
    a.close();
  });

  it('deletes a session in full: rows, FTS rows, session row and the blobs no other session uses', () => {
    const path = tempPath();
    const { a } = fill(path);
    a.setSessionInfo('b', { title: 'Imported build fix', source: 'claude-code:x.jsonl' }, T0);
    expect(a.sessions().find((s) => s.id === 'b')!.title).toBe('Imported build fix'); // an import's title wins
    expect(a.stats().blobs).toBe(3); // long query, shared, onlyB
    expect(a.deleteSession('b')).toEqual({ exchanges: 3, blobs: 1 });
    expect(a.sessionInfo('b')).toBeUndefined();
    a.close();
    expect(countRows(path, 'SELECT COUNT(*) AS n FROM exchanges WHERE session_id = ?', 'b')).toBe(0);
    expect(countRows(path, 'SELECT COUNT(*) AS n FROM exchanges_fts WHERE session_id = ?', 'b')).toBe(0);
    expect(countRows(path, 'SELECT COUNT(*) AS n FROM sessions WHERE id = ?', 'b')).toBe(0);
    expect(countRows(path, 'SELECT COUNT(*) AS n FROM blobs')).toBe(2);

    const b = openSqliteArchive(path);
    expect(b.sessions().map((s) => s.id)).toEqual(['a']);
    expect(b.get('a', 2)!.full[0]!.content[0]).toMatchObject({ content: shared }); // the shared blob survived
    expect(b.searchAll('zebras', 10).map((h) => h.sessionId)).toEqual(['a']);
    expect(b.deleteSession('b')).toEqual({ exchanges: 0, blobs: 0 });
    // The deleted id can be archived again from seq 1 (nothing of it is left behind).
    b.put(exchange('b', 1, 20, 'A new start', '', 'Sure.'));
    expect(b.sessions().find((s) => s.id === 'b')).toMatchObject({ title: 'A new start', exchanges: 1 });
    b.close();
  });

  it('rolls the whole delete back when it fails half way', () => {
    const path = tempPath();
    const { a } = fill(path);
    a.close();
    // A trigger that fails the blob delete: the exchange and FTS deletes before it must be undone.
    withRawDb(path, (db) => db.exec("CREATE TRIGGER no_blob_delete BEFORE DELETE ON blobs BEGIN SELECT RAISE(ABORT, 'blob delete refused'); END;"));
    const b = openSqliteArchive(path);
    expect(() => b.deleteSession('b')).toThrow(ArchiveError);
    b.close();
    expect(countRows(path, 'SELECT COUNT(*) AS n FROM exchanges WHERE session_id = ?', 'b')).toBe(3);
    expect(countRows(path, 'SELECT COUNT(*) AS n FROM exchanges_fts WHERE session_id = ?', 'b')).toBe(3);
    expect(countRows(path, 'SELECT COUNT(*) AS n FROM sessions WHERE id = ?', 'b')).toBe(1);
  });

  it('titles sessions without reading any exchange: the title is stored with the first exchange', () => {
    const path = tempPath();
    const { a } = fill(path);
    for (let i = 0; i < 20; i++) a.put(exchange(`n${i}`, 1, 20 + i, `Question number ${i}`, '', 'Answer.'));
    const reads = vi.spyOn(a, 'get');
    const sessions = a.sessions();
    expect(sessions).toHaveLength(22);
    expect(sessions.find((s) => s.id === 'n7')!.title).toBe('Question number 7');
    expect(sessions.find((s) => s.id === 'b')!.title).toBe('Why does the build fail?');
    expect(reads).not.toHaveBeenCalled();
    a.close();
    // Every body made unreadable: the titles do not depend on them.
    withRawDb(path, (db) => db.prepare("UPDATE exchanges SET body_json = '{broken'").run());
    const b = openSqliteArchive(path);
    expect(b.sessions().find((s) => s.id === 'b')).toMatchObject({ title: 'Why does the build fail?', exchanges: 3 });
    b.close();
  });

  it('takes the title from the lowest seq, also when a retried write fills it after a later one', () => {
    const a = openSqliteArchive(tempPath());
    a.put(exchange('r', 2, 1, 'A follow-up', '', 'Second.'));
    expect(a.sessions()[0]!.title).toBe('A follow-up');
    a.put(exchange('r', 1, 0, 'The real start', '', 'First.'));
    a.put(exchange('r', 3, 2, 'Later still', '', 'Third.'));
    expect(a.sessions()[0]!.title).toBe('The real start');
    a.put(exchange('t', 1, 3, undefined, 'only a tool result', 'No query.'));
    expect(a.sessions().find((s) => s.id === 't')!.title).toBe('');
    a.close();
  });

  it('titles a session archived before titles were stored (schema 2 file) from its first exchange once, then records it', () => {
    const path = tempPath();
    copyFileSync(join(__dirname, '../fixtures/archive-schema2.sqlite'), path);
    const a = openSqliteArchive(path);
    const first = vi.spyOn(a, 'get');
    expect(a.sessions()).toEqual([expect.objectContaining({ id: 'schema2', title: 'Fix the app, needle1', exchanges: 3 })]);
    expect(first).toHaveBeenCalledTimes(1);
    first.mockClear();
    expect(a.sessions()[0]!.title).toBe('Fix the app, needle1');
    expect(first).not.toHaveBeenCalled();
    a.close();
    expect(countRows(path, "SELECT COUNT(*) AS n FROM sessions WHERE id = 'schema2' AND title = 'Fix the app, needle1'")).toBe(1);
  });

  it('still lists an old session whose first exchange is damaged, with an empty title, and tries again next time', () => {
    const path = tempPath();
    const { a } = fill(path);
    a.close();
    withRawDb(path, (db) => {
      db.prepare("UPDATE sessions SET title = NULL WHERE id = 'b'").run(); // as archived before schema 5
      db.prepare("UPDATE exchanges SET body_json = '{broken' WHERE session_id = 'b' AND seq = 1").run();
    });
    const b = openSqliteArchive(path);
    expect(b.sessions().find((s) => s.id === 'b')).toMatchObject({ title: '', exchanges: 3 });
    b.close();
    expect(countRows(path, "SELECT COUNT(*) AS n FROM sessions WHERE id = 'b' AND title IS NULL")).toBe(1);
  });
});
