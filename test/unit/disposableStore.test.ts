import { describe, expect, it } from 'vitest';
import { DisposableStore } from '../../src/extension/disposableStore';

describe('DisposableStore', () => {
  it('disposes everything once, newest first, even when one throws', () => {
    const order: string[] = [];
    const store = new DisposableStore();
    store.add({ dispose: () => order.push('a') });
    store.add({ dispose: () => { throw new Error('boom'); } });
    store.add({ dispose: () => order.push('c') });
    expect(() => store.dispose()).toThrow(/1 disposable/);
    expect(order).toEqual(['c', 'a']);
    store.dispose();
    expect(order).toEqual(['c', 'a']);
  });

  it('disposes at once what is added after it was disposed', () => {
    const store = new DisposableStore();
    expect(store.isDisposed).toBe(false);
    store.dispose();
    expect(store.isDisposed).toBe(true);
    let disposed = false;
    store.add({ dispose: () => (disposed = true) });
    expect(disposed).toBe(true);
  });
});
