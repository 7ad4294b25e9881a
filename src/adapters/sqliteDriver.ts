// The port between the SQLite archive and a SQLite library: what `SqliteArchiveStore` uses, so its
// SQL is written once. One adapter file per library implements it: betterSqliteDriver.ts
// (better-sqlite3, a native module) and nodeSqliteDriver.ts (`node:sqlite`, built into Node 22.13+).
// sqliteDrivers.ts says which one a host gets.

/** A value bound to a statement parameter. */
export type SqliteValue = null | number | bigint | string | Uint8Array;

/** A prepared statement; rows come back as plain objects keyed by column name, unchecked. */
export interface SqliteStatement {
  /** The first row, or undefined when there is none. */
  get(...params: SqliteValue[]): unknown;
  all(...params: SqliteValue[]): unknown[];
  /** `changes`: rows the statement inserted, updated or deleted. */
  run(...params: SqliteValue[]): { changes: number };
  /** Rows one at a time (the connection is busy until the iteration ends). */
  iterate(...params: SqliteValue[]): IterableIterator<unknown>;
}

/** One open database file. */
export interface SqliteConnection {
  exec(sql: string): void;
  prepare(sql: string): SqliteStatement;
  /** Runs `work` between BEGIN and COMMIT; ROLLBACK and rethrow when it throws. Nested calls use savepoints. */
  transaction<T>(work: () => T): T;
  readonly open: boolean;
  /** Closes the file; a second call does nothing. */
  close(): void;
}

/** The drivers by the name a user gives (setting `strata.archive.driver`, `--sqlite-driver`). */
export const SQLITE_DRIVER_IDS = ['node-sqlite', 'better-sqlite3'] as const;
export type SqliteDriverId = (typeof SQLITE_DRIVER_IDS)[number];

export interface SqliteDriver {
  readonly id: SqliteDriverId;
  /** How the driver is named to users: `node:sqlite`, `better-sqlite3`. */
  readonly label: string;
  /**
   * Opens (creating if needed) the database at `path`; ':memory:' for a throwaway one.
   * `busyTimeoutMs`: how long a statement waits for another connection's lock before SQLITE_BUSY.
   */
  open(path: string, options: { busyTimeoutMs: number; readonly?: boolean }): SqliteConnection;
  /**
   * SQLite's result-code name of `error` as SQLite spells it, extended where SQLite gave one
   * (`SQLITE_BUSY`, `SQLITE_IOERR_WRITE`, `SQLITE_CORRUPT_VTAB`); undefined when `error` did not
   * come from SQLite.
   */
  errorCode(error: unknown): string | undefined;
}
