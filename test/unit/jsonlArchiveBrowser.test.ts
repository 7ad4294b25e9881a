import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openJsonlArchive } from '../../src/adapters/jsonlArchiveStore';
import type { ArchivedExchange } from '../../src/engine/ports';
import { useTempDirs } from '../support/tempDirs';
import { archivedTurn } from '../support/archivedTurn';

/** Browsing the plain-file archive while chat sessions append to it: tails, torn lines, tombstones. */
const tempDir = useTempDirs('strata-jsonl-browse-');
const tempPath = () => join(tempDir(), 'archive.jsonl');


function turn(sessionId: string, seq: number, query: string): ArchivedExchange {
  return archivedTurn(sessionId, seq, seq, [{ type: 'text', text: query }], `answer ${seq} ünïcödé 日本語`);
}

/** The line a put of `exchange` writes. */
function putLine(exchange: ArchivedExchange): string {
  return `${JSON.stringify({ t: 'put', ...exchange })}\n`;
}

describe('JSON Lines archive browser', () => {
  it("reads only the file's new tail: a damaged line is noted once, however often the browser looks", () => {
    const path = tempPath();
    const chat = openJsonlArchive(path);
    chat.put(turn('a', 1, 'first'));
    appendFileSync(path, '{"t":"put","oops"\n');
    const browser = openJsonlArchive(path);
    expect(browser.damagedLines).toEqual([3]);
    chat.put(turn('a', 2, 'second'));
    chat.put(turn('b', 1, 'other'));
    expect(browser.sessions().map((s) => [s.id, s.exchanges])).toEqual([['a', 2], ['b', 1]]);
    expect(browser.exchanges('a').map((e) => e.seq)).toEqual([1, 2]);
    expect(browser.searchAll('second', 5).map((h) => `${h.sessionId}/${h.seq}`)).toEqual(['a/2']);
    expect(browser.damagedLines).toEqual([3]);
    chat.close();
    browser.close();
  });

  it("another writer's record appended around the browser's own write is still read, and the browser's only once", () => {
    const path = tempPath();
    const browser = openJsonlArchive(path);
    const chat = openJsonlArchive(path);
    chat.put(turn('b', 1, 'from the chat'));
    // The browser's own write lands after the chat's record it has not read yet.
    browser.put(turn('a', 1, 'from the browser'));
    chat.put(turn('b', 2, 'more from the chat'));
    expect(browser.sessions().map((s) => [s.id, s.exchanges])).toEqual([['b', 2], ['a', 1]]);
    browser.deleteSession('a');
    chat.put(turn('b', 3, 'still more'));
    expect(browser.sessions().map((s) => [s.id, s.exchanges])).toEqual([['b', 3]]);
    expect(browser.damagedLines).toEqual([]);
    chat.close();
    browser.close();
  });

  it("every call sees another writer's records: its last seq, its factor, and a put of a seq it took is refused as SQLite refuses it", () => {
    const path = tempPath();
    const one = openJsonlArchive(path);
    const two = openJsonlArchive(path);
    one.put(turn('s', 1, 'from window one'));
    one.saveTokenFactor('m', 1.2, 5);
    expect(two.lastSeq('s')).toBe(1);
    expect(two.tokenFactor('m')).toBe(1.2);
    expect(two.listSessions()).toEqual(['s']);
    expect(two.search('s', 'window', 5).map((h) => h.seq)).toEqual([1]);
    expect(() => two.put(turn('s', 1, 'from window two'))).toThrow(expect.objectContaining({ code: 'archive_conflict' }));
    two.put(turn('s', 1, 'from window one'));
    expect(one.get('s', 1)?.full).toEqual(turn('s', 1, 'from window one').full);
    one.close();
    two.close();
  });

  it('a last line still being written is not damaged: it is read once its newline is there', () => {
    const path = tempPath();
    const browser = openJsonlArchive(path);
    browser.put(turn('a', 1, 'first'));
    const line = putLine(turn('b', 2, 'written in two parts'));
    const cut = Buffer.from(line).subarray(0, Math.floor(Buffer.byteLength(line) / 2) + 1);
    appendFileSync(path, cut);
    expect(browser.sessions().map((s) => s.id)).toEqual(['a']);
    expect(browser.get('b', 2)).toBeUndefined();
    appendFileSync(path, Buffer.from(line).subarray(cut.length));
    expect(browser.sessions().map((s) => s.id)).toEqual(['b', 'a']);
    expect(browser.get('b', 2)).toEqual(turn('b', 2, 'written in two parts'));
    expect(browser.damagedLines).toEqual([]);
    browser.close();
  });

  it('deletes by appending a tombstone: the file before it is unchanged, a reopen honours it, later writes of the id count', () => {
    const path = tempPath();
    const a = openJsonlArchive(path);
    a.put(turn('a', 1, 'keep me'));
    a.put(turn('b', 1, 'delete me'));
    a.put(turn('b', 2, 'delete me too'));
    const before = readFileSync(path);
    expect(a.deleteSession('b')).toEqual({ exchanges: 2, blobs: 0 });
    const after = readFileSync(path);
    expect(after.subarray(0, before.length).equals(before)).toBe(true);
    expect(JSON.parse(after.subarray(before.length).toString('utf8'))).toEqual({ t: 'drop', sessionId: 'b' });
    // A chat still holding the session writes after the tombstone: that exchange is archived again.
    a.put(turn('b', 3, 'written after the delete'));
    a.close();
    const b = openJsonlArchive(path);
    expect(b.sessions().map((s) => [s.id, s.exchanges, s.title])).toEqual([['b', 1, 'written after the delete'], ['a', 1, 'keep me']]);
    expect(b.get('b', 1)).toBeUndefined();
    expect(b.damagedLines).toEqual([]);
    b.close();
  });
});
