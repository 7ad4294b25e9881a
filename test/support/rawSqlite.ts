import Database from 'better-sqlite3';

/** A connection of the test's own to an archive file, as another tool (or damage) would open it. */
export type RawDb = Database.Database;

/**
 * Opens `path` on a connection of its own, runs `use` and always closes it, also when `use` throws.
 * `readonly` opens it read-only (better-sqlite3's default is read-write).
 */
export function withRawDb<T>(path: string, use: (db: RawDb) => T, options: { readonly?: boolean } = {}): T {
  const db = new Database(path, { readonly: options.readonly ?? false });
  try {
    return use(db);
  } finally {
    db.close();
  }
}

/** The column `n` of the first row `sql` returns (write it `SELECT COUNT(*) AS n ...`), read-only. */
export function countRows(path: string, sql: string, ...params: unknown[]): number {
  return withRawDb(path, (db) => (db.prepare(sql).get(...params) as { n: number }).n, { readonly: true });
}
