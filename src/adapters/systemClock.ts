import type { Clock } from '../engine/ports';

/** Wall-clock time. */
export const systemClock: Clock = { now: () => Date.now() };

/** A clock that starts at `start` and advances `stepMs` per call: deterministic runs and tests. */
export function steppingClock(start: number, stepMs: number): Clock {
  let t = start - stepMs;
  return {
    now: () => {
      t += stepMs;
      return t;
    },
  };
}
