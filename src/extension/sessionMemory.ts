import { z } from 'zod';
import type { Logger } from '../engine/ports';
import { usageSchema, type UsageView } from '../shared/webviewMessages';

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
const usagesSchema = z.record(z.string(), usageSchema);
/** A model's window and answer room as the server reported them when a session of it last opened. */
const modelWindowSchema = z.object({ contextWindow: z.number().int().positive(), maxOutputTokens: z.number().int().positive() });
export type ModelWindow = z.infer<typeof modelWindowSchema>;
const modelWindowsSchema = z.record(z.string(), modelWindowSchema);

const LAST_KEY = 'strata.lastSession';
const COSTS_KEY = 'strata.sessionCosts';
const USAGES_KEY = 'strata.sessionUsage';
const MODEL_WINDOWS_KEY = 'strata.modelWindows';
/** Sessions whose cost is kept; the oldest entries go first. */
const MAX_COSTS = 500;
/** Sessions whose last prompt size is kept (a few hundred bytes each, rewritten at every request). */
const MAX_USAGES = 50;
/** Models (per server) whose window is kept. */
const MAX_MODEL_WINDOWS = 20;

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
    this.write(this.global, COSTS_KEY, withNewest(costs, sessionId, (costs[sessionId] ?? 0) + usd, MAX_COSTS));
  }

  /** The last prompt of `sessionId` as the meter showed it, so a reload shows it again; undefined when none was recorded. */
  usage(sessionId: string): UsageView | undefined {
    return this.usages()[sessionId];
  }

  rememberUsage(sessionId: string, usage: UsageView): void {
    this.write(this.global, USAGES_KEY, withNewest(this.usages(), sessionId, usage, MAX_USAGES));
  }

  /**
   * The window `model` had at `baseUrl` when a session of it last opened (the Models API's figure,
   * which the built-in table may not know), so the context panel shows it before the next session
   * opens, after a reload say; undefined when no session of it opened yet.
   */
  modelWindow(baseUrl: string, model: string): ModelWindow | undefined {
    return this.modelWindows()[modelKey(baseUrl, model)];
  }

  rememberModelWindow(baseUrl: string, model: string, window: ModelWindow): void {
    const key = modelKey(baseUrl, model);
    const windows = this.modelWindows();
    const known = windows[key];
    if (known?.contextWindow === window.contextWindow && known.maxOutputTokens === window.maxOutputTokens) return;
    this.write(this.global, MODEL_WINDOWS_KEY, withNewest(windows, key, window, MAX_MODEL_WINDOWS));
  }

  private modelWindows(): Record<string, ModelWindow> {
    const parsed = modelWindowsSchema.safeParse(this.global.get(MODEL_WINDOWS_KEY) ?? {});
    return parsed.success ? { ...parsed.data } : {};
  }

  private costs(): Record<string, number> {
    const parsed = costsSchema.safeParse(this.global.get(COSTS_KEY) ?? {});
    return parsed.success ? { ...parsed.data } : {};
  }

  private usages(): Record<string, UsageView> {
    const parsed = usagesSchema.safeParse(this.global.get(USAGES_KEY) ?? {});
    return parsed.success ? { ...parsed.data } : {};
  }

  private write(memento: Memento, key: string, value: unknown): void {
    Promise.resolve(memento.update(key, value)).catch((error: unknown) => this.logger.warn(`could not remember ${key}: ${error instanceof Error ? error.message : String(error)}`));
  }
}

/** One model at one server (an empty base URL is Anthropic's). */
const modelKey = (baseUrl: string, model: string): string => `${baseUrl} ${model}`;

/** `record` with `key` set to `value` and moved last, the oldest entries dropped beyond `max`. */
function withNewest<T>(record: Record<string, T>, key: string, value: T, max: number): Record<string, T> {
  const next = { ...record };
  delete next[key]; // re-inserted last: the newest stays when the oldest are dropped
  next[key] = value;
  const keys = Object.keys(next);
  for (const key of keys.slice(0, Math.max(0, keys.length - max))) delete next[key];
  return next;
}
