import type { ChildProcess } from 'node:child_process';
import { StrataError } from '../shared/strataError';

/** Small process and timing helpers of the LSP adapter (no protocol here). */

/** SIGKILL to the server's whole process group (its tsserver children too); Windows: the process. */
export function killGroup(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    if (process.platform === 'win32') child.kill('SIGKILL');
    else process.kill(-child.pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

export function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new StrataError(`${what} gave no answer within ${ms / 1000} s; try again, or read the code with read_file and search_files.`, 'lsp-timeout')), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export function aborted(): StrataError {
  return new StrataError('Stopped by the user before the language server answered.', 'aborted');
}

export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(aborted());
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

export function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
