import { SQLITE_DRIVERS, sqliteDriverProblem } from '../../src/adapters/sqliteDrivers';
import type { SqliteConnection, SqliteDriver } from '../../src/adapters/sqliteDriver';

/**
 * The SQLite drivers that work in the Node running the tests, for `describe.each`: better-sqlite3 on
 * the Node it was built for (20 here), node:sqlite on Node 22.13+ (`npm run test:node24` runs the
 * archive suite on Node 24, where the Node-20 better-sqlite3 binary does not load).
 * test/unit/sqliteDrivers.test.ts checks the list is what this Node should have.
 */
export const DRIVERS: ReadonlyArray<{ name: string; driver: SqliteDriver }> = SQLITE_DRIVERS.filter((d) => sqliteDriverProblem(d) === undefined).map((driver) => ({ name: driver.label, driver }));

/** The first working driver: what a test's own connection (another process, damage) uses. */
export function rawDriver(): SqliteDriver {
  const first = DRIVERS[0];
  if (!first) throw new Error(`No SQLite driver works in Node ${process.versions.node}.`);
  return first.driver;
}

/** A connection of the test's own to `path`, as another process would hold it; close it. */
export function openRaw(path: string, options: { readonly?: boolean } = {}): SqliteConnection {
  return rawDriver().open(path, { busyTimeoutMs: 0, ...options });
}
