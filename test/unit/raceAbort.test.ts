import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { raceAbort, waitForFirst } from '../../src/extension/raceAbort';

/**
 * The editor's language service serves every LSP tool call of a turn (and a chat's turns share
 * signals through AbortSignal.any) with these two waits: each must leave the signal as it found it.
 */
const stopped = () => new Error('Stopped.');
const abortListeners = (signal: AbortSignal) => getEventListeners(signal, 'abort').length;

/** A subscription a test fires by hand; `live` counts the ones not yet disposed. */
function source() {
  const fires = new Set<() => void>();
  return {
    subscribe: (fire: () => void) => {
      fires.add(fire);
      return { dispose: () => fires.delete(fire) };
    },
    fire: () => [...fires].forEach((f) => f()),
    get live() {
      return fires.size;
    },
  };
}

describe('raceAbort', () => {
  it('leaves no abort listener behind after many requests that resolve or fail', async () => {
    const signal = new AbortController().signal;
    for (let i = 0; i < 25; i++) expect(await raceAbort(Promise.resolve(i), signal, stopped)).toBe(i);
    for (let i = 0; i < 25; i++) await expect(raceAbort(Promise.reject(new Error(`failed ${i}`)), signal, stopped)).rejects.toThrow(`failed ${i}`);
    expect(abortListeners(signal)).toBe(0);
  });

  it('rejects with the stop error when the signal aborts first, and at once when it already has', async () => {
    const abort = new AbortController();
    const pending = raceAbort(new Promise<number>(() => {}), abort.signal, stopped);
    expect(abortListeners(abort.signal)).toBe(1);
    abort.abort();
    await expect(pending).rejects.toThrow('Stopped.');
    expect(abortListeners(abort.signal)).toBe(0);
    await expect(raceAbort(Promise.resolve(1), abort.signal, stopped)).rejects.toThrow('Stopped.');
  });
});

describe('waitForFirst', () => {
  it('settles on the subscription, the timer or cancel, each time releasing the listener, the subscription and the timer', async () => {
    const signal = new AbortController().signal;
    const events = source();
    for (let i = 0; i < 20; i++) {
      const wait = waitForFirst(signal, 60_000, events.subscribe);
      events.fire();
      await wait.done;
    }
    for (let i = 0; i < 20; i++) {
      const wait = waitForFirst(signal, 60_000, events.subscribe);
      wait.cancel();
      await wait.done;
    }
    await waitForFirst(signal, 1, events.subscribe).done; // the timer wins
    expect(abortListeners(signal)).toBe(0);
    expect(events.live).toBe(0);
  });

  it('settles when the signal aborts, and at once on a signal aborted before', async () => {
    const abort = new AbortController();
    const events = source();
    const wait = waitForFirst(abort.signal, 60_000, events.subscribe);
    let settled = false;
    void wait.done.then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    abort.abort();
    await wait.done;
    expect(events.live).toBe(0);
    await waitForFirst(abort.signal, 60_000, events.subscribe).done;
    expect(events.live).toBe(0);
  });

  it('releases a subscription that fires while it is being made', async () => {
    const signal = new AbortController().signal;
    let disposed = 0;
    await waitForFirst(signal, 60_000, (fire) => {
      fire();
      return { dispose: () => (disposed += 1) };
    }).done;
    expect(disposed).toBe(1);
    expect(abortListeners(signal)).toBe(0);
  });

  it('cancel after it settled changes nothing: the subscription is released once', async () => {
    const signal = new AbortController().signal;
    let disposed = 0;
    const wait = waitForFirst(signal, 60_000, () => ({ dispose: () => (disposed += 1) }));
    wait.cancel();
    wait.cancel();
    await wait.done;
    expect(disposed).toBe(1);
  });
});
