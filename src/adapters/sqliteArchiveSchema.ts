/** Ordered schema steps; `PRAGMA user_version` records the last one applied. */
export const ARCHIVE_MIGRATIONS: ReadonlyArray<{ version: number; sql: string }> = [
  {
    version: 1,
    sql: `
      CREATE TABLE sessions (id TEXT PRIMARY KEY, created_at INTEGER NOT NULL);
      CREATE TABLE blobs (hash TEXT PRIMARY KEY, text TEXT NOT NULL, bytes INTEGER NOT NULL);
      CREATE TABLE exchanges (
        session_id TEXT NOT NULL REFERENCES sessions(id),
        seq INTEGER NOT NULL,
        created_at INTEGER NOT NULL,
        header TEXT NOT NULL,
        summary TEXT NOT NULL,
        body_json TEXT NOT NULL,
        tokens INTEGER NOT NULL,
        PRIMARY KEY (session_id, seq)
      );
      CREATE VIRTUAL TABLE exchanges_fts USING fts5(session_id UNINDEXED, seq UNINDEXED, header, summary, body);
    `,
  },
  {
    // The tokenizer's learned correction per model, so a new session starts calibrated.
    version: 2,
    sql: `CREATE TABLE token_calibration (model TEXT PRIMARY KEY, factor REAL NOT NULL, updated_at INTEGER NOT NULL);`,
  },
  {
    // What names a session in lists (its first query) and where it came from (an imported transcript).
    version: 3,
    sql: `CREATE TABLE session_info (session_id TEXT PRIMARY KEY, title TEXT NOT NULL, source TEXT NOT NULL, updated_at INTEGER NOT NULL);`,
  },
  {
    // An edited, resent message supersedes the exchanges after it: they stay, marked with its seq.
    version: 4,
    sql: `ALTER TABLE exchanges ADD COLUMN superseded_by INTEGER;`,
  },
  {
    // A session's title (`sessionTitle` of its first exchange), written with that exchange so a
    // listing reads no bodies. NULL: archived before schema 5; `sessions()` fills it on first listing.
    version: 5,
    sql: `ALTER TABLE sessions ADD COLUMN title TEXT;`,
  },
];
