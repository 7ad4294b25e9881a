import { describe, expect, it } from 'vitest';
import { Debouncer, systemTimers, type Timers } from '../../src/extension/debouncer';

/** A clock that moves only when the test says; due timers run in time order as it passes them. */
class ManualTimers implements Timers {
  private time = 0;
  private next = 0;
  private readonly pending = new Map<number, { at: number; run: () => void }>();

  now(): number {
    return this.time;
  }

  setTimeout(run: () => void, ms: number): unknown {
    const id = ++this.next;
    this.pending.set(id, { at: this.time + ms, run });
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.pending.delete(handle as number);
  }

  get scheduled(): number {
    return this.pending.size;
  }

  advance(ms: number): void {
    const end = this.time + ms;
    for (;;) {
      const due = [...this.pending.entries()].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      this.pending.delete(due[0]);
      this.time = due[1].at;
      due[1].run();
    }
    this.time = end;
  }
}

const delays = { quietMs: 1_000, maxWaitMs: 5_000 };

function setup() {
  const timers = new ManualTimers();
  const runs: number[] = [];
  const debouncer = new Debouncer(() => runs.push(timers.now()), delays, timers);
  return { timers, runs, debouncer };
}

describe('Debouncer', () => {
  it('runs once for a burst, quietMs after its last call', () => {
    const { timers, runs, debouncer } = setup();
    for (let i = 0; i < 8; i++) {
      debouncer.schedule();
      timers.advance(delays.quietMs / 4);
    }
    const last = timers.now() - delays.quietMs / 4;
    expect(runs).toEqual([]);
    timers.advance(delays.quietMs);
    expect(runs).toEqual([last + delays.quietMs]);
    timers.advance(delays.maxWaitMs * 3);
    expect(runs).toHaveLength(1);
    expect(timers.scheduled).toBe(0);
  });

  it('a steady stream still runs it, never more than maxWaitMs after the first waiting call', () => {
    const { timers, runs, debouncer } = setup();
    const every = delays.quietMs / 2;
    const span = delays.maxWaitMs * 4;
    for (let t = 0; t < span; t += every) {
      debouncer.schedule();
      timers.advance(every);
    }
    timers.advance(delays.quietMs);
    expect(runs.length).toBeGreaterThanOrEqual(span / delays.maxWaitMs);
    expect(runs.length).toBeLessThan(span / every / 2); // far fewer runs than calls
    const gaps = runs.map((at, i) => at - (i === 0 ? 0 : runs[i - 1]!));
    expect(Math.max(...gaps)).toBeLessThanOrEqual(delays.maxWaitMs + every);
  });

  it('starts a new burst after a run', () => {
    const { timers, runs, debouncer } = setup();
    debouncer.schedule();
    timers.advance(delays.quietMs);
    debouncer.schedule();
    timers.advance(delays.quietMs - 1);
    expect(runs).toHaveLength(1);
    timers.advance(1);
    expect(runs).toEqual([delays.quietMs, 2 * delays.quietMs]);
  });

  it('cancel drops a pending run; after dispose nothing runs or is scheduled', () => {
    const { timers, runs, debouncer } = setup();
    debouncer.schedule();
    debouncer.cancel();
    timers.advance(delays.maxWaitMs);
    expect(runs).toEqual([]);
    debouncer.schedule();
    debouncer.dispose();
    debouncer.schedule();
    timers.advance(delays.maxWaitMs);
    expect(runs).toEqual([]);
    expect(timers.scheduled).toBe(0);
  });

  it('runs on the system clock and timers when given none', async () => {
    const before = Date.now();
    const now = systemTimers.now();
    expect(now).toBeGreaterThanOrEqual(before);
    expect(now).toBeLessThanOrEqual(Date.now());
    let cancelled = 0;
    systemTimers.clearTimeout(systemTimers.setTimeout(() => (cancelled += 1), 0));
    const runs: string[] = [];
    const debouncer = new Debouncer(() => runs.push('run'), { quietMs: 1, maxWaitMs: 5 });
    debouncer.schedule();
    await new Promise((r) => setTimeout(r, 30));
    expect(runs).toEqual(['run']);
    expect(cancelled).toBe(0);
  });
});
