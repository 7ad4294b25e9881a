import type { Memento } from '../../src/extension/sessionMemory';

/** VS Code's workspaceState / globalState for tests: values stored as JSON, as VS Code does; `failWith` makes updates reject. */
export class MapMemento implements Memento {
  readonly values = new Map<string, unknown>();
  failWith: Error | string | undefined;
  get(key: string): unknown {
    return this.values.get(key);
  }
  update(key: string, value: unknown): Promise<void> {
    if (this.failWith !== undefined) return Promise.reject(this.failWith);
    if (value === undefined) this.values.delete(key);
    else this.values.set(key, JSON.parse(JSON.stringify(value)) as unknown);
    return Promise.resolve();
  }
}
