import type BetterSqlite3 from 'better-sqlite3';
import type { SqliteConnection, SqliteDriver, SqliteValue } from './sqliteDriver';

// The only file that loads better-sqlite3, a native module built for one Node ABI. It is required on
// first use, not at import, so a bundle without it (or a runtime whose ABI it was not built for)
// still loads: the error comes from `open`, where the caller can choose another driver.

let library: typeof BetterSqlite3 | undefined;

/** better-sqlite3's SQLite: the CLI's first choice, and the user's when named. */
export const betterSqliteDriver: SqliteDriver = {
  id: 'better-sqlite3',
  label: 'better-sqlite3',
  open(path, options) {
    // The binary itself loads in this constructor (the first time): an ABI mismatch throws here.
    library ??= require('better-sqlite3') as typeof BetterSqlite3;
    return connection(new library(path, { timeout: options.busyTimeoutMs, readonly: options.readonly ?? false }));
  },
  errorCode(error) {
    // better-sqlite3's SqliteError carries SQLite's (extended) code name as `code`.
    const code = (error as { code?: unknown } | null | undefined)?.code;
    return typeof code === 'string' && code.startsWith('SQLITE_') ? code : undefined;
  },
};

function connection(db: BetterSqlite3.Database): SqliteConnection {
  return {
    exec: (sql) => void db.exec(sql),
    prepare(sql) {
      const statement = db.prepare<SqliteValue[], unknown>(sql);
      return {
        get: (...params) => statement.get(...params),
        all: (...params) => statement.all(...params),
        run: (...params) => ({ changes: statement.run(...params).changes }),
        iterate: (...params) => statement.iterate(...params),
      };
    },
    // better-sqlite3's own: BEGIN/COMMIT, ROLLBACK on a throw, savepoints when nested.
    transaction: (work) => db.transaction(work)(),
    get open() {
      return db.open;
    },
    close() {
      if (db.open) db.close();
    },
  };
}
