import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { CommandRequest, CommandResult, CommandRunner } from '../task/workspacePort';

export interface ShellCommandRunnerOptions {
  /** Shell that runs command lines; default bash (or sh) on POSIX, ComSpec on Windows. */
  shell?: string;
  /** Output bytes kept per command: the first and the last half of this, the middle dropped. */
  maxOutputBytes?: number;
  /** Milliseconds between SIGTERM and SIGKILL when stopping a command. */
  killGraceMs?: number;
  /**
   * Milliseconds to wait for the output pipes to close once the shell has exited (a background
   * child may hold them open for ever); after that the pipes are dropped and the command returns.
   */
  pipeSettleMs?: number;
  /** Environment variables removed before a command runs (default: the Anthropic credentials). */
  hiddenEnv?: readonly string[];
}

/** The API key must never reach a transcript: a model that runs `env` would otherwise read it. */
const DEFAULT_HIDDEN_ENV = ['ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN'];

/** Default cap on captured output: 256 KiB (the engine cuts tool output further for working memory). */
const DEFAULT_MAX_OUTPUT_BYTES = 256 * 1024;

function defaultShell(): string {
  if (process.platform === 'win32') return process.env.ComSpec ?? 'cmd.exe';
  return existsSync('/bin/bash') ? '/bin/bash' : '/bin/sh';
}

/** Keeps the first and last `limit / 2` bytes of a stream and counts what it drops between. */
class HeadTailBuffer {
  private head: Buffer[] = [];
  private headBytes = 0;
  private tail: Buffer[] = [];
  private tailBytes = 0;
  omitted = 0;

  constructor(private readonly limit: number) {}

  push(chunk: Buffer): void {
    const half = Math.floor(this.limit / 2);
    if (this.headBytes < half) {
      const take = chunk.subarray(0, half - this.headBytes);
      this.head.push(take);
      this.headBytes += take.length;
      chunk = chunk.subarray(take.length);
    }
    if (chunk.length === 0) return;
    this.tail.push(chunk);
    this.tailBytes += chunk.length;
    while (this.tailBytes > this.limit - half) {
      const first = this.tail[0]!;
      const excess = this.tailBytes - (this.limit - half);
      if (first.length <= excess) {
        this.tail.shift();
        this.tailBytes -= first.length;
        this.omitted += first.length;
      } else {
        this.tail[0] = first.subarray(excess);
        this.tailBytes -= excess;
        this.omitted += excess;
      }
    }
  }

  text(): string {
    const head = Buffer.concat(this.head).toString('utf8');
    const tail = Buffer.concat(this.tail).toString('utf8');
    return this.omitted > 0 ? `${head}\n[... ${this.omitted} bytes of output omitted ...]\n${tail}` : head + tail;
  }
}

/**
 * Runs command lines through a shell in its own process group, so a timeout or an abort stops
 * the command and every child it started (SIGTERM to the group, SIGKILL after a grace period;
 * `taskkill /T /F` on Windows). stdin is closed, so a command waiting for input ends at once.
 */
export class ShellCommandRunner implements CommandRunner {
  readonly shell: string;
  private readonly maxOutputBytes: number;
  private readonly killGraceMs: number;
  private readonly pipeSettleMs: number;
  private readonly env: NodeJS.ProcessEnv;

  constructor(
    private readonly root: string,
    options: ShellCommandRunnerOptions = {},
  ) {
    this.shell = options.shell ?? defaultShell();
    this.maxOutputBytes = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
    this.killGraceMs = options.killGraceMs ?? 1_000;
    this.pipeSettleMs = options.pipeSettleMs ?? 500;
    this.env = { ...process.env, PAGER: 'cat', GIT_PAGER: 'cat', GIT_TERMINAL_PROMPT: '0' };
    for (const name of options.hiddenEnv ?? DEFAULT_HIDDEN_ENV) delete this.env[name];
  }

  run(request: CommandRequest): Promise<CommandResult> {
    const cwd = request.cwd === '' ? this.root : join(this.root, ...request.cwd.split('/'));
    const windows = process.platform === 'win32';
    const args = windows ? ['/d', '/s', '/c', request.command] : ['-c', request.command];
    const output = new HeadTailBuffer(this.maxOutputBytes);
    let timedOut = false;
    let aborted = request.signal?.aborted ?? false;

    return new Promise<CommandResult>((resolve) => {
      if (!existsSync(cwd)) {
        resolve(result(output, null, false, false, `the working folder ${cwd} does not exist`));
        return;
      }
      const child = spawn(this.shell, args, {
        cwd,
        detached: !windows,
        stdio: ['ignore', 'pipe', 'pipe'],
        windowsHide: true,
        windowsVerbatimArguments: windows,
        env: this.env,
      });
      const timers: NodeJS.Timeout[] = [];
      let exitCode: number | null = null;
      let settled = false;
      const finish = (startError?: string): void => {
        if (settled) return;
        settled = true;
        timers.forEach(clearTimeout);
        request.signal?.removeEventListener('abort', onAbort);
        resolve(result(output, exitCode, timedOut, aborted, startError));
      };
      const stopGroup = (): void => {
        killTree(child, 'SIGTERM');
        timers.push(setTimeout(() => killTree(child, 'SIGKILL'), this.killGraceMs));
        // A process that left the group may hold the pipes open: stop waiting for them.
        timers.push(setTimeout(() => dropPipes(child, finish), this.killGraceMs + this.pipeSettleMs));
      };
      const onAbort = (): void => {
        aborted = true;
        stopGroup();
      };
      child.stdout?.on('data', (chunk: Buffer) => output.push(chunk));
      child.stderr?.on('data', (chunk: Buffer) => output.push(chunk));
      child.on('error', (error) => finish(`${this.shell} could not start: ${error.message}`));
      child.on('exit', (code) => {
        exitCode = code;
        if (!settled) timers.push(setTimeout(() => dropPipes(child, finish), this.pipeSettleMs));
      });
      child.on('close', () => finish());
      timers.push(
        setTimeout(() => {
          timedOut = true;
          stopGroup();
        }, request.timeoutMs),
      );
      if (aborted) stopGroup();
      else request.signal?.addEventListener('abort', onAbort, { once: true });
    });
  }
}

function result(output: HeadTailBuffer, exitCode: number | null, timedOut: boolean, aborted: boolean, startError?: string): CommandResult {
  const r: CommandResult = { output: output.text(), exitCode, timedOut, aborted, truncated: output.omitted > 0, omittedBytes: output.omitted };
  if (startError) r.startError = startError;
  return r;
}

function dropPipes(child: ChildProcess, finish: () => void): void {
  child.stdout?.destroy();
  child.stderr?.destroy();
  finish();
}

/** Signals the child's whole process group (it leads one: spawned detached). */
function killTree(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  if (process.platform === 'win32') {
    spawnSync('taskkill', ['/pid', String(child.pid), '/T', '/F'], { windowsHide: true });
    return;
  }
  try {
    process.kill(-child.pid, signal);
  } catch {
    // the group is already gone
  }
}
