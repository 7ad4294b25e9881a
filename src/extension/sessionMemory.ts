import { z } from 'zod';
import type { Logger } from '../engine/ports';

/** The part of VS Code's `Memento` (workspaceState, globalState) used here; tests pass a Map-backed one. */
export interface Memento {
  get(key: string): unknown;
  update(key: string, value: unknown): PromiseLike<void>;
}

/** Characters of a running turn's message kept, to name it when it is shown as interrupted. */
const MAX_TEXT = 500;

const lastSessionSchema = z.object({
  sessionId: z.string().min(1).max(200),
  /** Set while a turn runs; left behind when the window goes away mid-turn. `text`: its message, cut short. */
  running: z.object({ text: z.string().max(MAX_TEXT) }).optional(),
});
export type LastSession = z.infer<typeof lastSessionSchema>;

const costsSchema = z.record(z.string(), z.number().nonnegative().finite());

const LAST_KEY = 'strata.lastSession';
const COSTS_KEY = 'strata.sessionCosts';
/** Sessions whose cost is kept; the oldest entries go first. */
const MAX_COSTS = 500;

/**
 * What survives a window reload besides the archive: the session the chat was in (per
 * workspace, with a marker while a turn runs) and each session's spent dollars (global: the
 * archive and its sessions are shared by every workspace). The per-workspace part is a JSON file
 * in the workspace's storage folder (adapters/jsonFileState.ts): in code-server a
 * `workspaceState` update still unacknowledged when the page reloaded a second later was lost
 * ("Canceled"), and with it the marker of the turn the reload cut short. Stored values are parsed with zod;
 * a value that does not parse is treated as absent. No `vscode` import.
 */
export class SessionMemory {
  constructor(
    private readonly workspace: Memento,
    private readonly global: Memento,
    private readonly logger: Logger,
  ) {}

  last(): LastSession | undefined {
    const parsed = lastSessionSchema.safeParse(this.workspace.get(LAST_KEY));
    return parsed.success ? parsed.data : undefined;
  }

  /** The chat is in `sessionId`; `runningText` set while a turn of it runs. */
  remember(sessionId: string, runningText?: string): void {
    const value: LastSession = { sessionId, ...(runningText !== undefined ? { running: { text: runningText.slice(0, MAX_TEXT) } } : {}) };
    this.write(this.workspace, LAST_KEY, value);
  }

  /** New Session: a reload then starts empty too. */
  forget(): void {
    this.write(this.workspace, LAST_KEY, undefined);
  }

  /** Dollars spent in `sessionId` so far, 0 when none was recorded. */
  cost(sessionId: string): number {
    return this.costs()[sessionId] ?? 0;
  }

  addCost(sessionId: string, usd: number): void {
    if (!(usd > 0)) return;
    const costs = this.costs();
    const total = (costs[sessionId] ?? 0) + usd;
    delete costs[sessionId]; // re-inserted last: the newest stays when the oldest are dropped
    costs[sessionId] = total;
    const keys = Object.keys(costs);
    for (const key of keys.slice(0, Math.max(0, keys.length - MAX_COSTS))) delete costs[key];
    this.write(this.global, COSTS_KEY, costs);
  }

  private costs(): Record<string, number> {
    const parsed = costsSchema.safeParse(this.global.get(COSTS_KEY) ?? {});
    return parsed.success ? { ...parsed.data } : {};
  }

  private write(memento: Memento, key: string, value: unknown): void {
    Promise.resolve(memento.update(key, value)).catch((error: unknown) => this.logger.warn(`could not remember ${key}: ${error instanceof Error ? error.message : String(error)}`));
  }
}
