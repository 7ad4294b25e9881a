import { readFileSync } from 'node:fs';

/** Alive means signalable and not a zombie (Linux: read from /proc). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !/\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** Waits up to 5 s for `pid` to be gone; the caller asserts `alive` afterwards. */
export async function waitGone(pid: number): Promise<void> {
  for (let i = 0; i < 100 && alive(pid); i++) await new Promise((r) => setTimeout(r, 50));
}
