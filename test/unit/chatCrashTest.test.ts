import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const SCRIPT = join(__dirname, '..', '..', 'scripts', 'chatCrashTest.mjs');

describe('chat crash test (scripts/chatCrashTest.mjs, seeded, 5 kill points; the full run is 100)', () => {
  it('after every SIGKILL mid-stream or mid-tool the archive holds every printed exchange, and a resume continues the session with a valid request', () => {
    const run = spawnSync(process.execPath, [SCRIPT, '--points', '5', '--seed', '11', '--messages', '2'], { encoding: 'utf8', timeout: 900_000 });
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/^problems 0$/m);
    expect(run.status).toBe(0);
    const figures = /kill points 5: (\d+) killed mid-run.*\nexchanges checked after kills (\d+), lost (\d+)/.exec(run.stdout);
    expect(figures, run.stdout).not.toBeNull();
    expect(Number(figures![1])).toBeGreaterThanOrEqual(3);
    expect(Number(figures![2])).toBeGreaterThan(0);
    expect(Number(figures![3])).toBe(0);
    expect(run.stdout).toMatch(/duplicated 0, rewritten 0; integrity_check ok after every kill and resume: true/);
  }, 900_000);
});
