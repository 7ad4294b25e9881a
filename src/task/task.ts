import type { AssembledTurn, BeginOptions, ContextEngine } from '../engine/contextEngine';
import type { Clock, Tokenizer } from '../engine/ports';
import type { ContentBlock, Message, TextBlock, ToolResultBlock, ToolUseBlock } from '../shared/messages';
import { CONTEXT_FOLLOW_UP, CONTEXT_FOLLOW_UP_LAST, PAUSE_FOLLOW_UP, userText } from '../shared/exchangeText';
import { StrataError } from '../shared/strataError';
import type { TurnEnvironment } from './environment';
import type { FileContextTracker } from './fileContextTracker';
import { turnEnvironmentBlock } from './environment';
import type { MentionSources } from './mentions';
import { findMentions, mentionedPath, resolveMentions } from './mentions';
import type { ModelClient, ModelResult } from './modelClient';
import { ModelError, promptTokens } from './modelClient';
import { SessionCost } from './pricing';
import { ProtocolStreamFilter } from './protocolStreamFilter';
import { redactMessage } from './redaction';
import type { Redact } from './secretRedactor';
import { stopNotices, unusableCallReason } from './stopNotices';
import type { NoticeKind, TaskEvent } from './taskEvents';
import { turnReport } from './turnReport';
import { runToolCall } from './tools/runToolCall';
import type { Tool, ToolContext, ToolResult } from './tools/tool';

export interface TaskOptions {
  engine: ContextEngine;
  /** The engine's tokenizer: the API's reported input tokens correct its estimates. */
  tokenizer: Tokenizer;
  model: ModelClient;
  modelId: string;
  /** Upper bound on one answer, tokens. */
  maxOutputTokens: number;
  /** Every tool the model may call (workspace tools and `recall`), in a stable order. */
  tools: readonly Tool[];
  /** Builds the tools' context for one run (its signal stops commands). */
  toolContext(signal: AbortSignal, mentionedPaths: ReadonlySet<string>): ToolContext;
  mentions: MentionSources;
  /** Fresh environment for each turn (open tabs, active file, terminal); files gone stale are added by the loop. */
  environment(): TurnEnvironment;
  /** Reads and edits of the tools, to tell the model which files changed behind its back. */
  tracker?: Pick<FileContextTracker, 'staleFiles' | 'forget'>;
  clock: Clock;
  /** Model calls one user message may lead to before the loop asks the user to continue. */
  maxSteps?: number;
  /**
   * Removes secrets (`createRedactor`: the session's key, known formats) from every input before
   * the engine, the events and so the archive, requests and recordings see it. None: text as is.
   */
  redact?: Redact;
}

const DEFAULT_MAX_STEPS = 50;
const STOPPED_NOTE = '[stopped by the user]';
/** Automatic follow-ups one user message may get for context requests, and for `pause_turn`. */
const MAX_CONTEXT_FOLLOW_UPS = 5;
const MAX_PAUSE_FOLLOW_UPS = 3;
/** Identical `recall` calls one user message may run; later ones are answered without running. */
const MAX_SAME_RECALLS = 3;

/**
 * The agent loop of one session: the user's message, then model answer -> tools -> results ->
 * model answer, until an answer calls no tool. Front ends drive it with `send` and render its
 * events; it holds no front end. The engine composes every request; the loop never edits one.
 */
export class Task {
  private readonly listeners = new Set<(event: TaskEvent) => void>();
  private readonly costs = new SessionCost();
  /** Tool results owed to the model because the user stopped before they were sent. */
  private owedResults: ToolResultBlock[] = [];
  private running = false;
  /** What the exchange in flight began with, for its `exchange` event (a recording replays it). */
  private begun: ExchangeBegin = {};
  /** Set by a resend until its first exchange begins. */
  private resentFrom?: number;
  /** The terminal tail as last sent, so an unchanged one is not sent again. */
  private terminalSent?: string;
  /** The turn in flight: its own controller (a resend stops it) and its end. */
  private current?: { controller: AbortController; done: Promise<void> };
  /** Automatic follow-ups and recalls of the user message in flight, against their caps. */
  private perMessage = newPerMessage();
  /** Turns whose answer lacked the housekeeping the engine asked for. */
  housekeepingMisses = 0;

  constructor(private readonly options: TaskOptions) {}

  /** Subscribes to events; returns the unsubscribe function. */
  onEvent(listener: (event: TaskEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get sessionCost(): SessionCost {
    return this.costs;
  }

  get busy(): boolean {
    return this.running;
  }

  /**
   * Runs the loop for one user message (a query, or feedback such as a correction). Resolves when
   * the model answers without a tool call, the user stops it (`signal`), or a call fails; every
   * outcome is an event, never a rejection, and the exchange is archived in each case.
   */
  async send(text: string, signal: AbortSignal = new AbortController().signal): Promise<void> {
    if (this.running) throw new StrataError('The task is already running; stop it or wait for its answer before sending another message.', 'task_busy');
    await this.run(text, signal);
  }

  /**
   * The user edited their message `e${seq}` and sends `text` instead: a running turn is stopped
   * first (its partial answer archived), then `seq` and every later exchange are superseded (the
   * engine drops them from every layer; the archive keeps them, marked) and the loop runs the new
   * text as if they had never happened. Emits `resent`, then the new turn's events.
   */
  async resend(seq: number, text: string, signal: AbortSignal = new AbortController().signal): Promise<void> {
    if (this.current) {
      this.current.controller.abort();
      await this.current.done;
    }
    if (this.running) throw new StrataError('The task is still finishing the stopped turn; try the resend again in a moment.', 'task_busy');
    // Superseded only once the new message is ready to begin, with no await in between: the marks
    // reach the archive with the new exchange, so a resend stopped while its mentions resolve
    // leaves nothing superseded that a reopened session would not also see.
    await this.run(text, signal, () => {
      const { superseded, by } = this.options.engine.supersedeFrom(seq);
      // Results owed to a superseded answer are owed no more; the engine answers any call left open.
      this.owedResults = [];
      this.emit({ type: 'resent', from: seq, by, superseded });
      this.resentFrom = seq;
    });
  }

  private async run(text: string, signal: AbortSignal, beforeBegin?: () => void): Promise<void> {
    this.running = true;
    const controller = new AbortController();
    const stop = () => controller.abort();
    signal.addEventListener('abort', stop, { once: true });
    if (signal.aborted) controller.abort();
    let finished = () => {};
    this.current = { controller, done: new Promise<void>((resolve) => (finished = resolve)) };
    this.perMessage = newPerMessage();
    try {
      const inner = controller.signal;
      const mentioned = new Set(findMentions(text).flatMap((m) => ('path' in m ? [mentionedPath(m.path)] : [])));
      const mentionBlocks = await resolveMentions(text, this.options.mentions, inner);
      const env = await this.environmentBlocks();
      if (inner.aborted && beforeBegin) {
        this.emit({ type: 'idle', reason: 'stopped' });
        return;
      }
      beforeBegin?.();
      const content: ContentBlock[] = [...this.owedResults, { type: 'text', text }, ...mentionBlocks, ...env.blocks];
      this.owedResults = [];
      await this.loop({ message: { role: 'user', content }, begin: { userMessage: true, changedFiles: env.changed } }, inner, mentioned);
    } finally {
      signal.removeEventListener('abort', stop);
      this.running = false;
      this.current = undefined;
      finished();
    }
  }

  private async loop(first: NextInput, signal: AbortSignal, mentioned: ReadonlySet<string>): Promise<void> {
    let input: NextInput | undefined = first;
    const maxSteps = this.options.maxSteps ?? DEFAULT_MAX_STEPS;
    for (let step = 0; input; step++) {
      if (step >= maxSteps) {
        // The tool results this input carried go with the user's next message, as after a stop.
        this.owedResults = input.message.content.filter((b): b is ToolResultBlock => b.type === 'tool_result');
        this.emit({ type: 'idle', reason: 'step_limit' });
        return;
      }
      input = await this.step(input, signal, mentioned);
    }
  }

  /** One exchange: assemble, stream, archive, run tools. Returns the next input, or none to stop. */
  private async step(next: NextInput, signal: AbortSignal, mentioned: ReadonlySet<string>): Promise<NextInput | undefined> {
    const { engine } = this.options;
    const input = this.options.redact ? redactMessage(next.message, this.options.redact) : next.message;
    const seq = engine.beginExchange(input, next.begin);
    this.begun = { ...(next.begin.userMessage ? { userMessage: true } : {}), ...(next.begin.changedFiles?.length ? { changedFiles: [...next.begin.changedFiles] } : {}), ...(this.resentFrom !== undefined ? { resendFrom: this.resentFrom } : {}) };
    this.resentFrom = undefined;
    if (next.begin.userMessage) this.emit({ type: 'user_message', turn: seq, text: userText(input) ?? '' });
    const startedAt = this.options.clock.now();
    let turn: AssembledTurn;
    try {
      turn = await engine.assemble(signal);
    } catch (error) {
      return this.failTurn(error, emptyAnswer(), input);
    }
    for (const event of turn.events) this.emit({ type: 'engine', event });
    const engineMs = this.options.clock.now() - startedAt;

    const called = await this.callModel(turn, signal);
    if ('error' in called) return this.failTurn(called.error, called.partial, input, turn.turn);
    const { result } = called;
    turn = called.turn;
    const modelMs = this.options.clock.now() - startedAt - engineMs;
    const reported = promptTokens(result.usage);
    if (reported > 0) this.options.tokenizer.observe(turn.tokens, reported);
    const cost = this.costs.add(result.usage, result.model);
    const stopped = result.stopReason === 'aborted';
    const answer = stopped ? withNote(result.message, STOPPED_NOTE) : result.message;
    // Archiving, headers, summaries and index updates: after the answer has streamed.
    const { housekeepingGiven, contextRequests, problems } = engine.completeExchange(answer);
    // Housekeeping asked but not given (or invalid): the engine derives its own; the miss is counted.
    const housekeeping = turn.housekeepingDue.length === 0 ? 'not_asked' : housekeepingGiven ? 'applied' : 'missed';
    if (housekeeping === 'missed') this.housekeepingMisses += 1;
    this.emit({ type: 'turn_done', report: { ...turnReport(turn, result.usage, cost, engineMs, modelMs), housekeeping } });
    this.emit({ type: 'exchange', turn: turn.turn, input, output: answer, estimatedTokens: turn.tokens, reportedTokens: reported, ...this.begun });
    for (const message of problems) this.emit({ type: 'protocol_warning', turn: turn.turn, message });

    const calls = answer.content.filter((b): b is ToolUseBlock => b.type === 'tool_use');
    // With tool calls the loop goes on anyway; without, the pause is sent back while under its cap.
    const continues = calls.length > 0 || this.perMessage.pauses < MAX_PAUSE_FOLLOW_UPS;
    for (const n of stopNotices(result, calls, { maxOutputTokens: this.options.maxOutputTokens, continues, maxPauses: MAX_PAUSE_FOLLOW_UPS })) this.notice(turn.turn, n.kind, n.message);
    const refused = result.stopReason === 'refusal';
    if (calls.length > 0) {
      const results = await this.runTools(turn.turn, calls, signal, mentioned, (call) => this.notRunReason(call, result));
      if (stopped || signal.aborted) {
        this.owedResults = results;
        this.emit({ type: 'idle', reason: 'stopped' });
        return undefined;
      }
      // A refusal ends the turn; its calls were answered "not run", sent with the next message.
      if (refused) {
        this.owedResults = results;
        this.emit({ type: 'idle', reason: 'answered' });
        return undefined;
      }
      const env = await this.environmentBlocks();
      return { message: { role: 'user', content: [...results, ...env.blocks] }, begin: { changedFiles: env.changed } };
    }
    if (stopped) {
      this.emit({ type: 'idle', reason: 'stopped' });
      return undefined;
    }
    // The API paused a long turn: it is sent back so the model continues, a few times per message.
    if (result.stopReason === 'pause_turn' && this.perMessage.pauses < MAX_PAUSE_FOLLOW_UPS) {
      this.perMessage.pauses += 1;
      return { message: { role: 'user', content: [{ type: 'text', text: PAUSE_FOLLOW_UP }] }, begin: {} };
    }
    // A context request in an answer that called no tool is served at once: the engine adds
    // the retrieved exchanges to this follow-up input. Past the cap they wait for the user's next message.
    if (contextRequests > 0) {
      if (this.perMessage.followUps < MAX_CONTEXT_FOLLOW_UPS) {
        this.perMessage.followUps += 1;
        const text = this.perMessage.followUps === MAX_CONTEXT_FOLLOW_UPS ? CONTEXT_FOLLOW_UP_LAST : CONTEXT_FOLLOW_UP;
        return { message: { role: 'user', content: [{ type: 'text', text }] }, begin: {} };
      }
      this.notice(turn.turn, 'context_cap', `The model asked for archived context more than ${MAX_CONTEXT_FOLLOW_UPS} times for one message; the last request is served with your next message.`);
    }
    this.emit({ type: 'idle', reason: 'answered' });
    return undefined;
  }

  /**
   * Streams one answer, each attempt announced by a `request` event; a prompt the API finds too
   * long gets one emergency condense and one retry.
   */
  private async callModel(turn: AssembledTurn, signal: AbortSignal): Promise<{ result: ModelResult; turn: AssembledTurn } | { error: unknown; partial: Message }> {
    let current = turn;
    for (let attempt = 0; ; attempt++) {
      this.emit({ type: 'request', turn: current.turn, layers: current.usage });
      const filter = new ProtocolStreamFilter();
      try {
        const result = await this.options.model.stream(
          { request: current.request, model: this.options.modelId, maxTokens: this.options.maxOutputTokens, signal },
          (event) => {
            if (event.type === 'text') {
              const visible = filter.push(event.text);
              if (visible) this.emit({ type: 'text', turn: current.turn, text: visible });
            } else if (event.type === 'wait') {
              this.emit({ type: 'waiting', turn: current.turn, ms: event.ms, message: `The model API asked to wait ${Math.ceil(event.ms / 1000)} s before trying again (${event.reason}). Waiting; stop the task to give up now.` });
            }
          },
        );
        const rest = filter.end();
        if (rest) this.emit({ type: 'text', turn: current.turn, text: rest });
        return { result, turn: current };
      } catch (error) {
        if (error instanceof ModelError && error.code === 'model_prompt_too_long' && attempt === 0) {
          // The API counted more than the engine's estimate: condense, then assemble again. A
          // failure here fails the turn like any other (its input archived, the engine closed out).
          try {
            for (const event of await this.options.engine.condenseNow(signal)) this.emit({ type: 'engine', event });
            current = await this.options.engine.assemble(signal);
          } catch (retryError) {
            return { error: retryError, partial: emptyAnswer() };
          }
          for (const event of current.events) this.emit({ type: 'engine', event });
          continue;
        }
        return { error, partial: error instanceof ModelError ? error.partial.message : emptyAnswer() };
      }
    }
  }

  /**
   * Runs each tool call in order; after a stop the rest are answered "not run" so none is left
   * open, and so is a call `notRun` gives a reason for (its result says why).
   */
  private async runTools(turn: number, calls: ToolUseBlock[], signal: AbortSignal, mentioned: ReadonlySet<string>, notRun: (call: ToolUseBlock) => string | undefined): Promise<ToolResultBlock[]> {
    const ctx = this.options.toolContext(signal, mentioned);
    const results: ToolResultBlock[] = [];
    for (const call of calls) {
      this.emit({ type: 'tool_call', turn, id: call.id, name: call.name, input: call.input });
      const why = signal.aborted ? `the user stopped the task before ${call.name} ran` : notRun(call);
      const result: ToolResult = why !== undefined ? { text: `Not run: ${why}.`, isError: true } : await runToolCall({ name: call.name, input: call.input }, ctx, this.options.tools);
      // Redacted before it is shown too (the chat, the CLI's stderr); the input is redacted again, idempotently.
      const text = this.options.redact ? this.options.redact(result.text) : result.text;
      this.emit({ type: 'tool_result', turn, id: call.id, name: call.name, text, isError: result.isError });
      results.push({ type: 'tool_result', tool_use_id: call.id, content: text || '(no output)', ...(result.isError ? { is_error: true } : {}) });
    }
    return results;
  }

  /** Why a call of `result` must not run (its result tells the model), or undefined to run it. */
  private notRunReason(call: ToolUseBlock, result: ModelResult): string | undefined {
    const unusable = unusableCallReason(call, result);
    if (unusable !== undefined || call.name !== 'recall') return unusable;
    const key = JSON.stringify(call.input);
    const made = (this.perMessage.recalls.get(key) ?? 0) + 1;
    this.perMessage.recalls.set(key, made);
    return made > MAX_SAME_RECALLS ? `this same recall already ran ${MAX_SAME_RECALLS} times for this message and its result is above; use it, or recall other ids` : undefined;
  }

  private notice(turn: number, kind: NoticeKind, message: string): void {
    this.emit({ type: 'notice', turn, kind, message });
  }

  /** A failed turn is still archived (the user's input and whatever arrived), then reported. */
  private failTurn(error: unknown, partial: Message, input: Message, turn = 0): undefined {
    const raw = error instanceof Error ? error.message : String(error);
    const message = this.options.redact ? this.options.redact(raw) : raw;
    const code = error instanceof StrataError ? error.code : 'task_failed';
    const answer = withNote(partial, `[no complete answer: ${message}]`);
    this.options.engine.completeExchange(answer);
    this.emit({ type: 'exchange', turn, input, output: answer, estimatedTokens: 0, reportedTokens: 0, ...this.begun });
    const open = answer.content.filter((b): b is ToolUseBlock => b.type === 'tool_use');
    this.owedResults = open.map((c) => ({ type: 'tool_result', tool_use_id: c.id, content: `Not run: ${message}`, is_error: true }));
    this.emit({ type: 'error', code, message });
    this.emit({ type: 'idle', reason: 'failed' });
    return undefined;
  }

  /**
   * The per-turn environment, with files changed on disk since the model read them (each told
   * once); `changed` names them for the engine, which supersedes their old reads.
   */
  private async environmentBlocks(): Promise<{ blocks: TextBlock[]; changed: string[] }> {
    const fresh = this.options.environment();
    // The terminal tail goes with an input only when it changed since it last went: resent with
    // every tool step it would fill working memory with copies (the archive has each one).
    const env = fresh.terminalOutput !== undefined && fresh.terminalOutput === this.terminalSent ? { ...fresh, terminalOutput: undefined } : fresh;
    this.terminalSent = fresh.terminalOutput;
    const stale = (await this.options.tracker?.staleFiles()) ?? [];
    for (const file of stale) this.options.tracker?.forget(file.path);
    const staleFiles = stale.map((f) => (f.reason === 'deleted' ? `${f.path} (deleted)` : f.path));
    const block = turnEnvironmentBlock(staleFiles.length > 0 ? { ...env, staleFiles } : env);
    return { blocks: block ? [block] : [], changed: stale.map((f) => f.path) };
  }

  private emit(event: TaskEvent): void {
    for (const listener of this.listeners) listener(event);
  }
}

/** How an exchange began, as its `exchange` event tells a recorder. */
type ExchangeBegin = Pick<TaskEventOf<'exchange'>, 'userMessage' | 'changedFiles' | 'resendFrom'>;
type TaskEventOf<T extends TaskEvent['type']> = Extract<TaskEvent, { type: T }>;

/** The next input of the loop and what the engine should know about it. */
interface NextInput {
  message: Message;
  begin: BeginOptions;
}

function newPerMessage(): { pauses: number; followUps: number; recalls: Map<string, number> } {
  return { pauses: 0, followUps: 0, recalls: new Map() };
}

function emptyAnswer(): Message {
  return { role: 'assistant', content: [] };
}

/** The answer with a note appended as text, so a stopped or failed answer is never empty. */
function withNote(message: Message, note: string): Message {
  return { role: 'assistant', content: [...message.content.filter((b) => b.type !== 'text' || b.text.trim() !== ''), { type: 'text', text: note }] };
}

