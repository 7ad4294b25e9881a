import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openSqliteArchive } from '../../src/adapters/sqliteArchiveStore';
import { makeTempDir } from '../../src/adapters/tempFiles';

const CLI = join(__dirname, '..', '..', 'dist', 'cli.js');
const FIXTURES = join(__dirname, '..', 'fixtures', 'import');
const CLAUDE_FILE = join(FIXTURES, 'claude-code', '-home-dev-calc', '0b6c4a52-7a1e-4c39-9d7e-1f2a3b4c5d6e.jsonl');
const CLINE_TASKS = join(FIXTURES, 'cline', 'tasks');
const temp = makeTempDir('strata-cli-import-');
afterAll(() => temp.remove());

function strata(...args: string[]) {
  return spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 120_000, env: { ...process.env, XDG_DATA_HOME: join(temp.dir, 'xdg') } });
}

function sessionsIn(path: string) {
  const archive = openSqliteArchive(path);
  try {
    return archive.listSessions().map((id) => ({ id, exchanges: archive.lastSeq(id), info: archive.sessionInfo(id) }));
  } finally {
    archive.close();
  }
}

describe('node dist/cli.js import (the built bin)', () => {
  it('imports a Claude Code transcript: a line naming the new session, problems on stderr with file and line', () => {
    const archive = join(temp.dir, 'one.sqlite');
    const run = strata('import', CLAUDE_FILE, '--archive', archive);
    expect(run.status).toBe(0);
    const [session] = sessionsIn(archive);
    expect(run.stdout).toBe(
      `${CLAUDE_FILE} (claude-code) -> session ${session!.id}: 3 exchanges, "Fix the failing test in src/math.test.ts"\n` + `imported 1 session (3 exchanges) into ${archive}\n`,
    );
    expect(session!.exchanges).toBe(3);
    expect(run.stderr).toMatch(new RegExp(`strata: warning: ${CLAUDE_FILE.replace(/[.]/g, '\\.')}:13: not valid JSON`));
    expect(run.stderr).toContain('2 sidechain (subagent) lines not imported');
  });

  it('imports a folder of Cline tasks into the default archive (XDG_DATA_HOME), twice as two sessions each', () => {
    expect(strata('import', CLINE_TASKS).status).toBe(0);
    const second = strata('import', CLINE_TASKS, '--from=cline');
    expect(second.status).toBe(0);
    expect(second.stdout).toMatch(/imported 2 sessions \(5 exchanges\) into .*xdg\/strata\/archive\.sqlite\n$/);
    const sessions = sessionsIn(join(temp.dir, 'xdg', 'strata', 'archive.sqlite'));
    expect(sessions.map((s) => s.info?.title).sort()).toEqual(['Add a --verbose flag to the CLI', 'Add a --verbose flag to the CLI', 'Rename the helper to formatDate', 'Rename the helper to formatDate']);
    expect(new Set(sessions.map((s) => s.id)).size).toBe(4);
  });

  it('a file read in the wrong format fails with the reason and exit 1', () => {
    const run = strata('import', CLAUDE_FILE, '--from', 'cline', '--archive', join(temp.dir, 'wrong.sqlite'));
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`strata: error: ${CLAUDE_FILE} was not imported: Cline history ${CLAUDE_FILE} is not valid JSON`);
    expect(run.stdout).toContain('imported 0 sessions (0 exchanges)');
  });

  it('nothing at the path is exit 1; usage errors are exit 2 with nothing printed', () => {
    const missing = strata('import', join(temp.dir, 'nope'), '--archive', join(temp.dir, 'x.sqlite'));
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain('Nothing to import at');
    for (const [args, message] of [
      [['import'], 'import takes exactly one file or folder, got 0'],
      [['import', 'a', 'b'], 'got 2'],
      [['import', CLAUDE_FILE, '--from', 'codex'], "--from takes claude-code or cline, got 'codex'"],
      [['import', CLAUDE_FILE, '--frobnicate'], 'Unknown option --frobnicate'],
    ] as const) {
      const run = strata(...args);
      expect(run.status, args.join(' ')).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toContain(message);
    }
  });
});
