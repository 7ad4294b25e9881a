import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { betterSqliteDriver } from '../../src/adapters/betterSqliteDriver';
import { nodeSqliteDriver } from '../../src/adapters/nodeSqliteDriver';
import type { SqliteDriver } from '../../src/adapters/sqliteDriver';
import { sqliteCodeName } from '../../src/adapters/sqliteResultCodes';
import { DRIVERS } from '../support/sqliteDrivers';
import { useTempDirs } from '../support/tempDirs';

const tempDir = useTempDirs('strata-sqlite-drivers-');
const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
/** node:sqlite without a flag: Node 22.13 and later. */
const nodeHasSqlite = major > 22 || (major === 22 && minor >= 13);

describe('the SQLite drivers of this Node', () => {
  it('the archive suite runs on node:sqlite wherever Node has it, and on better-sqlite3 where nothing else exists', () => {
    const names = DRIVERS.map((d) => d.name);
    expect(names.includes('node:sqlite')).toBe(nodeHasSqlite);
    if (!nodeHasSqlite) expect(names).toEqual(['better-sqlite3']);
  });

  it('node:sqlite on a Node without it says which Node it needs; on one with it, it opens', () => {
    if (nodeHasSqlite) {
      const db = nodeSqliteDriver.open(':memory:', { busyTimeoutMs: 0 });
      expect(db.prepare('SELECT 1 + 1 AS n').get()).toEqual({ n: 2 });
      db.close();
    } else {
      expect(() => nodeSqliteDriver.open(':memory:', { busyTimeoutMs: 0 })).toThrow(`node:sqlite needs Node 22.13 or later; this is Node ${process.versions.node}.`);
    }
  });

  it('names SQLite result codes as SQLite does, extended ones included', () => {
    expect([5, 14, 26, 778, 267, 1555, 5 | (9 << 8)].map(sqliteCodeName)).toEqual([
      'SQLITE_BUSY',
      'SQLITE_CANTOPEN',
      'SQLITE_NOTADB',
      'SQLITE_IOERR_WRITE',
      'SQLITE_CORRUPT_VTAB',
      'SQLITE_CONSTRAINT_PRIMARYKEY',
      'SQLITE_BUSY',
    ]);
  });

  it('each driver reports only errors that came from SQLite', () => {
    for (const driver of [betterSqliteDriver, nodeSqliteDriver]) {
      expect(driver.errorCode(new Error('plain'))).toBeUndefined();
      expect(driver.errorCode(null)).toBeUndefined();
    }
    expect(nodeSqliteDriver.errorCode(Object.assign(new Error('database is locked'), { code: 'ERR_SQLITE_ERROR', errcode: 5 }))).toBe('SQLITE_BUSY');
    expect(betterSqliteDriver.errorCode(Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR_WRITE' }))).toBe('SQLITE_IOERR_WRITE');
  });
});

describe.each(DRIVERS)('a $name connection', ({ driver }: { driver: SqliteDriver }) => {
  const open = () => driver.open(join(tempDir(), 'db.sqlite'), { busyTimeoutMs: 0 });

  it('commits a transaction, rolls it back when it throws, and nests with savepoints', () => {
    const db = open();
    db.exec('CREATE TABLE t (n INTEGER)');
    const insert = db.prepare('INSERT INTO t (n) VALUES (?)');
    db.transaction(() => insert.run(1));
    expect(() =>
      db.transaction(() => {
        insert.run(2);
        throw new Error('no');
      }),
    ).toThrow('no');
    db.transaction(() => {
      insert.run(3);
      expect(() =>
        db.transaction(() => {
          insert.run(4);
          throw new Error('inner');
        }),
      ).toThrow('inner');
      insert.run(5);
    });
    expect((db.prepare('SELECT n FROM t ORDER BY n').all() as Array<{ n: number }>).map((r) => r.n)).toEqual([1, 3, 5]);
    expect(db.prepare('DELETE FROM t WHERE n > ?').run(2)).toEqual({ changes: 2 });
    expect([...db.prepare('SELECT n FROM t').iterate()]).toEqual([{ n: 1 }]);
    expect(db.prepare('SELECT n FROM t WHERE n = ?').get(9)).toBeUndefined();
    db.close();
    expect(db.open).toBe(false);
    db.close();
  });

  it('waits busyTimeoutMs for another connection, then fails with SQLITE_BUSY', () => {
    const path = join(tempDir(), 'busy.sqlite');
    const a = driver.open(path, { busyTimeoutMs: 0 });
    a.exec('CREATE TABLE t (n INTEGER)');
    a.exec('BEGIN EXCLUSIVE');
    const b = driver.open(path, { busyTimeoutMs: 30 });
    const started = Date.now();
    let error: unknown;
    try {
      b.exec('INSERT INTO t VALUES (1)');
    } catch (e) {
      error = e;
    }
    expect(Date.now() - started).toBeGreaterThanOrEqual(25);
    expect(driver.errorCode(error)).toBe('SQLITE_BUSY');
    a.exec('ROLLBACK');
    a.close();
    b.close();
  });
});
