import { describe, expect, it } from 'vitest';
import { steppingClock, systemClock } from '../../src/adapters/systemClock';

describe('clocks', () => {
  it('the system clock reads the wall clock', () => {
    const before = Date.now();
    const now = systemClock.now();
    expect(now).toBeGreaterThanOrEqual(before);
    expect(now).toBeLessThanOrEqual(Date.now());
  });

  it('a stepping clock starts at its start and advances one step per reading', () => {
    const clock = steppingClock(Date.UTC(2025, 0, 1), 60_000);
    expect([clock.now(), clock.now(), clock.now()]).toEqual([Date.UTC(2025, 0, 1), Date.UTC(2025, 0, 1, 0, 1), Date.UTC(2025, 0, 1, 0, 2)]);
  });
});
