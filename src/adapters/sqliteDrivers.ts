import { betterSqliteDriver } from './betterSqliteDriver';
import { nodeSqliteDriver } from './nodeSqliteDriver';
import type { SqliteDriver, SqliteDriverId } from './sqliteDriver';
import { SQLITE_DRIVER_IDS } from './sqliteDriver';

// Which SQLite driver a host gets: the one place that decides (see ARCHITECTURE.md, adapters).

/** What a user may name: `auto` (the host's order below) or one driver. */
export const SQLITE_DRIVER_CHOICES = ['auto', ...SQLITE_DRIVER_IDS] as const;
export type SqliteDriverChoice = (typeof SQLITE_DRIVER_CHOICES)[number];

/** Who opens the archive: the editor's extension host, or the `strata` CLI. */
export type SqliteHost = 'editor' | 'cli';

/**
 * The order `auto` tries. The editor: Node's own SQLite first (a current VS Code has it, and it needs
 * no binary built for Electron's ABI), better-sqlite3 on an older one. The CLI: better-sqlite3 where
 * its binary loads (the Node it was installed with), node:sqlite on any other Node 22.13+.
 */
export const SQLITE_DRIVER_ORDER: Readonly<Record<SqliteHost, readonly SqliteDriverId[]>> = {
  editor: ['node-sqlite', 'better-sqlite3'],
  cli: ['better-sqlite3', 'node-sqlite'],
};

export const SQLITE_DRIVERS: readonly SqliteDriver[] = [nodeSqliteDriver, betterSqliteDriver];

/** A driver that was tried and does not work here, and why (the loader's error, on one line). */
export interface DriverProblem {
  label: string;
  reason: string;
}

export type DriverChoiceResult = { ok: true; driver: SqliteDriver; skipped: DriverProblem[] } | { ok: false; problems: DriverProblem[]; message: string };

const probed = new WeakMap<SqliteDriver, string | null>();

/**
 * Why `driver` cannot hold an archive here, or undefined when it can: it must open a database (a
 * native binary loads then) and create an FTS5 table (the archive's search index). Asked once per driver.
 */
export function sqliteDriverProblem(driver: SqliteDriver): string | undefined {
  let problem = probed.get(driver);
  if (problem === undefined) {
    problem = probe(driver);
    probed.set(driver, problem);
  }
  return problem ?? undefined;
}

function probe(driver: SqliteDriver): string | null {
  let db;
  try {
    db = driver.open(':memory:', { busyTimeoutMs: 0 });
  } catch (error) {
    return oneLine(error);
  }
  try {
    db.exec('CREATE VIRTUAL TABLE temp.strata_probe USING fts5(text)');
    return null;
  } catch (error) {
    return `its SQLite has no FTS5, which the archive's search needs (${oneLine(error)})`;
  } finally {
    db.close();
  }
}

/**
 * The driver `choice` names, or with `auto` the first of the host's order that works here; when
 * none does, every reason. `drivers`: the ones to pick from (tests pass their own).
 */
export function chooseSqliteDriver(choice: SqliteDriverChoice, host: SqliteHost, drivers: readonly SqliteDriver[] = SQLITE_DRIVERS): DriverChoiceResult {
  const ids = choice === 'auto' ? SQLITE_DRIVER_ORDER[host] : [choice];
  const problems: DriverProblem[] = [];
  for (const id of ids) {
    for (const driver of drivers.filter((d) => d.id === id)) {
      const reason = sqliteDriverProblem(driver);
      if (reason === undefined) return { ok: true, driver, skipped: problems };
      problems.push({ label: driver.label, reason });
    }
  }
  const named = choice === 'auto' ? 'No SQLite driver works' : `The SQLite driver ${problems[0]?.label ?? choice} does not work`;
  const message = `${named} in Node ${process.versions.node}: ${problems.map((p) => `${p.label}: ${p.reason}`).join('; ')}.`;
  return { ok: false, problems, message };
}

/** Most characters of a loader's error quoted (Node's ABI error runs to five lines; on one line here). */
const QUOTED_CHARS = 300;

function oneLine(error: unknown): string {
  const text = (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ').trim();
  return text.length > QUOTED_CHARS ? `${text.slice(0, QUOTED_CHARS)}…` : text;
}
