import type { EngineEvent } from '../../src/engine/engineEvents';
import { computeUsage, type Usage } from '../../src/engine/usage';
import { ChatController, type ChatHost, type OpenedSession } from '../../src/extension/chatController';
import type { LastSession, ModelWindow } from '../../src/extension/sessionMemory';
import type { StopQuestion } from '../../src/extension/stopQuestion';
import type { TaskSession } from '../../src/host/openTaskSession';
import { resolveEngineSettings, type EngineSettings } from '../../src/shared/engineSettings';
import type { ApiKeySource, HostCommand, HostToWebview, UsageView } from '../../src/shared/webviewMessages';
import type { TaskEvent } from '../../src/task/taskEvents';
import type { ApprovalDecision, ApprovalRequest } from '../../src/task/tools/tool';

/**
 * A ChatController over a scripted Task session: no model, no archive, no server. Each `send` or
 * `resend` of the Task runs `turn`, which emits Task events and may wait for the stop signal;
 * Condense Now runs `condense`. Everything the controller tells the host is recorded, so a test
 * reads what the webview, the status bar, the memory and the log were told, in order.
 */

/** What one Task call does: emits events and may wait on `signal` (Stop). */
export type TurnScript = (emit: (event: TaskEvent) => void, signal: AbortSignal) => Promise<void>;

/** The knobs a test turns; read at each call, so a test may change them between turns. */
export interface ScriptedKnobs {
  apiKey: ApiKeySource;
  /** What the Stop question answers. */
  stopAnswer: boolean;
  /** Thrown by openSession. */
  openFails: Error | undefined;
  /** openSession waits for it (a slow open). */
  openGate: Promise<void> | undefined;
  /** Thrown by session.close(). */
  closeFails: Error | undefined;
  turn: TurnScript;
  condense: (signal: AbortSignal) => Promise<EngineEvent[]>;
  usageNow: () => Promise<Usage>;
  profile: { id: string; contextWindow: number; condenseModel?: string };
  engineSettings: EngineSettings;
  /** The memory's last session (what a reload finds). */
  last: LastSession | undefined;
}

export interface ScriptedCall {
  sessionId: string;
  kind: 'send' | 'resend';
  text: string;
  seq?: number;
}

export const USAGE: Usage = computeUsage(1_000, 200_000, 16_000, []);

/** `memory: false`, `archiveHook: false`: a host without a session memory, or without the archive tree's hook. */
export function scriptedChat(options: { memory?: boolean; archiveHook?: boolean } = {}) {
  const sent: HostToWebview[] = [];
  const log: string[] = [];
  const usages: UsageView[] = [];
  const archived: string[] = [];
  const commands: HostCommand[] = [];
  const memory: string[] = [];
  const questions: StopQuestion[] = [];
  const opened: string[] = [];
  const closed: string[] = [];
  const rememberedUsage = new Map<string, UsageView>();
  const modelWindows = new Map<string, ModelWindow>();
  const calls: ScriptedCall[] = [];
  const condenseSignals: AbortSignal[] = [];
  const approvers: Array<(request: ApprovalRequest) => Promise<ApprovalDecision>> = [];
  const knobs: ScriptedKnobs = {
    apiKey: 'secretStorage',
    stopAnswer: true,
    openFails: undefined,
    openGate: undefined,
    closeFails: undefined,
    turn: async (emit) => emit({ type: 'idle', reason: 'answered' }),
    condense: async () => [],
    usageNow: async () => USAGE,
    profile: { id: 'claude-sonnet-4-5', contextWindow: 200_000 },
    engineSettings: resolveEngineSettings({ contextWindow: 100_000, reservedOutputTokens: 10_000 }),
    last: undefined,
  };
  let n = 0;

  function session(sessionId: string): TaskSession {
    const listeners = new Set<(event: TaskEvent) => void>();
    const emit = (event: TaskEvent) => listeners.forEach((listener) => listener(event));
    const task = {
      onEvent: (listener: (event: TaskEvent) => void) => (listeners.add(listener), () => void listeners.delete(listener)),
      send: async (text: string, signal: AbortSignal) => (calls.push({ sessionId, kind: 'send', text }), knobs.turn(emit, signal)),
      resend: async (seq: number, text: string, signal: AbortSignal) => (calls.push({ sessionId, kind: 'resend', text, seq }), knobs.turn(emit, signal)),
    };
    const engine = {
      settings: knobs.engineSettings,
      condenseNow: (signal: AbortSignal) => (condenseSignals.push(signal), knobs.condense(signal)),
      usageNow: () => knobs.usageNow(),
    };
    const close = async () => {
      closed.push(sessionId);
      if (knobs.closeFails) throw knobs.closeFails;
    };
    // Only the parts the controller uses.
    return { sessionId, task, engine, profile: { ...knobs.profile }, close } as unknown as TaskSession;
  }

  const host: ChatHost = {
    send: (m) => sent.push(m),
    apiKeySource: async () => knobs.apiKey,
    runCommand: (command) => commands.push(command),
    newSessionId: () => `s-${++n}`,
    openSession: async (sessionId, approve): Promise<OpenedSession> => {
      opened.push(sessionId);
      approvers.push(approve);
      await knobs.openGate;
      if (knobs.openFails) throw knobs.openFails;
      return { session: session(sessionId), lastRequest: () => ({ body: { sessionId }, at: 1 }) };
    },
    autoApprove: () => ({ writes: false, commands: false }),
    showUsage: (u) => usages.push(u),
    ...(options.archiveHook === false ? {} : { exchangeArchived: (id: string) => void archived.push(id) }),
    confirmStop: async (q) => (questions.push(q), knobs.stopAnswer),
    ...(options.memory === false
      ? {}
      : {
          memory: {
            last: () => knobs.last,
            remember: (id: string, text?: string) => void memory.push(text === undefined ? `remember ${id}` : `remember ${id} ${text}`),
            forget: () => void memory.push('forget'),
            cost: (id: string) => (id === 's-1' ? 0.25 : 0),
            addCost: (id: string, usd: number) => void memory.push(`addCost ${id} ${usd.toFixed(4)}`),
            // the meter's last prompt per session: kept apart, so `memory` lists the session and cost writes only
            usage: (id: string) => rememberedUsage.get(id),
            rememberUsage: (id: string, usage: UsageView) => void rememberedUsage.set(id, usage),
            modelWindow: (baseUrl: string, model: string) => modelWindows.get(`${baseUrl} ${model}`),
            rememberModelWindow: (baseUrl: string, model: string, window: ModelWindow) => void modelWindows.set(`${baseUrl} ${model}`, window),
          },
        }),
    logger: { info: (m) => log.push(`info ${m}`), warn: (m) => log.push(`warn ${m}`), error: (m) => log.push(`error ${m}`) },
  };
  const controller = new ChatController(host);

  /** The messages of one type, in order. */
  function of<T extends HostToWebview['type']>(type: T): Array<Extract<HostToWebview, { type: T }>> {
    return sent.filter((m): m is Extract<HostToWebview, { type: T }> => m.type === type);
  }

  /** The latest approve port the controller handed to openSession. */
  const approve = (request: ApprovalRequest) => approvers.at(-1)!(request);

  return { controller, knobs, sent, of, log, usages, archived, commands, memory, rememberedUsage, questions, opened, closed, calls, condenseSignals, approve };
}

/** Waits (on real timers, a few ms a step) until `condition` holds; the scripted session answers at once. */
export async function until(what: string, condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 1));
  }
}

/** A promise and the function that resolves it. */
export function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve: (value: T) => void = () => {};
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** A turn script that waits until it is stopped, then reports its stop as the Task does. */
export const untilStopped: TurnScript = (emit, signal) =>
  new Promise((resolve) => {
    const stop = () => (emit({ type: 'idle', reason: 'stopped' }), resolve());
    if (signal.aborted) stop();
    else signal.addEventListener('abort', stop, { once: true });
  });

/**
 * Sends `text` as turn r1, whose script asks for one edit approval and then runs until stopped;
 * resolves once the approval card is out. `decisions` receives the answer the turn got.
 */
export async function turnWaitingForApproval(chat: ReturnType<typeof scriptedChat>, text: string): Promise<{ decisions: unknown[] }> {
  const decisions: unknown[] = [];
  chat.knobs.turn = async (emit, signal) => {
    decisions.push(await chat.approve({ tool: 'edit_file', input: {}, summary: 'edit' }));
    await untilStopped(emit, signal);
  };
  chat.controller.handle({ type: 'chat/send', requestId: 'r1', text });
  await until('asked', () => chat.of('approval/request').length === 1);
  return { decisions };
}
