import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sharedSessionFiles } from '../support/sharedSessions';

const SCRIPT = join(__dirname, '..', '..', 'scripts', 'crashTest.mjs');
const session = sharedSessionFiles().sort((a, b) => statSync(a).size - statSync(b).size)[0]!;

describe('crash test (scripts/crashTest.mjs, seeded, 8 kill points; the full run is 100)', () => {
  it('after every SIGKILL the archive passes integrity_check, holds every printed turn, and a resume finishes it exactly', () => {
    const run = spawnSync(process.execPath, [SCRIPT, '--points', '8', '--seed', '7', '--session', session], { encoding: 'utf8', timeout: 600_000 });
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/^problems 0$/m);
    expect(run.status).toBe(0);
    const figures = /kill points 8: (\d+) killed mid-run.*\nexchanges checked after kills (\d+), lost (\d+)/.exec(run.stdout);
    expect(figures, run.stdout).not.toBeNull();
    // Kills wait for a seeded turn's row, so most land mid-run and each checks exchanges.
    expect(Number(figures![1])).toBeGreaterThanOrEqual(6);
    expect(Number(figures![2])).toBeGreaterThan(0);
    expect(Number(figures![3])).toBe(0);
    expect(run.stdout).toMatch(/duplicated 0; integrity_check ok after every kill and resume: true/);
  }, 600_000);
});
