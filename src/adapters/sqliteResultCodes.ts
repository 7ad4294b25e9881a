// SQLite's result codes by number (sqlite3.h), for a driver that reports only the number
// (`node:sqlite`'s `errcode`). An extended code is its primary code plus (n << 8).

const PRIMARY = [
  'OK', 'ERROR', 'INTERNAL', 'PERM', 'ABORT', 'BUSY', 'LOCKED', 'NOMEM', 'READONLY', 'INTERRUPT', 'IOERR', 'CORRUPT', 'NOTFOUND', 'FULL', 'CANTOPEN',
  'PROTOCOL', 'EMPTY', 'SCHEMA', 'TOOBIG', 'CONSTRAINT', 'MISMATCH', 'MISUSE', 'NOLFS', 'AUTH', 'FORMAT', 'RANGE', 'NOTADB', 'NOTICE', 'WARNING',
];

/** Extended codes by primary name: the suffix at index n is the code primary | (n << 8). */
const EXTENDED: Readonly<Record<string, readonly string[]>> = {
  OK: ['', 'LOAD_PERMANENTLY', 'SYMLINK'],
  ERROR: ['', 'MISSING_COLLSEQ', 'RETRY', 'SNAPSHOT', 'RESERVESIZE', 'KEY', 'UNABLE'],
  ABORT: ['', '', 'ROLLBACK'],
  BUSY: ['', 'RECOVERY', 'SNAPSHOT', 'TIMEOUT'],
  LOCKED: ['', 'SHAREDCACHE', 'VTAB'],
  READONLY: ['', 'RECOVERY', 'CANTLOCK', 'ROLLBACK', 'DBMOVED', 'CANTINIT', 'DIRECTORY'],
  IOERR: [
    '', 'READ', 'SHORT_READ', 'WRITE', 'FSYNC', 'DIR_FSYNC', 'TRUNCATE', 'FSTAT', 'UNLOCK', 'RDLOCK', 'DELETE', 'BLOCKED', 'NOMEM', 'ACCESS', 'CHECKRESERVEDLOCK',
    'LOCK', 'CLOSE', 'DIR_CLOSE', 'SHMOPEN', 'SHMSIZE', 'SHMLOCK', 'SHMMAP', 'SEEK', 'DELETE_NOENT', 'MMAP', 'GETTEMPPATH', 'CONVPATH', 'VNODE', 'AUTH',
    'BEGIN_ATOMIC', 'COMMIT_ATOMIC', 'ROLLBACK_ATOMIC', 'DATA', 'CORRUPTFS', 'IN_PAGE',
  ],
  CORRUPT: ['', 'VTAB', 'SEQUENCE', 'INDEX'],
  CANTOPEN: ['', 'NOTEMPDIR', 'ISDIR', 'FULLPATH', 'CONVPATH', 'DIRTYWAL', 'SYMLINK'],
  CONSTRAINT: ['', 'CHECK', 'COMMITHOOK', 'FOREIGNKEY', 'FUNCTION', 'NOTNULL', 'PRIMARYKEY', 'TRIGGER', 'UNIQUE', 'VTAB', 'ROWID', 'PINNED', 'DATATYPE'],
  NOTICE: ['', 'RECOVER_WAL', 'RECOVER_ROLLBACK', 'RBU'],
  WARNING: ['', 'AUTOINDEX'],
  AUTH: ['', 'USER'],
};

/** `SQLITE_BUSY` for 5, `SQLITE_IOERR_WRITE` for 778; an unknown extension names its primary code. */
export function sqliteCodeName(code: number): string {
  const primary = PRIMARY[code & 0xff] ?? String(code & 0xff);
  const extension = EXTENDED[primary]?.[code >> 8];
  return `SQLITE_${primary}${extension ? `_${extension}` : ''}`;
}
