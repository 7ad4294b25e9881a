import { appendFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openJsonlArchive } from '../../src/adapters/jsonlArchiveStore';
import type { ArchivedExchange } from '../../src/engine/ports';
import { ArchiveError } from '../../src/engine/ports';
import { archivedTurn } from '../support/archivedTurn';
import { useTempDirs } from '../support/tempDirs';
import { thrown } from '../support/thrown';

/** The plain-file archive's edges: what it writes (and does not) to the file, what it reads back, and its errors. */
const tempDir = useTempDirs('strata-jsonl-edges-');
const tempPath = () => join(tempDir(), 'archive.jsonl');
const bytes = (path: string) => readFileSync(path, 'utf8');

function turn(sessionId: string, seq: number, minutes: number, query = `query ${seq} of ${sessionId}`): ArchivedExchange {
  return archivedTurn(sessionId, seq, minutes, [{ type: 'text', text: query }], `answer ${seq}`);
}
const putLine = (exchange: ArchivedExchange) => `${JSON.stringify({ t: 'put', ...exchange })}\n`;

const archiveError = (run: () => unknown): ArchiveError => thrown(run, ArchiveError);

describe('JSON Lines archive: the file it keeps', () => {
  it('a new archive starts with its format line; reopening a healthy one changes no byte', () => {
    const path = tempPath();
    const a = openJsonlArchive(path);
    expect(JSON.parse(bytes(path).split('\n')[0]!)).toEqual({ strata_archive: 1 });
    a.put(turn('s', 1, 1));
    a.close();
    const before = bytes(path);
    const b = openJsonlArchive(path);
    expect(b.get('s', 1)).toEqual(turn('s', 1, 1));
    b.close();
    expect(bytes(path)).toBe(before);
  });

  it('an archive holding only its format line reopens empty', () => {
    const path = tempPath();
    openJsonlArchive(path).close();
    const b = openJsonlArchive(path);
    expect(b.listSessions()).toEqual([]);
    expect(b.damagedLines).toEqual([]);
    b.close();
  });

  it('an empty or blank file becomes an archive; blank lines among records are neither damage nor an empty archive', () => {
    const path = tempPath();
    writeFileSync(path, '\n   \n');
    const a = openJsonlArchive(path);
    a.put(turn('s', 1, 1));
    a.close();
    appendFileSync(path, '  \n');
    appendFileSync(path, putLine(turn('s', 2, 2)));
    const b = openJsonlArchive(path);
    expect(b.damagedLines).toEqual([]);
    expect(b.exchanges('s').map((e) => e.seq)).toEqual([1, 2]);
    b.close();
  });

  it('a repeated identical put, an unknown trio update and deleting an unknown session write nothing', () => {
    const path = tempPath();
    const a = openJsonlArchive(path);
    a.put(turn('s', 1, 1));
    const before = bytes(path);
    a.put(turn('s', 1, 1));
    a.updateTrio('s', 2, 'h', 'sum');
    expect(a.deleteSession('nobody')).toEqual({ exchanges: 0, blobs: 0 });
    expect(bytes(path)).toBe(before);
    expect(a.get('s', 2)).toBeUndefined();
    expect(a.deleteSession('s')).toEqual({ exchanges: 1, blobs: 0 });
    a.close();
  });
});

describe('JSON Lines archive: records from other writers', () => {
  it('of two puts of one seq (two writers raced), the first read wins, here and after a reopen', () => {
    const path = tempPath();
    const a = openJsonlArchive(path);
    const first = turn('s', 1, 1, 'the first');
    appendFileSync(path, putLine(first) + putLine(turn('s', 1, 2, 'the second')));
    expect(a.get('s', 1)).toEqual(first);
    a.close();
    const b = openJsonlArchive(path);
    expect(b.get('s', 1)).toEqual(first);
    b.close();
  });

  it('a trio update of an exchange not in the file is skipped without damage', () => {
    const path = tempPath();
    const a = openJsonlArchive(path);
    a.put(turn('s', 1, 1));
    appendFileSync(path, `${JSON.stringify({ t: 'trio', sessionId: 's', seq: 9, header: 'h', summary: 'x' })}\n`);
    expect(a.exchanges('s').map((e) => [e.seq, e.header])).toEqual([[1, 'e1 header of s']]);
    expect(a.damagedLines).toEqual([]);
    a.close();
  });
});

describe('JSON Lines archive: what it hands out', () => {
  it('a put exchange and a read one are copies: changing them changes nothing archived', () => {
    const a = openJsonlArchive(tempPath());
    const exchange = turn('s', 1, 1);
    a.put(exchange);
    (exchange.full[0]!.content[0] as { text: string }).text = 'changed by the caller';
    const read = a.get('s', 1)!;
    expect(read).toEqual(turn('s', 1, 1));
    (read.full[0]!.content[0] as { text: string }).text = 'changed by the reader';
    read.header = 'changed';
    expect(a.get('s', 1)).toEqual(turn('s', 1, 1));
    a.close();
  });

  it("lists sessions by their first exchange's time, which later exchanges do not move; equal starts by id", () => {
    const a = openJsonlArchive(tempPath());
    a.put(turn('late', 1, 20));
    a.put(turn('b', 1, 10));
    a.put(turn('a', 1, 10));
    a.put(turn('late', 2, 30));
    a.put(turn('b', 2, 40));
    expect(a.listSessions()).toEqual(['a', 'b', 'late']);
    expect(a.lastSeq('late')).toBe(2);
    expect(a.lastSeq('a')).toBe(1);
    expect(a.sessions().map((s) => [s.id, s.exchanges, s.firstAt, s.lastAt])).toEqual([
      ['b', 2, turn('b', 1, 10).createdAt, turn('b', 2, 40).createdAt],
      ['late', 2, turn('late', 1, 20).createdAt, turn('late', 2, 30).createdAt],
      ['a', 1, turn('a', 1, 10).createdAt, turn('a', 1, 10).createdAt],
    ]);
    a.close();
  });

  it('equal matches come by session then seq; a limit below one still gives the best hit; a query of no words finds nothing', () => {
    const a = openJsonlArchive(tempPath());
    for (const [id, seq] of [['b', 1], ['b', 2], ['a', 3]] as const) a.put(turn(id, seq, seq, 'same okapi words'));
    expect(a.searchAll('okapi', 10).map((h) => `${h.sessionId}/${h.seq}`)).toEqual(['a/3', 'b/1', 'b/2']);
    expect(a.searchAll('okapi', 2.9).map((h) => `${h.sessionId}/${h.seq}`)).toEqual(['a/3', 'b/1']);
    expect(a.searchAll('okapi', 0)).toHaveLength(1);
    expect(a.searchAll('-- !!', 10)).toEqual([]);
    a.close();
  });

  it('a tokenizer factor that is not a positive number is not used', () => {
    const a = openJsonlArchive(tempPath());
    a.saveTokenFactor('zero', 0, 1);
    a.saveTokenFactor('negative', -1.2, 1);
    a.saveTokenFactor('infinite', Number.POSITIVE_INFINITY, 1);
    a.saveTokenFactor('fine', 1.1, 1);
    expect(['zero', 'negative', 'infinite', 'fine', 'unknown'].map((m) => a.tokenFactor(m))).toEqual([undefined, undefined, undefined, 1.1, undefined]);
    a.close();
  });

  it("':memory:' keeps everything in memory and writes no file", () => {
    const stray = join(process.cwd(), ':memory:');
    const strayBefore = existsSync(stray);
    let written = false;
    try {
      const a = openJsonlArchive(':memory:');
      a.put(turn('s', 1, 1));
      a.updateTrio('s', 1, 'new header', 'new summary');
      a.saveTokenFactor('m', 1.3, 1);
      expect(a.exchanges('s').map((e) => [e.seq, e.header])).toEqual([[1, 'new header']]);
      expect(a.tokenFactor('m')).toBe(1.3);
      expect(a.deleteSession('s')).toEqual({ exchanges: 1, blobs: 0 });
      expect(a.listSessions()).toEqual([]);
      a.close();
    } finally {
      written = !strayBefore && existsSync(stray);
      if (written) rmSync(stray);
    }
    expect(written).toBe(false);
  });
});

describe('JSON Lines archive: errors', () => {
  it('closing twice is fine; a write after close is refused with what to do, reads still answer', () => {
    const path = tempPath();
    const a = openJsonlArchive(path);
    a.put(turn('s', 1, 1));
    a.close();
    a.close();
    const error = archiveError(() => a.put(turn('s', 2, 2)));
    expect(error.code).toBe('archive_closed');
    expect(error.message).toBe(`The archive ${path} is closed; reopen the session.`);
    expect(a.get('s', 1)).toEqual(turn('s', 1, 1));
  });

  it('a folder, or a file in a missing folder, is an archive_io error naming the path and the cause', () => {
    const dir = tempDir();
    const folder = join(dir, 'folder.jsonl');
    mkdirSync(folder);
    const missing = join(dir, 'missing', 'archive.jsonl');
    expect(archiveError(() => openJsonlArchive(folder))).toMatchObject({
      code: 'archive_io',
      message: `The archive ${folder} cannot be read or written (EISDIR). Check the folder exists, is writable and has free space.`,
    });
    expect(archiveError(() => openJsonlArchive(missing))).toMatchObject({ code: 'archive_io', message: expect.stringContaining(`${missing} cannot be read or written (ENOENT)`) });
  });

  it('a file with no Strata line is refused as corrupt and left as it was', () => {
    const path = tempPath();
    writeFileSync(path, 'not an archive\n{"json": "but not ours"}\n');
    const error = archiveError(() => openJsonlArchive(path));
    expect(error.code).toBe('archive_corrupt');
    expect(error.message).toContain(path);
    expect(bytes(path)).toBe('not an archive\n{"json": "but not ours"}\n');
  });
});
