import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { getEventListeners } from 'node:events';
import { join } from 'node:path';
import { afterEach, describe as group, expect, it, vi } from 'vitest';
import { aborted, describe, exited, killGroup, sleep, withTimeout } from '../../src/adapters/lspProcess';
import { StrataError } from '../../src/shared/strataError';
import { useTempDirs } from '../support/tempDirs';
import { alive, waitGone } from '../support/processAlive';

const tempDir = useTempDirs('strata-lspprocess-');
const started: ChildProcess[] = [];
afterEach(() => {
  vi.useRealTimers();
  for (const child of started.splice(0)) {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    } catch {
      // the group is gone
    }
  }
});

async function pidFrom(path: string): Promise<number> {
  for (let i = 0; i < 200 && !(existsSync(path) && readFileSync(path, 'utf8').trim() !== ''); i++) await new Promise((r) => setTimeout(r, 25));
  return Number(readFileSync(path, 'utf8').trim());
}

/** A shell leading its own process group, as the LSP adapter starts its server. */
function groupLeader(script: string, cwd: string): ChildProcess {
  const child = spawn('/bin/sh', ['-c', script], { cwd, detached: true, stdio: 'ignore' });
  started.push(child);
  return child;
}

group('killGroup', () => {
  it('kills the process and the children in its group, even one that ignores SIGTERM', async () => {
    const dir = tempDir();
    const child = groupLeader("trap '' TERM; sleep 1000 & echo $! > child.pid; wait", dir);
    const grandchild = await pidFrom(join(dir, 'child.pid'));
    expect(alive(grandchild)).toBe(true);
    killGroup(child);
    await exited(child);
    expect(child.signalCode).toBe('SIGKILL');
    await waitGone(grandchild);
    expect(alive(grandchild)).toBe(false);
  }, 10_000);

  it('does nothing, and throws nothing, for a process that never started or is already gone', async () => {
    const never = spawn(join(tempDir(), 'no-such-program'), [], { detached: true, stdio: 'ignore' });
    never.on('error', () => undefined);
    expect(() => killGroup(never)).not.toThrow();
    const done = groupLeader('exit 0', tempDir());
    await exited(done);
    expect(() => killGroup(done)).not.toThrow();
  });
});

group('exited', () => {
  it('waits for a running process and settles at once for one that has exited or was killed', async () => {
    const child = groupLeader('sleep 1000', tempDir());
    let settled = false;
    const waiting = exited(child).then(() => (settled = true));
    await new Promise((r) => setImmediate(r));
    expect(settled).toBe(false);
    child.kill('SIGKILL');
    await waiting;
    expect(child.signalCode).toBe('SIGKILL');
    // After the exit event has gone by: both a signal and an exit code count as exited.
    await exited(child);
    const clean = groupLeader('exit 3', tempDir());
    await new Promise((r) => clean.once('exit', r));
    await exited(clean);
    expect(clean.exitCode).toBe(3);
  }, 10_000);
});

group('withTimeout', () => {
  it('passes the answer through, and the failure of the promise itself', async () => {
    await expect(withTimeout(Promise.resolve('answer'), 1_000, 'hover')).resolves.toBe('answer');
    await expect(withTimeout(Promise.reject(new Error('broken pipe')), 1_000, 'hover')).rejects.toThrow('broken pipe');
  });

  it('an answer too late fails with lsp-timeout, saying what timed out, after how many seconds and what to do', async () => {
    const error: unknown = await withTimeout(new Promise(() => undefined), 50, 'typescript-language-server hover').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StrataError);
    expect(error).toMatchObject({ code: 'lsp-timeout', message: 'typescript-language-server hover gave no answer within 0.05 s; try again, or read the code with read_file and search_files.' });
  });

  it('leaves no timer behind once it settles', async () => {
    vi.useFakeTimers();
    await withTimeout(Promise.resolve(1), 60_000, 'x');
    await withTimeout(Promise.reject(new Error('no')), 60_000, 'x').catch(() => undefined);
    expect(vi.getTimerCount()).toBe(0);
  });
});

group('sleep', () => {
  it('resolves after its time and leaves no abort listener behind', async () => {
    const stop = new AbortController();
    await sleep(10, stop.signal);
    expect(getEventListeners(stop.signal, 'abort')).toHaveLength(0);
  });

  it('an abort rejects it at once with the aborted error, clearing its timer and its listener', async () => {
    vi.useFakeTimers();
    const stop = new AbortController();
    const waiting = sleep(60_000, stop.signal);
    expect(getEventListeners(stop.signal, 'abort')).toHaveLength(1);
    stop.abort();
    await expect(waiting).rejects.toMatchObject({ code: 'aborted', message: 'Stopped by the user before the language server answered.' });
    expect(vi.getTimerCount()).toBe(0);
    expect(getEventListeners(stop.signal, 'abort')).toHaveLength(0);
  });
});

group('aborted and describe', () => {
  it('aborted is a StrataError coded aborted; describe gives an error its message and anything else its text', () => {
    expect(aborted()).toBeInstanceOf(StrataError);
    expect(describe(new Error('pipe closed'))).toBe('pipe closed');
    expect(describe('plain')).toBe('plain');
    expect(describe(42)).toBe('42');
  });
});
