import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ArchivedExchange } from '../../src/engine/ports';
import { openJsonlArchive } from '../../src/adapters/jsonlArchiveStore';
import { openSqliteArchive } from '../../src/adapters/sqliteArchiveStore';
import { makeTempDir } from '../../src/adapters/tempFiles';
import { withRawDb } from '../support/rawSqlite';
import { DRIVERS } from '../support/sqliteDrivers';

const temps: Array<{ remove: () => void }> = [];
afterEach(() => temps.splice(0).forEach((t) => t.remove()));
function tempPath(name = 'archive.sqlite'): string {
  const t = makeTempDir('strata-supersede-');
  temps.push(t);
  return join(t.dir, name);
}

function exchange(seq: number, extra: Partial<ArchivedExchange> = {}): ArchivedExchange {
  return {
    sessionId: 's',
    seq,
    createdAt: 1_700_000_000_000 + seq,
    header: `e${seq} asked about topic${seq}`,
    summary: `e${seq}: answered topic${seq}`,
    tokens: 10 + seq,
    full: [
      { role: 'user', content: [{ type: 'text', text: `question about topic${seq}` }] },
      { role: 'assistant', content: [{ type: 'text', text: `answer ${seq}` }] },
    ],
    ...extra,
  };
}

describe.each(DRIVERS)('SQLite archive: superseded exchanges (edit and resend) (on $name)', ({ driver }) => {
  it('upgrades an archive written by schema 2 (a real file from the previous release) and keeps every row active', () => {
    const path = tempPath();
    copyFileSync(join(__dirname, '../fixtures/archive-schema2.sqlite'), path);
    const archive = openSqliteArchive(path, { driver });
    expect(archive.lastSeq('schema2')).toBe(3);
    for (const seq of [1, 2, 3]) {
      const row = archive.get('schema2', seq);
      expect(row?.summary).toContain(`needle${seq}`);
      expect(row?.supersededBy).toBeUndefined();
    }
    archive.put({ ...exchange(4), sessionId: 'schema2', supersedes: [2, 3] });
    expect(archive.get('schema2', 1)?.supersededBy).toBeUndefined();
    expect(archive.get('schema2', 2)?.supersededBy).toBe(4);
    expect(archive.get('schema2', 3)?.supersededBy).toBe(4);
    archive.close();
    const version = (file: string) => withRawDb(file, (db) => (db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version, { readonly: true });
    const fresh = tempPath();
    openSqliteArchive(fresh, { driver }).close();
    expect(version(path)).toBe(version(fresh)); // every later step applied
    expect(version(path)).toBeGreaterThan(2);
  });
});

/** The same behaviour from the JSON Lines store the extension falls back to when SQLite does not load. */
const stores = [
  ...DRIVERS.map(({ name, driver }) => ({ name: `SQLite (${name})`, file: 'archive.sqlite', open: (path: string) => openSqliteArchive(path, { driver }) })),
  { name: 'JSON Lines', file: 'archive.jsonl', open: (path: string) => openJsonlArchive(path) },
];

describe.each(stores)('$name archive: superseded exchanges (edit and resend)', (store) => {
  it('marks the superseded rows in the same put as the new exchange, and keeps them readable and searchable', () => {
    const path = tempPath(store.file);
    const archive = store.open(path);
    for (const seq of [1, 2, 3]) archive.put(exchange(seq));
    archive.put(exchange(4, { supersedes: [2, 3] }));
    archive.close();
    const reopened = store.open(path);
    expect(reopened.get('s', 2)?.supersededBy).toBe(4);
    expect(reopened.get('s', 3)?.full).toEqual(exchange(3).full);
    expect(reopened.get('s', 4)?.supersededBy).toBeUndefined();
    expect(reopened.get('s', 1)?.supersededBy).toBeUndefined();
    const hits = reopened.search('s', 'topic2', 5);
    expect(hits).toEqual([expect.objectContaining({ seq: 2, supersededBy: 4 })]);
    expect(reopened.search('s', 'topic1', 5)[0]?.supersededBy).toBeUndefined();
    reopened.close();
  });

  it('writes the mark of an exchange put late (a retried write) and on a repeated identical put', () => {
    const path = tempPath(store.file);
    const archive = store.open(path);
    archive.put(exchange(1));
    archive.put(exchange(3, { supersedes: [2] }));
    archive.put(exchange(2, { supersededBy: 3 }));
    expect(archive.get('s', 2)?.supersededBy).toBe(3);
    archive.put(exchange(1, { supersededBy: 3 }));
    expect(archive.get('s', 1)?.supersededBy).toBe(3);
    archive.close();
    const reopened = store.open(path);
    expect([1, 2, 3].map((seq) => reopened.get('s', seq)?.supersededBy)).toEqual([3, 3, undefined]);
    reopened.close();
  });
  it('a repeated identical put marks the rows it supersedes that were filled in since its first put', () => {
    const path = tempPath(store.file);
    const archive = store.open(path);
    archive.put(exchange(3, { supersedes: [1, 2] }));
    archive.put(exchange(1));
    archive.put(exchange(2));
    expect([1, 2].map((seq) => archive.get('s', seq)?.supersededBy)).toEqual([undefined, undefined]);
    archive.put(exchange(3, { supersedes: [1, 2] }));
    expect([1, 2].map((seq) => archive.get('s', seq)?.supersededBy)).toEqual([3, 3]);
    archive.close();
    const reopened = store.open(path);
    expect([1, 2, 3].map((seq) => reopened.get('s', seq)?.supersededBy)).toEqual([3, 3, undefined]);
    reopened.close();
  });
});
