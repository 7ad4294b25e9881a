import type { SqliteConnection, SqliteDriver, SqliteValue } from './sqliteDriver';
import { sqliteCodeName } from './sqliteResultCodes';

// The only file that loads `node:sqlite`: SQLite built into Node 22.13+ (and the extension host of a
// current VS Code), so no native module is needed. It is looked up at first use with
// `process.getBuiltinModule`, which answers undefined where it does not exist (Node 20), so a bundle
// that holds this file loads on any Node. @types/node is 20's: the surface used is declared here.

interface NodeSqliteStatement {
  get(...params: SqliteValue[]): unknown;
  all(...params: SqliteValue[]): unknown[];
  run(...params: SqliteValue[]): { changes: number | bigint };
  iterate(...params: SqliteValue[]): IterableIterator<unknown>;
}
interface NodeSqliteDatabase {
  exec(sql: string): void;
  prepare(sql: string): NodeSqliteStatement;
  close(): void;
}
interface NodeSqliteModule {
  DatabaseSync: new (path: string, options?: { readOnly?: boolean }) => NodeSqliteDatabase;
}

/** The first Node with `node:sqlite` usable without a flag. */
const FIRST_NODE = '22.13';

/** Node's own SQLite: the extension host's first choice, and the CLI's where better-sqlite3 does not load. */
export const nodeSqliteDriver: SqliteDriver = {
  id: 'node-sqlite',
  label: 'node:sqlite',
  open(path, options) {
    const { DatabaseSync } = nodeSqlite();
    const db = new DatabaseSync(path, { readOnly: options.readonly ?? false });
    try {
      db.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.floor(options.busyTimeoutMs))}`);
    } catch (error) {
      db.close();
      throw error;
    }
    return connection(db);
  },
  errorCode(error) {
    // node:sqlite's errors: code ERR_SQLITE_ERROR, SQLite's extended result code as the number `errcode`.
    const e = error as { code?: unknown; errcode?: unknown } | null | undefined;
    return e?.code === 'ERR_SQLITE_ERROR' && typeof e.errcode === 'number' ? sqliteCodeName(e.errcode) : undefined;
  },
};

function nodeSqlite(): NodeSqliteModule {
  const found = typeof process.getBuiltinModule === 'function' ? process.getBuiltinModule('node:sqlite') : undefined;
  if (!found) throw new Error(`node:sqlite needs Node ${FIRST_NODE} or later; this is Node ${process.versions.node}.`);
  return found as unknown as NodeSqliteModule;
}

function connection(db: NodeSqliteDatabase): SqliteConnection {
  let open = true;
  let depth = 0;
  return {
    exec: (sql) => db.exec(sql),
    prepare(sql) {
      const statement = db.prepare(sql);
      return {
        get: (...params) => statement.get(...params),
        all: (...params) => statement.all(...params),
        run: (...params) => ({ changes: Number(statement.run(...params).changes) }),
        iterate: (...params) => statement.iterate(...params),
      };
    },
    // As better-sqlite3's: a deferred BEGIN, and a savepoint for a nested call.
    transaction<T>(work: () => T): T {
      const savepoint = depth === 0 ? undefined : `strata_${depth}`;
      db.exec(savepoint ? `SAVEPOINT ${savepoint}` : 'BEGIN');
      depth++;
      try {
        const result = work();
        db.exec(savepoint ? `RELEASE ${savepoint}` : 'COMMIT');
        return result;
      } catch (error) {
        try {
          db.exec(savepoint ? `ROLLBACK TO ${savepoint}; RELEASE ${savepoint}` : 'ROLLBACK');
        } catch {
          // SQLite already rolled back by itself (a full disk, an I/O error): nothing is left to undo.
        }
        throw error;
      } finally {
        depth--;
      }
    },
    get open() {
      return open;
    },
    close() {
      if (!open) return;
      open = false;
      db.close();
    },
  };
}
