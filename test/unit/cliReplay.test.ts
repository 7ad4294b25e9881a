import { spawnSync } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../src/adapters/tempFiles';
import { openSqliteArchive } from '../../src/adapters/sqliteArchiveStore';
import { sharedSessionFiles } from '../support/sharedSessions';

const CLI = join(__dirname, '..', '..', 'dist', 'cli.js');
const temp = makeTempDir('strata-cli-');
afterAll(() => temp.remove());

function strata(...args: string[]) {
  return spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 120_000 });
}

/** Every archived exchange of the file, by `session#seq`. */
function archivedRows(path: string): Map<string, unknown> {
  const archive = openSqliteArchive(path);
  try {
    const rows = new Map<string, unknown>();
    for (const session of archive.listSessions()) {
      for (let seq = 1; seq <= archive.lastSeq(session); seq++) rows.set(`${session}#${seq}`, archive.get(session, seq));
    }
    return rows;
  } finally {
    archive.close();
  }
}

const smallest = sharedSessionFiles().sort((a, b) => statSync(a).size - statSync(b).size)[0]!;

describe('node dist/cli.js replay (the built bin)', () => {
  it('prints a table and a total, and writes one main dump line per recorded answer', () => {
    const dump = join(temp.dir, 'dump.jsonl');
    const run = strata('replay', smallest, '--dump', dump);
    expect(run.stderr).not.toMatch(/error/i);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^ *turn +mode +system/m);
    expect(run.stdout).toMatch(/^total: \d+ requests/m);
    const answers = readFileSync(smallest, 'utf8').split('\n').filter((l) => /"role": *"assistant"/.test(l)).length;
    const lines = readFileSync(dump, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    const mains = lines.filter((l) => l.kind === 'main');
    expect(mains.length).toBe(answers);
    mains.forEach((l, i) => {
      expect(Object.keys(l).sort()).toEqual(['housekeepingTokens', 'kind', 'request', 'turn']);
      expect(l.turn).toBe(i + 1);
      expect(Object.keys(l.request as object).sort()).toEqual(['messages', 'system', 'tools']);
      expect(Number.isInteger(l.housekeepingTokens)).toBe(true);
    });
  });

  it('writes byte-identical dumps for the same session', () => {
    const a = join(temp.dir, 'a.jsonl');
    const b = join(temp.dir, 'b.jsonl');
    expect(strata('replay', smallest, '--dump', a, '--budget', '8000', '--quiet').status).toBe(0);
    expect(strata('replay', smallest, '--dump', b, '--budget', '8000', '--quiet').status).toBe(0);
    expect(readFileSync(a, 'utf8')).toBe(readFileSync(b, 'utf8'));
  });

  it('explains a missing, empty or unknown-format session file and exits 1', () => {
    const missing = strata('replay', join(temp.dir, 'nope.jsonl'));
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain('nope.jsonl');
    const empty = join(temp.dir, 'empty.jsonl');
    writeFileSync(empty, '');
    const e = strata('replay', empty);
    expect(e.status).toBe(1);
    expect(e.stderr).toMatch(/empty/i);
    const csv = join(temp.dir, 'data.csv');
    writeFileSync(csv, 'a,b,c\n1,2,3\n');
    const c = strata('replay', csv);
    expect(c.status).toBe(1);
    expect(c.stderr).toContain('data.csv');
    expect(c.stderr).not.toMatch(/\n\s+at /);
  });

  it('rejects unknown options with usage help (exit 2)', () => {
    const run = strata('replay', smallest, '--frobnicate');
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('Unknown option --frobnicate');
  });
});

describe('replay with a bad archive file', () => {
  it('says the archive is not a database, leaves it untouched, and replays with a temporary one', () => {
    const bad = join(temp.dir, 'bad.sqlite');
    const garbage = Buffer.from('this is not a database, it is a note I must not lose\n'.repeat(200));
    writeFileSync(bad, garbage);
    const run = strata('replay', smallest, '--archive', bad, '--quiet');
    expect(run.status).toBe(0);
    expect(run.stderr).toContain('bad.sqlite');
    expect(run.stderr).toContain('temporary archive');
    expect(readFileSync(bad).equals(garbage)).toBe(true);
  });

  it('keeps what a first replay archived when the same archive is reused: ids are never reused', () => {
    const file = join(temp.dir, 'kept.sqlite');
    const answers = readFileSync(smallest, 'utf8').split('\n').filter((l) => /"role": *"assistant"/.test(l)).length;
    expect(strata('replay', smallest, '--archive', file, '--quiet').status).toBe(0);
    const firstRun = archivedRows(file);
    expect(firstRun.size).toBe(answers);
    const again = strata('replay', smallest, '--archive', file, '--quiet');
    expect(again.status).toBe(0);
    const both = archivedRows(file);
    // nothing the first run wrote was overwritten or lost, and the second run added its own exchanges under new ids
    for (const [key, row] of firstRun) expect(both.get(key), key).toEqual(row);
    expect(both.size).toBe(2 * answers);
  });
});
