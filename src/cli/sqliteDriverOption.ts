import type { SqliteDriver } from '../adapters/sqliteDriver';
import { chooseSqliteDriver, SQLITE_DRIVER_CHOICES } from '../adapters/sqliteDrivers';
import { NO_DRIVER_ADVICE } from '../adapters/sqliteArchiveStore';
import { StrataError } from '../engine/ports';
import type { OptionSpec } from './commandSpec';

/** `--sqlite-driver`, as replay, import and chat take it. */
export const SQLITE_DRIVER_OPTION: OptionSpec = {
  type: 'string',
  value: `<${SQLITE_DRIVER_CHOICES.join('|')}>`,
  default: 'auto: better-sqlite3 where it loads, else node:sqlite (Node 22.13+)',
  description: 'the SQLite library that reads and writes the archive (the same file either way)',
};

/** A name that is not a driver is a usage error; `auto` is the CLI's order. */
export function sqliteDriverChoice(value: string | undefined): (typeof SQLITE_DRIVER_CHOICES)[number] {
  if (value === undefined) return 'auto';
  const choice = SQLITE_DRIVER_CHOICES.find((c) => c === value);
  if (!choice) throw new StrataError(`--sqlite-driver takes ${SQLITE_DRIVER_CHOICES.join(', ')}, got '${value}'.`, 'usage');
  return choice;
}

/** The driver the CLI uses; when it (or, with auto, every one) does not work in this Node, an error that says why and what to do. */
export function cliSqliteDriver(choice: (typeof SQLITE_DRIVER_CHOICES)[number]): SqliteDriver {
  const chosen = chooseSqliteDriver(choice, 'cli');
  if (!chosen.ok) throw new StrataError(`${chosen.message} ${choice === 'auto' ? NO_DRIVER_ADVICE : 'Leave out --sqlite-driver to let Strata choose.'}`, 'archive_driver');
  return chosen.driver;
}
