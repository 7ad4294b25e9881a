import { chmodSync, existsSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openJsonlArchive } from '../../src/adapters/jsonlArchiveStore';
import { JsonlWriter } from '../../src/adapters/jsonlWriter';
import { writePrivateFile } from '../../src/adapters/privateFiles';
import { SessionRecorder } from '../../src/adapters/sessionRecorder';
import { openSqliteArchive } from '../../src/adapters/sqliteArchiveStore';
import { resolveEngineSettings } from '../../src/shared/engineSettings';
import type { ArchivedExchange } from '../../src/engine/ports';
import { useTempDirs } from '../support/tempDirs';

/** Files that hold what a session's tools printed are their owner's only: created 0600, older ones tightened. */
const tempDir = useTempDirs('strata-modes-');
const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);

// Under the usual umask (022) a file is created 0644 unless its creator asks for less; set it so the tests can fail.
let umask = 0;
beforeAll(() => {
  umask = process.umask(0o022);
});
afterAll(() => {
  process.umask(umask);
});

function exchange(seq: number): ArchivedExchange {
  return { sessionId: 's1', seq, createdAt: 1_000 + seq, header: `e${seq}`, summary: 'read .env', tokens: 10, full: [{ role: 'user', content: [{ type: 'text', text: 'hello' }] }] };
}

describe('files created 0600', () => {
  it('the SQLite archive, and its -wal and -shm while it is open', () => {
    const path = join(tempDir(), 'archive.sqlite');
    const store = openSqliteArchive(path);
    try {
      store.put(exchange(1));
      for (const file of [path, `${path}-wal`, `${path}-shm`]) {
        expect(existsSync(file), file).toBe(true);
        expect(mode(file), file).toBe('600');
      }
    } finally {
      store.close();
    }
  });

  it('an archive left 0644 by an older Strata is tightened when opened, its -wal and -shm too', () => {
    const path = join(tempDir(), 'archive.sqlite');
    const first = openSqliteArchive(path);
    first.put(exchange(1));
    const files = [path, `${path}-wal`, `${path}-shm`];
    for (const file of files) chmodSync(file, 0o644);
    // Another process still holds it open, so -wal and -shm stay for the next open to see.
    const second = openSqliteArchive(path);
    try {
      for (const file of files) expect(mode(file), file).toBe('600');
    } finally {
      second.close();
      first.close();
    }
  });

  it('the JSON Lines archive (new, and an older one tightened)', () => {
    const dir = tempDir();
    const fresh = openJsonlArchive(join(dir, 'new.jsonl'));
    fresh.put(exchange(1));
    fresh.close();
    expect(mode(join(dir, 'new.jsonl'))).toBe('600');
    chmodSync(join(dir, 'new.jsonl'), 0o644);
    openJsonlArchive(join(dir, 'new.jsonl')).close();
    expect(mode(join(dir, 'new.jsonl'))).toBe('600');
  });

  it('a --record file, also one that replaces a 0644 file', () => {
    const dir = tempDir();
    const meta = { model: 'm', system: 's', tools: [], settings: resolveEngineSettings({}), sessionId: 's1' };
    new SessionRecorder(join(dir, 'chat.jsonl'), meta);
    expect(mode(join(dir, 'chat.jsonl'))).toBe('600');
    writeFileSync(join(dir, 'old.jsonl'), 'x');
    expect(mode(join(dir, 'old.jsonl'))).toBe('644');
    new SessionRecorder(join(dir, 'old.jsonl'), meta);
    expect(mode(join(dir, 'old.jsonl'))).toBe('600');
  });

  it('a replay dump and an export', () => {
    const dir = tempDir();
    new JsonlWriter(join(dir, 'dump.jsonl')).close();
    expect(mode(join(dir, 'dump.jsonl'))).toBe('600');
    writeFileSync(join(dir, 'export.md'), 'old');
    writePrivateFile(join(dir, 'export.md'), '# session');
    expect(mode(join(dir, 'export.md'))).toBe('600');
  });
});
