import type { Disposable } from './disposableStore';

/**
 * `work`'s result, or a rejection with `stopped()` as soon as `signal` aborts (the work itself
 * keeps running: an editor command cannot be cancelled). The abort listener is removed once
 * either settles, so one signal serving a long session's requests collects no listeners.
 */
export async function raceAbort<T>(work: PromiseLike<T>, signal: AbortSignal, stopped: () => Error): Promise<T> {
  if (signal.aborted) throw stopped();
  let onAbort = () => {};
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(stopped());
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([work, aborted]);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

/** A wait `waitForFirst` started: `done` resolves once; `cancel()` ends it early (idempotent). */
export interface FirstOf {
  done: Promise<void>;
  cancel(): void;
}

/**
 * Resolves at the first of: `subscribe`'s callback firing, `ms` elapsing, `signal` aborting,
 * or `cancel()`. Whichever comes first releases all of them (timer, subscription, abort listener).
 */
export function waitForFirst(signal: AbortSignal, ms: number, subscribe: (fire: () => void) => Disposable): FirstOf {
  let settled = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let subscription: Disposable | undefined;
  let resolve = () => {};
  const done = new Promise<void>((r) => (resolve = r));
  const finish = () => {
    if (settled) return;
    settled = true;
    clearTimeout(timer);
    subscription?.dispose();
    signal.removeEventListener('abort', finish);
    resolve();
  };
  signal.addEventListener('abort', finish, { once: true });
  timer = setTimeout(finish, ms);
  subscription = subscribe(finish);
  // A subscription that fired while it was being made is released here.
  if (settled) subscription.dispose();
  if (signal.aborted) finish();
  return { done, cancel: finish };
}
