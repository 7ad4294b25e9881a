import type { EngineEvent } from '../engine/engineEvents';
import type { Logger } from '../engine/ports';
import type { TaskSession } from '../host/openTaskSession';
import { StrataError } from '../shared/strataError';
import type { ApiKeySource, ContextFigures, HistoryEntry, HostCommand, HostToWebview, ModelSettings, UsageView, WebviewToHost } from '../shared/webviewMessages';
import type { ApprovalDecision, ApprovalRequest } from '../task/tools/tool';
import { ApprovalBroker, type AutoApprove } from './approvalBroker';
import type { ClampedSettings } from './clampSettings';
import { stopQuestion, type BusyKind, type ConfirmStop } from './stopQuestion';
import { contextFigures } from './contextFigures';
import { sessionEngineSettings, tableProfile } from '../task/modelProfiles';
import { condenseUsd } from '../task/pricing';
import type { EngineSettings } from '../shared/engineSettings';
import type { SessionMemory } from './sessionMemory';
import { taskEventMessages } from './taskEventMessages';

/** A Task session as the extension opened it, with the latest request body for "Show Last Request". */
export interface OpenedSession {
  session: TaskSession;
  lastRequest(): { body: Record<string, unknown>; at: number } | undefined;
}

/** What the controller needs from the editor; extension.ts supplies it (tests pass plain functions). */
export interface ChatHost {
  send(message: HostToWebview): void;
  apiKeySource(): Promise<ApiKeySource>;
  runCommand(command: HostCommand): void;
  newSessionId(): string;
  /**
   * Opens the Task session `sessionId` (new, or resumed from the archive after a settings or key
   * change). Throws an error whose message tells the user what to do (no key, no folder, no SQLite).
   */
  openSession(sessionId: string, approve: (request: ApprovalRequest) => Promise<ApprovalDecision>): Promise<OpenedSession>;
  autoApprove(): AutoApprove;
  /** The status bar meter. */
  showUsage(usage: UsageView): void;
  /** An exchange of `sessionId` was archived (the archive tree refreshes). */
  exchangeArchived?(sessionId: string): void;
  /** Asks before New Session stops a running turn or condense (a modal in the editor). */
  confirmStop: ConfirmStop;
  /** The last session per workspace and each session's cost, kept across reloads (absent: nothing is kept). */
  memory?: Pick<SessionMemory, 'last' | 'remember' | 'forget' | 'cost' | 'addCost' | 'usage' | 'rememberUsage' | 'modelWindow' | 'rememberModelWindow'>;
  logger: Logger;
}

/** An archived session as the chat shows it when it comes back: its title and compact history. */
export interface ArchivedSessionView {
  title: string;
  history: ResumedHistory;
}

/** A resumed session's compact history (sessionHistory.ts builds it from the archive). */
export interface ResumedHistory {
  entries: HistoryEntry[];
  omitted: number;
}

/** What Condense Now did: nothing to condense, refused while a turn runs, or the engine's events. */
export type CondenseOutcome = { kind: 'no_session' } | { kind: 'busy' } | { kind: 'done'; events: EngineEvent[] };

interface Running {
  kind: BusyKind;
  requestId: string;
  abort: AbortController;
  done: Promise<void>;
}

/**
 * Thin coordinator between the webview and the Task loop. It opens one Task session lazily (at
 * the first message), runs one turn or condense at a time, maps Task events to webview messages
 * and routes approvals. It never holds the webview, and the Task never holds it.
 */
export class ChatController {
  private sessionId: string;
  private opening: Promise<OpenedSession> | undefined;
  private opened: OpenedSession | undefined;
  /** Settings or the key changed: the open session is reopened (resumed) before the next turn. */
  private stale = false;
  private running: Running | undefined;
  private condenseCount = 0;
  /** Shown again if the webview reloads; undefined for a session started here. */
  private history: ResumedHistory | undefined;
  /** The archive's title of a resumed session. */
  private title: string | undefined;
  /** The message of a turn a reload cut short, shown as interrupted until the next turn starts. */
  private interrupted: string | undefined;
  /** Set by dispose(): a turn stopped because the window goes away keeps its "running" marker. */
  private closing = false;
  private readonly approvals: ApprovalBroker;
  private figures: ContextFigures | undefined;
  /** The model settings last pushed: whose window a session's opening is remembered under. */
  private modelSettings: ModelSettings | undefined;

  constructor(private readonly host: ChatHost) {
    this.sessionId = host.newSessionId();
    this.approvals = new ApprovalBroker((m) => host.send(m), () => host.autoApprove());
  }

  get currentSessionId(): string {
    return this.sessionId;
  }

  /** What runs now (a turn or Condense Now), which a session switch would stop; undefined when idle. */
  get busyWith(): Running['kind'] | undefined {
    return this.running?.kind;
  }

  /** The latest Messages API request body of this session, as sent. */
  lastRequest(): { body: Record<string, unknown>; at: number } | undefined {
    return this.opened?.lastRequest();
  }

  /** The tool and input of an approval still waiting for the user (for "Show diff"). */
  pendingApproval(requestId: string): { tool: string; input: unknown } | undefined {
    return this.approvals.pendingRequest(requestId);
  }

  handle(message: WebviewToHost): void {
    switch (message.type) {
      case 'webview/ready':
        this.host.send(this.startedMessage());
        if (this.figures) this.host.send({ type: 'context/figures', figures: this.figures });
        this.approvals.resendPending();
        void this.pushApiKeyStatus();
        return;
      case 'chat/send':
        void this.startTurn(message.requestId, message.text);
        return;
      case 'chat/resend':
        void this.resendTurn(message.requestId, message.seq, message.text);
        return;
      case 'chat/stop':
        if (this.running?.requestId === message.requestId) this.stopRunning('The user stopped the task.');
        return;
      case 'session/new':
        void this.newSession(message.requestId);
        return;
      case 'command/run':
        this.host.runCommand(message.command);
        return;
      case 'approval/respond':
        if (!this.approvals.respond(message.requestId, message.approved, message.feedback)) this.host.logger.warn(`approval ${message.requestId} is not open (already settled or stopped)`);
        return;
    }
  }

  /**
   * Closes the session and starts an empty one; the webview clears its list. When a turn or
   * condense runs the user is asked first: Cancel leaves it running and the chat as it is
   * (`cancelled`); otherwise it is stopped the way Stop does, its work archived.
   */
  async newSession(requestId?: string): Promise<'started' | 'cancelled'> {
    const busy = this.busyWith;
    if (busy && !(await this.host.confirmStop(stopQuestion(busy, { kind: 'new' })))) {
      this.host.logger.info(`New Session cancelled: the ${busy} goes on in session ${this.sessionId}`);
      return 'cancelled';
    }
    const running = this.running;
    this.stopRunning('The user started a new session.');
    await running?.done;
    await this.closeSession();
    this.sessionId = this.host.newSessionId();
    this.history = undefined;
    this.title = undefined;
    this.interrupted = undefined;
    this.host.memory?.forget();
    this.host.logger.info(`session ${this.sessionId} started`);
    this.host.send(this.startedMessage(requestId));
    return 'started';
  }

  /**
   * Continues the archived session `sessionId`: what runs is stopped, the open session closed, and
   * the next message opens `sessionId` (openTaskSession resumes it from the archive, folded). The
   * webview shows `history`. Resuming the session in use changes nothing.
   */
  async resumeSession(sessionId: string, history: ResumedHistory, title?: string): Promise<void> {
    if (sessionId === this.sessionId) return;
    const running = this.running;
    this.stopRunning('The user opened another session.');
    await running?.done;
    await this.closeSession();
    this.sessionId = sessionId;
    this.history = history;
    this.title = title;
    this.interrupted = undefined;
    this.host.memory?.remember(sessionId);
    this.host.logger.info(`session ${sessionId} resumed (${history.entries.length + history.omitted} history entries)`);
    this.host.send(this.startedMessage());
    this.showRememberedUsage();
  }

  /**
   * After a reload or a restart: the chat goes back to the session it was in (the memory's last
   * one), with its archived history; a turn that was running then is shown as interrupted. Does
   * nothing once this activation's chat has started anything, or when the last session was left
   * empty (New Session) or is gone from the archive. `lookup` reads the archive.
   */
  restoreLast(lookup: (sessionId: string) => ArchivedSessionView | undefined): 'restored' | 'none' {
    const last = this.host.memory?.last();
    if (!last || this.running || this.opening || this.history || last.sessionId === this.sessionId) return 'none';
    const found = lookup(last.sessionId);
    // A first turn cut short may have left nothing in the archive: its message is all there is.
    if (!found && !last.running) {
      this.host.logger.info(`the last session ${last.sessionId} is not in the archive; the chat starts a new one`);
      return 'none';
    }
    this.sessionId = last.sessionId;
    this.history = found?.history ?? { entries: [], omitted: 0 };
    this.title = found?.title;
    this.interrupted = last.running?.text;
    this.host.memory?.remember(last.sessionId);
    this.host.logger.info(`session ${last.sessionId} restored after a reload (${this.history.entries.length} history entries${last.running ? ', its running turn interrupted' : ''})`);
    this.host.send(this.startedMessage());
    this.showRememberedUsage();
    return 'restored';
  }

  /** The status bar shows a resumed session's last prompt, as the webview does from `session/started`. */
  private showRememberedUsage(): void {
    const usage = this.host.memory?.usage(this.sessionId);
    if (usage) this.host.showUsage(usage);
  }

  /** Condenses the open session now; its events show as rows in the chat flow. */
  async condenseNow(signal: AbortSignal): Promise<CondenseOutcome> {
    if (this.running) return { kind: 'busy' };
    const requestId = `condense-${++this.condenseCount}`;
    let opened = this.opened;
    // A session resumed from the archive (Open Session, a reload) is opened for it: it has history to condense.
    if (!opened && this.history && this.history.entries.length > 0) {
      try {
        opened = await this.session();
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        this.host.send({ type: 'chat/error', requestId, code: error instanceof StrataError ? error.code : 'session_failed', message });
        return { kind: 'done', events: [] };
      }
    }
    if (!opened) return { kind: 'no_session' };
    const { engine } = opened.session;
    const abort = new AbortController();
    let events: EngineEvent[] = [];
    const done = (async () => {
      try {
        // The engine first estimates the saving: below condenseMinSavingTokens its warning says so and no call is made.
        events = await engine.condenseNow(AbortSignal.any([signal, abort.signal]));
      } catch (error) {
        // The engine throws instead of reporting when it cannot lay the prompt out between turns.
        const message = error instanceof Error ? error.message : String(error);
        this.host.logger.error(`condense now: ${message}`);
        this.host.send({ type: 'chat/error', requestId, code: 'condense_failed', message: `Condense Now failed in the engine (${message}). The conversation goes on; send a message to continue.` });
        return;
      }
      for (const event of events) this.host.send(this.priced({ type: 'chat/engineEvent', requestId, event }, opened));
      await this.showUsageNow(opened.session);
    })();
    this.running = { kind: 'condense', requestId, abort, done };
    this.host.send({ type: 'condense/running', running: true });
    try {
      await done;
    } finally {
      this.running = undefined;
      this.host.send({ type: 'condense/running', running: false });
    }
    return { kind: 'done', events };
  }

  /**
   * A condense event with its call priced in dollars at the condensing model's rates, and that cost
   * added to the session's remembered cost (so a reload carries it on); other messages as they are.
   */
  private priced(message: HostToWebview, opened: OpenedSession): HostToWebview {
    if (message.type !== 'chat/engineEvent' || message.event.type !== 'condense_context') return message;
    const { session } = opened;
    const usd = condenseUsd(message.event, session.profile.condenseModel ?? session.profile.id);
    this.host.memory?.addCost(session.sessionId, usd);
    return { ...message, usd };
  }

  /** The meter and the status bar show the next prompt's size as it is now (after a condense). */
  private async showUsageNow(session: OpenedSession['session']): Promise<void> {
    try {
      const usage = await session.engine.usageNow();
      this.host.send({ type: 'usage/updated', usage });
      this.host.showUsage(usage);
      this.host.memory?.rememberUsage(session.sessionId, usage);
    } catch (error) {
      this.host.logger.warn(`the meter could not be updated after condensing: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** A setting or the key changed: the next turn reopens the session with the new values (same id, resumed). */
  invalidateSession(): void {
    if (this.opened || this.opening) this.stale = true;
  }

  /**
   * `explicit`: the engine settings the user set. Before a session opens the panel shows what one
   * would run with (the model's window and answer room from the built-in table, then `explicit`),
   * so its figures do not change when the first message opens the session.
   */
  pushSettings(settings: ClampedSettings, explicit: Partial<EngineSettings>): void {
    this.host.send({ type: 'settings/changed', engine: settings.engine, model: settings.model });
    this.modelSettings = settings.model;
    // An open session keeps its figures (the model's window and reserve) until it reopens with these.
    if (this.opened) return;
    // The window the server gave this model when a session of it last opened, else the built-in table's.
    const known = this.host.memory?.modelWindow(settings.model.baseUrl, settings.model.model);
    this.pushFigures(contextFigures(sessionEngineSettings({ ...tableProfile(settings.model.model), ...known }, explicit), 'settings'));
  }

  /** The context panel's figures; kept to be sent again when the webview reloads. */
  private pushFigures(figures: ContextFigures): void {
    this.figures = figures;
    this.host.send({ type: 'context/figures', figures });
  }

  async pushApiKeyStatus(): Promise<void> {
    this.host.send({ type: 'apiKey/status', source: await this.host.apiKeySource() });
  }

  /** Stops the turn, refuses open approvals and closes the session (deactivation). */
  async dispose(): Promise<void> {
    this.closing = true;
    const running = this.running;
    this.stopRunning('The editor is closing.');
    await running?.done;
    await this.closeSession();
  }

  /** Edit and resend: a running turn is stopped (and awaited) first, then the Task resends from `e${seq}`. */
  private async resendTurn(requestId: string, seq: number, text: string): Promise<void> {
    const running = this.running;
    this.stopRunning('The user edited an earlier message and resent it.');
    await running?.done;
    await this.startTurn(requestId, text, seq);
  }

  private async startTurn(requestId: string, text: string, resendFrom?: number): Promise<void> {
    if (this.running) {
      this.host.send({ type: 'chat/error', requestId, code: 'task_busy', message: 'Strata is still busy with the previous message or a condense; stop it or wait, then send again.' });
      this.host.send({ type: 'chat/idle', requestId, reason: 'failed' });
      return;
    }
    const abort = new AbortController();
    const sessionId = this.sessionId;
    this.interrupted = undefined;
    this.host.memory?.remember(sessionId, text);
    const done = this.runTurn(requestId, text, abort.signal, resendFrom);
    this.running = { kind: 'turn', requestId, abort, done };
    try {
      await done;
    } finally {
      if (this.running?.requestId === requestId) this.running = undefined;
      // A turn the closing window stopped stays marked: the next activation shows it as interrupted.
      if (!this.closing && this.sessionId === sessionId) this.host.memory?.remember(sessionId);
    }
  }

  private async runTurn(requestId: string, text: string, signal: AbortSignal, resendFrom?: number): Promise<void> {
    let idle = false;
    const emit = (message: HostToWebview) => {
      if (message.type === 'chat/idle') idle = true;
      this.host.send(message);
    };
    try {
      if ((await this.host.apiKeySource()) === 'none') {
        emit({ type: 'chat/error', requestId, code: 'no_api_key', message: 'No API key: run "Strata: Set API Key" or set ANTHROPIC_API_KEY, then send again.' });
        return;
      }
      const opened = await this.session();
      const { session } = opened;
      if (signal.aborted) return;
      const off = session.task.onEvent((event) => {
        // As the request goes out, not when it is answered: turn_done carries the same layers.
        if (event.type === 'request') this.host.showUsage(event.layers);
        if (event.type === 'exchange') this.host.exchangeArchived?.(session.sessionId);
        if (event.type === 'turn_done') this.host.memory?.addCost(session.sessionId, event.report.cost.totalUsd);
        // What the meter shows last, a reload shows again: the request's layers, then the answered turn's.
        if (event.type === 'request' || event.type === 'turn_done') this.host.memory?.rememberUsage(session.sessionId, event.type === 'request' ? event.layers : event.report.layers);
        for (const message of taskEventMessages(event, requestId)) emit(this.priced(message, opened));
      });
      try {
        await (resendFrom === undefined ? session.task.send(text, signal) : session.task.resend(resendFrom, text, signal));
      } finally {
        off();
      }
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.host.logger.error(`turn ${requestId}: ${message}`);
      emit({ type: 'chat/error', requestId, code: error instanceof StrataError ? error.code : 'session_failed', message });
    } finally {
      if (!idle) emit({ type: 'chat/idle', requestId, reason: signal.aborted ? 'stopped' : 'failed' });
    }
  }

  /** The open session, opened now if needed (reopened when stale); a failed open is retried next time. */
  private async session(): Promise<OpenedSession> {
    if (this.stale) {
      this.stale = false;
      await this.closeSession();
    }
    if (!this.opening) {
      const approve = (request: ApprovalRequest) => this.approvals.ask(this.running?.requestId ?? 'none', request);
      this.opening = this.host.openSession(this.sessionId, approve).then(
        (opened) => {
          this.opened = opened;
          this.pushFigures(contextFigures(opened.session.engine.settings, 'session'));
          const { profile } = opened.session;
          this.host.memory?.rememberModelWindow(this.modelSettings?.baseUrl ?? '', profile.id, { contextWindow: profile.contextWindow, maxOutputTokens: profile.maxOutputTokens });
          this.host.logger.info(`session ${opened.session.sessionId} opened (${profile.id}, ${profile.contextWindow}-token window)`);
          return opened;
        },
        (error: unknown) => {
          this.opening = undefined;
          throw error;
        },
      );
    }
    return this.opening;
  }

  private async closeSession(): Promise<void> {
    const opening = this.opening;
    this.opening = undefined;
    this.opened = undefined;
    const opened = await opening?.catch(() => undefined);
    try {
      await opened?.session.close();
    } catch (error) {
      this.host.logger.warn(`closing session ${opened?.session.sessionId}: ${String(error)}`);
    }
  }

  private startedMessage(requestId?: string): HostToWebview {
    const usage = this.host.memory?.usage(this.sessionId);
    return {
      type: 'session/started',
      ...(requestId ? { requestId } : {}),
      sessionId: this.sessionId,
      ...(this.history ? { history: this.history.entries, omitted: this.history.omitted } : {}),
      ...(this.title ? { title: this.title } : {}),
      ...(this.interrupted !== undefined ? { interrupted: this.interrupted } : {}),
      ...(this.host.memory ? { cost: this.host.memory.cost(this.sessionId) } : {}),
      ...(usage ? { usage } : {}),
    };
  }

  private stopRunning(reason: string): void {
    this.running?.abort.abort();
    this.approvals.refuseAll(reason);
  }
}
