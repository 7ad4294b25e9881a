import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ShellCommandRunner } from '../../src/adapters/shellCommandRunner';
import { runToolCall } from '../../src/task/tools/runToolCall';
import { makeToolFixture } from '../support/toolWorkspace';
import type { ToolFixture } from '../support/toolWorkspace';

let fx: ToolFixture;
afterEach(() => fx?.remove());

/** Alive means signalable and not a zombie (a container's PID 1 may never reap orphans). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** Polls until the process is gone; the deadline is generous: this checks death, not speed. */
async function gone(pid: number, deadlineMs = 5_000): Promise<boolean> {
  const until = Date.now() + deadlineMs;
  while (Date.now() < until) {
    if (!isAlive(pid)) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return !isAlive(pid);
}

async function pidFrom(path: string): Promise<number> {
  for (let i = 0; i < 200 && !(existsSync(path) && readFileSync(path, 'utf8').trim() !== ''); i++) await new Promise((r) => setTimeout(r, 25));
  return Number(readFileSync(path, 'utf8').trim());
}

describe('execute_command: commands that do not end', () => {
  it('kills a command at its timeout, with the children it started', async () => {
    fx = makeToolFixture();
    const r = await runToolCall({ name: 'execute_command', input: { command: 'echo $$ > shell.pid; sleep 1000 & echo $! > child.pid; echo started; wait', timeout_seconds: 0.5 } }, fx.ctx);
    expect(r.isError).toBe(true);
    expect(r.text).toBe('The command was stopped after its 0.5 s timeout (in .); it and its child processes were killed. Output so far:\nstarted');
    expect(await gone(await pidFrom(join(fx.root, 'shell.pid')))).toBe(true);
    expect(await gone(await pidFrom(join(fx.root, 'child.pid')))).toBe(true);
  });

  it('escalates to SIGKILL when the command ignores SIGTERM', async () => {
    fx = makeToolFixture();
    const runner = new ShellCommandRunner(fx.root, { killGraceMs: 200 });
    const r = await runner.run({ command: "trap '' TERM; sleep 1000 & echo $! > child.pid; wait; wait", cwd: '', timeoutMs: 500 });
    expect(r.timedOut).toBe(true);
    expect(r.exitCode).toBeNull();
    expect(await gone(await pidFrom(join(fx.root, 'child.pid')))).toBe(true);
  });

  it('an abort stops the command and its children', async () => {
    fx = makeToolFixture();
    const controller = new AbortController();
    const runner = new ShellCommandRunner(fx.root);
    const running = runner.run({ command: 'sleep 1000 & echo $! > child.pid; wait', cwd: '', timeoutMs: 60_000, signal: controller.signal });
    const child = await pidFrom(join(fx.root, 'child.pid'));
    expect(isAlive(child)).toBe(true);
    controller.abort();
    const r = await running;
    expect(r).toMatchObject({ aborted: true, timedOut: false, exitCode: null });
    expect(await gone(child)).toBe(true);
  });

  it('a signal already aborted stops the command at once; the tool says the user stopped it', async () => {
    fx = makeToolFixture();
    const controller = new AbortController();
    controller.abort();
    const runner = new ShellCommandRunner(fx.root);
    const r = await runner.run({ command: 'sleep 1000', cwd: '', timeoutMs: 60_000, signal: controller.signal });
    expect(r.aborted).toBe(true);
    const viaTool = await runToolCall({ name: 'execute_command', input: { command: 'sleep 1000' } }, { ...fx.ctx, signal: controller.signal });
    expect(viaTool.text).toBe('The user stopped the task before execute_command ran.');
  });

  it('returns when the shell exits even if a background child keeps the output pipe open', async () => {
    fx = makeToolFixture();
    const runner = new ShellCommandRunner(fx.root, { pipeSettleMs: 100 });
    const r = await runner.run({ command: 'sleep 1000 & echo $! > bg.pid; echo done', cwd: '', timeoutMs: 60_000 });
    expect(r).toMatchObject({ exitCode: 0, timedOut: false, aborted: false, output: 'done\n' });
    const bg = await pidFrom(join(fx.root, 'bg.pid'));
    process.kill(bg, 'SIGKILL');
    expect(await gone(bg)).toBe(true);
  });
});

describe('command output', () => {
  it('keeps the head and the tail of long output and counts what it dropped', async () => {
    fx = makeToolFixture();
    const runner = new ShellCommandRunner(fx.root, { maxOutputBytes: 1_000 });
    const r = await runner.run({ command: 'seq 1 100000', cwd: '', timeoutMs: 30_000 });
    const total = Array.from({ length: 100000 }, (_, i) => `${i + 1}\n`).join('').length;
    expect(r.truncated).toBe(true);
    expect(r.omittedBytes).toBe(total - 1_000);
    expect(r.output.startsWith('1\n2\n3\n')).toBe(true);
    expect(r.output.endsWith('99999\n100000\n')).toBe(true);
    expect(r.output).toContain(`[... ${total - 1_000} bytes of output omitted ...]`);
  });

  it('closes stdin, so a command waiting for input ends', async () => {
    fx = makeToolFixture();
    const r = await runToolCall({ name: 'execute_command', input: { command: 'if read line; then echo "got:$line"; else echo "end of input"; fi', timeout_seconds: 20 } }, fx.ctx);
    expect(r.text).toBe('The command exited with code 0 (in .). Output:\nend of input');
  });

  it('never passes the Anthropic API key to a command', async () => {
    fx = makeToolFixture();
    const saved = process.env.ANTHROPIC_API_KEY;
    process.env.ANTHROPIC_API_KEY = 'sk-ant-test-secret';
    try {
      const runner = new ShellCommandRunner(fx.root);
      const r = await runner.run({ command: 'echo "[$ANTHROPIC_API_KEY]"; env | grep -c sk-ant-test-secret', cwd: '', timeoutMs: 10_000 });
      expect(r.output).toBe('[]\n0\n');
    } finally {
      if (saved === undefined) delete process.env.ANTHROPIC_API_KEY;
      else process.env.ANTHROPIC_API_KEY = saved;
    }
  });

  it('reports a shell that cannot start', async () => {
    fx = makeToolFixture();
    const runner = new ShellCommandRunner(fx.root, { shell: join(fx.root, 'no-such-shell') });
    const r = await runner.run({ command: 'true', cwd: '', timeoutMs: 5_000 });
    expect(r.startError).toMatch(/could not start: .*ENOENT/);
  });
});
