import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../src/adapters/tempFiles';
import { chooseReplaySession, RESUME_LAST } from '../../src/cli/replaySessionId';
import { StrataError } from '../../src/engine/ports';
import { withRawDb } from '../support/rawSqlite';
import { sharedSessionFiles } from '../support/sharedSessions';

const CLI = join(__dirname, '..', '..', 'dist', 'cli.js');
const temp = makeTempDir('strata-resume-');
afterAll(() => temp.remove());

const bySize = sharedSessionFiles().sort((a, b) => statSync(a).size - statSync(b).size);
const smallest = bySize[0]!;
const second = bySize[1]!;
const largest = bySize[bySize.length - 1]!;

function strata(...args: string[]) {
  return spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 120_000 });
}

type Row = { session_id: string; seq: number; created_at: number; header: string; summary: string; body_json: string; tokens: number };
const rows = (path: string) =>
  withRawDb(path, (db) => db.prepare('SELECT session_id, seq, created_at, header, summary, body_json, tokens FROM exchanges ORDER BY session_id, seq').all() as Row[], { readonly: true });
const sessionsOf = (r: Row[]) => [...new Set(r.map((x) => x.session_id))];
const answersIn = (file: string) => readFileSync(file, 'utf8').split('\n').filter((l) => /"role": *"assistant"/.test(l)).length;

describe('chooseReplaySession: a replay starts a new session unless told to resume', () => {
  const key = 'a.jsonl@0000beef';
  it('numbers new sessions of a file one above the highest, ignoring other files', () => {
    expect(chooseReplaySession([], key, undefined)).toEqual({ sessionId: `${key}#1`, resume: false });
    expect(chooseReplaySession([`${key}#1`, `${key}#10`, `${key}#2`, 'a.jsonl@11112222#40'], key, undefined)).toEqual({ sessionId: `${key}#11`, resume: false });
  });

  it('resumes the latest run with `last`, or starts the first when there is none', () => {
    expect(chooseReplaySession([`${key}#2`, `${key}#9`, 'other#30'], key, RESUME_LAST)).toEqual({ sessionId: `${key}#9`, resume: true });
    expect(chooseReplaySession(['other#3'], key, RESUME_LAST)).toEqual({ sessionId: `${key}#1`, resume: false });
  });

  it('resumes a named session of this file, and refuses an unknown one or one of another file', () => {
    expect(chooseReplaySession([`${key}#1`, `${key}#2`], key, `${key}#1`)).toEqual({ sessionId: `${key}#1`, resume: true });
    expect(() => chooseReplaySession([`${key}#1`], key, `${key}#7`)).toThrow(/no such session.*Sessions of this file: a\.jsonl@0000beef#1/);
    expect(() => chooseReplaySession(['a.jsonl@11112222#1'], key, 'a.jsonl@11112222#1')).toThrow(StrataError);
  });
});

describe('strata replay --archive: fresh sessions and --resume', () => {
  it('replaying the same file twice makes two sessions and leaves the first untouched', () => {
    const archive = join(temp.dir, 'twice.sqlite');
    const first = strata('replay', smallest, '--archive', archive, '--quiet');
    expect(first.status).toBe(0);
    expect(first.stdout).toMatch(/^session \S+#1 in .*twice\.sqlite: new$/m);
    const before = rows(archive);
    const second = strata('replay', smallest, '--archive', archive, '--quiet');
    expect(second.status).toBe(0);
    expect(second.stdout).toMatch(/^session \S+#2 in .*: new$/m);
    const after = rows(archive);
    const [one, two] = sessionsOf(after);
    expect(sessionsOf(after)).toHaveLength(2);
    expect(after.filter((r) => r.session_id === one)).toEqual(before);
    const strip = (r: Row[]) => r.map(({ session_id: _s, ...rest }) => rest);
    expect(strip(after.filter((r) => r.session_id === two))).toEqual(strip(before));
  });

  it('two different files of the same name never merge', () => {
    const archive = join(temp.dir, 'same-name.sqlite');
    for (const [dir, source] of [['a', smallest], ['b', second]] as const) {
      mkdirSync(join(temp.dir, dir), { recursive: true });
      copyFileSync(source, join(temp.dir, dir, 'session.jsonl'));
      expect(strata('replay', join(temp.dir, dir, 'session.jsonl'), '--archive', archive, '--quiet').status).toBe(0);
    }
    const all = rows(archive);
    const ids = sessionsOf(all);
    expect(ids).toHaveLength(2);
    expect(ids.every((id) => id.startsWith('session.jsonl@') && id.endsWith('#1'))).toBe(true);
    expect(all.filter((r) => r.session_id === ids[0]).length + all.filter((r) => r.session_id === ids[1]).length).toBe(answersIn(smallest) + answersIn(second));
  });

  it('refuses --resume without --archive, an unknown session, or a session of another file (exit 2)', () => {
    expect(strata('replay', smallest, '--resume', RESUME_LAST).status).toBe(2);
    const archive = join(temp.dir, 'refuse.sqlite');
    expect(strata('replay', smallest, '--archive', archive, '--quiet').status).toBe(0);
    const unknown = strata('replay', smallest, '--archive', archive, '--resume', 'nope#3');
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(/no such session.*Sessions of this file: \S+#1/);
    const mine = sessionsOf(rows(archive))[0]!;
    const other = strata('replay', second, '--archive', archive, '--resume', mine);
    expect(other.status).toBe(2);
    expect(other.stderr).toContain('was not replayed from this file');
  });

  it('stops on SIGTERM at a turn boundary (exit 143), and --resume continues: ids continue, nothing duplicated', async () => {
    const reference = join(temp.dir, 'reference.sqlite');
    expect(strata('replay', largest, '--archive', reference, '--quiet').status).toBe(0);
    const archive = join(temp.dir, 'stopped.sqlite');
    const child = spawn(process.execPath, [CLI, 'replay', largest, '--archive', archive], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      if (/^\s+e3\s/m.test(out) && child.exitCode === null && !child.killed) child.kill('SIGTERM');
    });
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    const code = await new Promise<number | null>((done) => child.on('close', (c) => done(c)));
    expect(code).toBe(143);
    const printed = [...out.matchAll(/^\s+e(\d+)\s/gm)].map((m) => Number(m[1]));
    const stopped = rows(archive);
    expect(stopped.map((r) => r.seq)).toEqual(printed);
    const id = stopped[0]!.session_id;
    expect(err).toContain(`Continue with --resume ${id}`);

    const resumed = strata('replay', largest, '--archive', archive, '--resume', id);
    expect(resumed.status).toBe(0);
    expect(resumed.stdout).toContain(`session ${id} in ${archive}: resumed after e${printed.length}`);
    const resumedTurns = [...resumed.stdout.matchAll(/^\s+e(\d+)\s/gm)].map((m) => Number(m[1]));
    const all = rows(reference);
    expect(resumedTurns[0]).toBe(printed.length + 1);
    expect(resumedTurns.at(-1)).toBe(all.length);
    const final = rows(archive);
    expect(sessionsOf(final)).toEqual([id]);
    expect(final).toEqual(all);
  });
});
