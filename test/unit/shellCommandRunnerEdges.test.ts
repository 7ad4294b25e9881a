import { existsSync, mkdirSync, realpathSync } from 'node:fs';
import { getEventListeners } from 'node:events';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ShellCommandRunner } from '../../src/adapters/shellCommandRunner';
import { useTempDirs } from '../support/tempDirs';

const tempDir = useTempDirs('strata-shell-');
const root = () => realpathSync(tempDir());
const run = (runner: ShellCommandRunner, command: string, cwd = '') => runner.run({ command, cwd, timeoutMs: 30_000 });
const marker = (bytes: number) => `\n[... ${bytes} bytes of output omitted ...]\n`;

describe('ShellCommandRunner: results', () => {
  it('a command that fails gives its exit code and its output, and nothing else set', async () => {
    const r = await run(new ShellCommandRunner(root()), 'echo partial; echo oops >&2; exit 3');
    expect(r.exitCode).toBe(3);
    expect(r.output.split('\n').sort()).toEqual(['', 'oops', 'partial']); // stdout and stderr, in arrival order
    expect(r).toStrictEqual({ output: r.output, exitCode: 3, timedOut: false, aborted: false, truncated: false, omittedBytes: 0 });
  });

  it('runs in the workspace root, or in the workspace folder given', async () => {
    const ws = root();
    mkdirSync(join(ws, 'sub', 'dir'), { recursive: true });
    const runner = new ShellCommandRunner(ws);
    expect((await run(runner, 'pwd')).output).toBe(`${ws}\n`);
    expect((await run(runner, 'pwd', 'sub/dir')).output).toBe(`${join(ws, 'sub', 'dir')}\n`);
  });

  it('a working folder that does not exist is a start error naming it; nothing runs', async () => {
    const ws = root();
    const r = await run(new ShellCommandRunner(ws), 'touch ran', 'missing/dir');
    expect(r).toStrictEqual({ output: '', exitCode: null, timedOut: false, aborted: false, truncated: false, omittedBytes: 0, startError: `the working folder ${join(ws, 'missing', 'dir')} does not exist` });
    expect(existsSync(join(ws, 'ran'))).toBe(false);
  });

  it('a missing shell is a start error naming the shell', async () => {
    const ws = root();
    const shell = join(ws, 'no-such-shell');
    const r = await run(new ShellCommandRunner(ws, { shell }), 'true');
    expect(r).toMatchObject({ exitCode: null, timedOut: false, aborted: false, startError: `${shell} could not start: spawn ${shell} ENOENT` });
  });

  it('uses bash when the machine has it, so bash syntax works', async () => {
    const runner = new ShellCommandRunner(root());
    const bash = existsSync('/bin/bash');
    expect(runner.shell).toBe(bash ? '/bin/bash' : '/bin/sh');
    if (bash) expect((await run(runner, '[[ a == a ]] && echo "$BASH_VERSION" | cut -c1')).output).toMatch(/^\d\n$/);
  });

  it('leaves no abort listener on the signal once the command has finished', async () => {
    const stop = new AbortController();
    const r = await new ShellCommandRunner(root()).run({ command: 'true', cwd: '', timeoutMs: 30_000, signal: stop.signal });
    expect(r.exitCode).toBe(0);
    expect(getEventListeners(stop.signal, 'abort')).toHaveLength(0);
  });
});

describe('ShellCommandRunner: environment', () => {
  const withEnv = async (vars: Record<string, string>, body: () => Promise<void>) => {
    const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
    Object.assign(process.env, vars);
    try {
      await body();
    } finally {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  };

  it('pagers print to the output and git never prompts; the Anthropic auth token is hidden too', async () => {
    await withEnv({ ANTHROPIC_AUTH_TOKEN: 'tok-secret', STRATA_TEST_VISIBLE: 'seen' }, async () => {
      const r = await run(new ShellCommandRunner(root()), 'echo "$PAGER|$GIT_PAGER|$GIT_TERMINAL_PROMPT|${ANTHROPIC_AUTH_TOKEN-unset}|$STRATA_TEST_VISIBLE"');
      expect(r.output).toBe('cat|cat|0|unset|seen\n');
    });
  });

  it('hiddenEnv names the variables to remove, in place of the default list', async () => {
    await withEnv({ ANTHROPIC_AUTH_TOKEN: 'tok-visible', STRATA_TEST_SECRET: 'hush' }, async () => {
      const r = await run(new ShellCommandRunner(root(), { hiddenEnv: ['STRATA_TEST_SECRET'] }), 'echo "${STRATA_TEST_SECRET-unset}|$ANTHROPIC_AUTH_TOKEN"');
      expect(r.output).toBe('unset|tok-visible\n');
    });
  });
});

describe('ShellCommandRunner: the output cap keeps the first half and the last half', () => {
  it('output of exactly the cap is kept whole; one byte more drops one byte from the middle', async () => {
    const ws = root();
    expect(await run(new ShellCommandRunner(ws, { maxOutputBytes: 10 }), 'printf abcdefghij')).toMatchObject({ output: 'abcdefghij', truncated: false, omittedBytes: 0 });
    // An odd cap: the head gets the smaller half.
    expect(await run(new ShellCommandRunner(ws, { maxOutputBytes: 9 }), 'printf abcdefghij')).toMatchObject({ output: `abcd${marker(1)}fghij`, truncated: true, omittedBytes: 1 });
  });

  it('keeps exactly the first and last bytes of a long stream that arrives in many chunks', async () => {
    const full = Array.from({ length: 100_000 }, (_, i) => `${i + 1}\n`).join('');
    const cap = 1_001;
    const r = await run(new ShellCommandRunner(root(), { maxOutputBytes: cap }), 'seq 1 100000');
    const half = Math.floor(cap / 2);
    expect(r.output).toBe(full.slice(0, half) + marker(full.length - cap) + full.slice(full.length - (cap - half)));
    expect(r.omittedBytes).toBe(full.length - cap);
  });

  it('by default keeps 256 KiB', async () => {
    const runner = new ShellCommandRunner(root());
    const under = await run(runner, 'head -c 200000 /dev/zero | tr "\\0" a');
    expect(under).toMatchObject({ truncated: false, omittedBytes: 0 });
    expect(under.output).toBe('a'.repeat(200_000));
    const over = await run(runner, 'head -c 300000 /dev/zero | tr "\\0" a');
    expect(over).toMatchObject({ truncated: true, omittedBytes: 300_000 - 256 * 1024 });
  });
});
