/** Anything that releases a resource; `vscode.Disposable` has this shape. */
export interface Disposable {
  dispose(): void;
}

/**
 * Owns disposables and releases them together, last added first (VS Code's `lifecycle.ts`
 * vocabulary; STYLE.md: no hand-kept `Disposable[]` arrays). Adding to a disposed store
 * disposes the newcomer at once, so a late registration cannot leak.
 */
export class DisposableStore implements Disposable {
  private readonly items = new Set<Disposable>();
  private disposed = false;

  /** Takes ownership of `item` and returns it, for `const x = store.add(create())`. */
  add<T extends Disposable>(item: T): T {
    if (this.disposed) item.dispose();
    else this.items.add(item);
    return item;
  }

  get isDisposed(): boolean {
    return this.disposed;
  }

  /** Disposes everything, newest first; one failing item does not keep the others alive. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    const errors: unknown[] = [];
    for (const item of [...this.items].reverse()) {
      try {
        item.dispose();
      } catch (error) {
        errors.push(error);
      }
    }
    this.items.clear();
    if (errors.length > 0) throw new AggregateError(errors, `${errors.length} disposable(s) failed to dispose`);
  }
}
