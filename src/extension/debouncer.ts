import type { Disposable } from './disposableStore';

/** The clock and timer a Debouncer uses; tests pass a manual one. Times in ms. */
export interface Timers {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemTimers: Timers = {
  now: () => Date.now(),
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** `quietMs`: how long after the last call the action runs; `maxWaitMs`: the longest a burst defers it. */
export interface DebounceDelays {
  quietMs: number;
  maxWaitMs: number;
}

/**
 * Runs `action` once for a burst of `schedule()` calls: `quietMs` after the last call, and never
 * later than `maxWaitMs` after the burst's first call, so a steady stream still runs it now and then.
 */
export class Debouncer implements Disposable {
  private timer: unknown;
  /** When the pending burst began; undefined when nothing is pending. */
  private burstStart: number | undefined;
  private disposed = false;

  constructor(
    private readonly action: () => void,
    private readonly delays: DebounceDelays,
    private readonly timers: Timers = systemTimers,
  ) {}

  schedule(): void {
    if (this.disposed) return;
    const now = this.timers.now();
    this.burstStart ??= now;
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    const wait = Math.max(0, Math.min(this.delays.quietMs, this.burstStart + this.delays.maxWaitMs - now));
    this.timer = this.timers.setTimeout(() => this.fire(), wait);
  }

  /** Drops what is pending: the caller has just done the action itself. */
  cancel(): void {
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.timer = undefined;
    this.burstStart = undefined;
  }

  dispose(): void {
    this.cancel();
    this.disposed = true;
  }

  private fire(): void {
    this.timer = undefined;
    this.burstStart = undefined;
    this.action();
  }
}
