// Bundled and run by test/unit/sqliteCrossDriver.test.ts under two Nodes (the machine's and Node 24):
// `node archiveDump.cjs <archive> <driver: auto|node-sqlite|better-sqlite3> [write]` opens the archive
// with that driver (auto: the CLI's choice in this Node), writes a fixed set of exchanges first when
// asked, then prints as one JSON line everything the store reads back, and the driver it used.
import type { SqliteDriverChoice } from '../../src/adapters/sqliteDrivers';
import { chooseSqliteDriver, SQLITE_DRIVER_CHOICES } from '../../src/adapters/sqliteDrivers';
import { openSqliteArchive } from '../../src/adapters/sqliteArchiveStore';
import { archivedTurn } from './archivedTurn';

const [path, named, mode] = process.argv.slice(2);
const choice: SqliteDriverChoice = SQLITE_DRIVER_CHOICES.find((c) => c === named) ?? 'auto';
const chosen = chooseSqliteDriver(choice, 'cli');
if (!path || !chosen.ok) {
  process.stderr.write(`${chosen.ok ? 'usage: archiveDump <archive> <driver> [write]' : chosen.message}\n`);
  process.exit(1);
}
const archive = openSqliteArchive(path, { driver: chosen.driver });
/** Long enough to be stored once as a blob, shared by two exchanges of two sessions. */
const shared = Array.from({ length: 40 }, (_, i) => `export const value${i} = ${i}; // ünïcödé 日本語`).join('\n');
const session = `written-by-${chosen.driver.id}`;
if (mode === 'write') {
  archive.put(archivedTurn(session, 1, 1, [{ type: 'text', text: 'Where does the zebra config live?' }], 'In zebra.json.'));
  archive.put(archivedTurn(session, 2, 2, [{ type: 'tool_result', tool_use_id: 't2', content: shared }], 'Read it.'));
  archive.put({ ...archivedTurn(session, 3, 3, [{ type: 'text', text: 'Edit it, resent' }], 'Edited.'), supersedes: [2] });
  archive.put(archivedTurn(`${session}-b`, 1, 4, [{ type: 'tool_result', tool_use_id: 't9', content: shared }], 'Same file again.'));
  archive.setSessionInfo(`${session}-b`, { title: 'Imported zebra', source: 'cline:/t/api.json' }, 5);
  archive.saveTokenFactor('claude-x', 1.25, 6);
}
const sessions = archive.sessions();
console.log(
  JSON.stringify({
    driver: chosen.driver.label,
    sessions,
    exchanges: sessions.map((s) => archive.exchanges(s.id).map((e) => archive.get(s.id, e.seq))),
    info: sessions.map((s) => archive.sessionInfo(s.id) ?? null),
    search: archive.searchAll('zebra', 10),
    factor: archive.tokenFactor('claude-x') ?? null,
    stats: archive.stats(),
  }),
);
archive.close();
