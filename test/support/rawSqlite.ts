import type { SqliteConnection } from '../../src/adapters/sqliteDriver';
import { openRaw } from './sqliteDrivers';

/** A connection of the test's own to an archive file, as another tool (or damage) would open it. */
export type RawDb = SqliteConnection;

/**
 * Opens `path` on a connection of its own (the first driver that works in this Node), runs `use`
 * and always closes it, also when `use` throws. `readonly` opens it read-only.
 */
export function withRawDb<T>(path: string, use: (db: RawDb) => T, options: { readonly?: boolean } = {}): T {
  const db = openRaw(path, options);
  try {
    return use(db);
  } finally {
    db.close();
  }
}

/** The column `n` of the first row `sql` returns (write it `SELECT COUNT(*) AS n ...`), read-only. */
export function countRows(path: string, sql: string, ...params: Array<string | number>): number {
  return withRawDb(path, (db) => (db.prepare(sql).get(...params) as { n: number }).n, { readonly: true });
}
