import type { EngineSettings } from '../shared/engineSettings';
import type { ContentBlock, Message, MessagesRequest, TextBlock, ToolDefinition } from '../shared/messages';
import { parseProtocolBlocks } from '../shared/protocolSchema';
import type { Housekeeping } from '../shared/protocolSchema';
import { contentTokens, safeBudget } from './blockTokens';
import type { CondenseCall } from './condenser';
import { condense, estimateCondense, slideWindow } from './condenser';
import { callCost } from './engineEvents';
import type { EngineEvent } from './engineEvents';
import { activeHeaders, arrivalLimits, autoCondenseAt, effectiveBudget, newEngineState, noteFileReads, resetEngineState, sessionBase, sessionBudget } from './engineState';
import type { EngineState } from './engineState';
import type { Exchange } from './exchange';
import type { FlushReport } from './archiveWriteQueue';
import { ExchangeRecorder } from './exchangeRecorder';
import { fileReadsShown, renderInput, renderOutput } from './liveExchange';
import { emptyNarrative } from './narrative';
import type { ArchiveStore, Clock, Logger, RetrievalFormat, Summarizer, Tokenizer } from './ports';
import { StrataError } from './ports';
import { PROTOCOL_INSTRUCTIONS } from './protocolText';
import { buildTurn, layerUsage } from './requestLayout';
import { capTask, housekeepingDue, layerToFit, shrinkPending } from './budgetFit';
import { retrieveExchanges } from './retrieval';
import { trimToTokens } from './text/trimToBudget';
import type { ToolCall } from './toolOutput';
import { toolCallsOf } from './toolOutput';
import type { Usage } from './usage';
import { computeUsage } from './usage';
import { assertValidRequest } from './requestValidity';
import { Supersessions } from './supersessions';
import type { Checkpoint } from './checkpoints';
import { MAX_CHECKPOINTS, restoreCheckpoint, takeCheckpoint } from './checkpoints';
import { foldFromArchive, restoreFolded, resumeFromArchive } from './resume';
import { relayer } from './relayer';
import { pathKeyFor } from './fileViews';

export interface ContextEngineOptions {
  sessionId: string;
  settings: EngineSettings;
  tokenizer: Tokenizer;
  archive: ArchiveStore;
  summarizer: Summarizer;
  clock: Clock;
  logger: Logger;
  /** The agent's own system text (tools, environment, guardrails); the protocol is appended. */
  systemPrompt: string;
  tools?: ToolDefinition[];
  /**
   * The folder the agent's tools resolve relative paths against (absolute): a file read as
   * `<root>/src/a.ts` and edited or changed on disk as `src/a.ts` is one file. Without it,
   * paths compare as written (less `./`).
   */
  workspaceRoot?: string;
  /** Check every assembled request against the Messages API's rules and throw on a violation (tests, debug builds). */
  validateRequests?: boolean;
}

/** What the front end knows about an input beyond its content. */
export interface BeginOptions {
  /** The input is the user's own message (not tool results): an edited resend may restart from it. */
  userMessage?: boolean;
  /** Files read earlier that the front end saw change on disk since: their old reads are stale. */
  changedFiles?: readonly string[];
}

/** What `supersedeFrom` did: the exchanges that left the conversation and the seq that replaces them. */
export interface Supersession {
  superseded: number[];
  by: number;
}

/** One assembled turn: the request body and what it took to make it. */
export interface AssembledTurn {
  turn: number;
  request: MessagesRequest;
  tokens: number;
  budget: number;
  usage: Usage;
  mode: 'full' | 'layered';
  /** Exchange ids the request asks the model to summarise (housekeeping); empty on most turns. */
  housekeepingDue: number[];
  /** Tokens the model would write for that housekeeping (0 when none is asked). */
  housekeepingTokens: number;
  condenseCalls: CondenseCall[];
  events: EngineEvent[];
}

/**
 * The layered context engine for one session. Drive it with beginExchange (the user's words or
 * tool results), assemble (the request to send), completeExchange (the model's answer).
 */
export class ContextEngine {
  private readonly state: EngineState;
  private readonly recorder: ExchangeRecorder;
  private lastCalls = new Map<string, ToolCall>();
  private pendingOriginal?: Message;
  private pendingRetrieval?: string;
  private nextSeq: number;
  private closed = false;
  private readonly supersessions = new Supersessions();
  /** The state as each recent user message began, by seq: where an edited resend restarts. */
  private readonly checkpoints = new Map<number, Checkpoint>();

  constructor(private readonly options: ContextEngineOptions) {
    const system: TextBlock[] = [{ type: 'text', text: `${options.systemPrompt}\n\n${PROTOCOL_INSTRUCTIONS}` }];
    this.state = newEngineState(options.settings, options.tokenizer, system, options.tools ?? [], emptyNarrative(''), pathKeyFor(options.workspaceRoot));
    this.recorder = new ExchangeRecorder(options, this.state);
    this.nextSeq = resumeFromArchive(this.state, this.recorder.reader, options.sessionId, this.supersessions);
    this.lastCalls = callsOfWorkingMemory(this.state);
    if (effectiveBudget(options.settings) < 2_000) {
      throw new StrataError(
        `The prompt budget (${effectiveBudget(options.settings)} tokens) is too small: the window minus the output reserve must leave at least 2000 tokens. Raise strata.contextWindow or lower strata.reservedOutputTokens.`,
        'budget_too_small',
      );
    }
  }

  get settings(): EngineSettings {
    return this.state.settings;
  }

  /** Starts the next exchange with its input: the user's message or the previous answer's tool results. Returns its seq. */
  beginExchange(input: Message, options: BeginOptions = {}): number {
    if (this.closed) throw new StrataError('This session is closed; open a new ContextEngine to go on.', 'closed');
    if (this.state.pending) throw new StrataError('An exchange is already waiting for its answer; complete it before starting another.', 'exchange_open');
    if (input.role !== 'user') throw new StrataError(`An exchange starts with a user message, got '${input.role}'.`, 'bad_input');
    if (options.userMessage) this.checkpoint();
    const content: ContentBlock[] = this.pendingRetrieval ? [...input.content, { type: 'text', text: this.pendingRetrieval }] : input.content;
    this.pendingRetrieval = undefined;
    const message: Message = { role: 'user', content };
    const s = this.state.settings;
    noteFileReads(this.state, fileReadsShown(message, this.lastCalls, (t) => this.state.tokenizer.count(t)));
    // Outputs are cut on arrival in proportion to the budget the session has grown to (SESSION_GROWTH).
    const rendered = renderInput(message, this.lastCalls, arrivalLimits(this.state));
    const count = (t: string) => this.state.tokenizer.count(t);
    let blocks = rendered.blocks;
    if (!this.state.task) {
      blocks = capTask(blocks, Math.floor(effectiveBudget(s) / 4), count);
      this.state.task = blocks;
      this.state.narrative = emptyNarrative(trimToTokens(firstText(blocks), 60, count));
    }
    this.state.pending = {
      seq: this.nextSeq,
      createdAt: this.options.clock.now(),
      input: blocks,
      calls: this.lastCalls,
      originals: rendered.originals,
      inputTokens: contentTokens(blocks, count),
      outputTokens: 0,
      ...(options.changedFiles ? { changedFiles: [...options.changedFiles] } : {}),
    };
    this.pendingOriginal = message;
    return this.state.pending.seq;
  }

  /**
   * The user edited exchange `seq` (one of their messages) and resends it: `seq` and every later
   * exchange leave every layer (working memory, L0-L4, file views) as if they never happened, and
   * the next exchange (begin it with the new text) replaces them. They stay in the archive, marked
   * superseded by it, and remain retrievable by id with a note. Call between exchanges.
   */
  supersedeFrom(seq: number): Supersession {
    if (this.closed) throw new StrataError('This session is closed; open a new ContextEngine to go on.', 'closed');
    if (this.state.pending) throw new StrataError('An exchange is waiting for its answer; stop or complete it before resending an earlier message.', 'exchange_open');
    const later = activeHeaders(this.state).filter((h) => h.seq >= seq).map((h) => h.seq);
    if (!Number.isInteger(seq) || later[0] !== seq) {
      const by = this.supersessions.supersededBy(seq);
      const why = by !== undefined ? `it was already superseded by e${by}` : `it is not an exchange of this session`;
      throw new StrataError(`Cannot resend from e${seq}: ${why}. Pick one of your messages still in the conversation.`, 'bad_resend');
    }
    const by = this.nextSeq;
    const checkpoint = this.checkpoints.get(seq);
    if (checkpoint) {
      restoreCheckpoint(this.state, checkpoint);
      this.lastCalls = new Map(checkpoint.lastCalls);
      this.pendingRetrieval = checkpoint.pendingRetrieval;
    } else {
      // No checkpoint (an older message, or one from before a resume): rebuilt as a resume would.
      resetEngineState(this.state, emptyNarrative(''));
      this.lastCalls = new Map();
      this.pendingRetrieval = undefined;
    }
    this.supersessions.add(later, by);
    if (!checkpoint) {
      foldFromArchive(this.state, this.recorder.reader, this.options.sessionId, this.supersessions, seq);
      this.lastCalls = callsOfWorkingMemory(this.state);
    }
    for (const key of this.checkpoints.keys()) if (key >= seq) this.checkpoints.delete(key);
    this.recorder.supersede(later, by);
    return { superseded: later, by };
  }

  /** Old id -> the exchange that replaced it, for every exchange an edited resend superseded. */
  aliases(): Record<string, string> {
    return this.supersessions.aliases();
  }

  private checkpoint(): void {
    this.checkpoints.set(this.nextSeq, takeCheckpoint(this.nextSeq, this.state, this.lastCalls, this.pendingRetrieval));
    // One key is added at a time, and seqs only grow while a Map iterates in insertion order: the
    // first key is the oldest checkpoint, the only one ever over the limit.
    const [oldest] = this.checkpoints.keys();
    if (this.checkpoints.size > MAX_CHECKPOINTS) this.checkpoints.delete(oldest!);
  }

  /** The request for the pending exchange: within budget, deterministic for the same history. */
  async assemble(signal?: AbortSignal): Promise<AssembledTurn> {
    const state = this.state;
    const pending = state.pending;
    if (!pending) throw new StrataError('Nothing to assemble: call beginExchange with the next input first.', 'no_pending');
    const s = state.settings;
    const budget = safeBudget(sessionBudget(state), state.tokenizer);
    const events: EngineEvent[] = [];
    const condenseCalls: CondenseCall[] = [];
    const turn = pending.seq;
    this.restoreOnGrowth(budget, turn, events);
    let built = layerToFit(state, budget, turn, events);
    // Condensing is the last resort: only a prompt that layering could not bring under the
    // condense threshold (a budget set above it, or a huge input) pays for a summarising call.
    if (built.tokens > Math.min(budget, autoCondenseAt(s))) {
      built = await this.condenseOrSlide(turn, built.tokens, events, condenseCalls, signal);
    }
    if (built.tokens > budget) built = shrinkPending(state, budget);
    if (built.tokens > budget) {
      throw new StrataError(
        `Turn e${turn} cannot fit the prompt budget (${budget} tokens) even with every layer at its minimum (${built.tokens} tokens). Raise strata.promptBudgetTokens.`,
        'budget_too_small',
      );
    }
    let due = housekeepingDue(state, built.tokens, budget);
    if (due.length > 0) {
      const asked = buildTurn(state, due);
      if (asked.tokens <= budget) built = asked;
      else due = [];
    }
    if (this.options.validateRequests) assertValidRequest(built.request, turn);
    const housekeepingTokens = due.length > 0 ? this.recorder.housekeepingTokens(due, this.state.narrative) : 0;
    const usage = usageOf(state, built, budget);
    return { turn, request: built.request, tokens: built.tokens, budget, usage, mode: state.mode, housekeepingDue: due, housekeepingTokens, condenseCalls, events };
  }

  /**
   * The first time the budget grows past the base, working memory takes back what the base
   * folded, newest first, as much as the grown budget holds (`restoreFolded`). The budget runs
   * ahead of the history (`historyShare` 1.5), so what comes back is not folded again at once;
   * restoring only up to the grown low watermark recalled less (issue 19).
   */
  private restoreOnGrowth(budget: number, turn: number, events: EngineEvent[]): void {
    const state = this.state;
    if (state.grownRestored || sessionBudget(state) <= sessionBase(state)) return;
    state.grownRestored = true;
    if (state.foldedThrough === 0) return;
    if (restoreFolded(state, this.recorder.reader, this.options.sessionId, budget - buildTurn(state).tokens) === 0) return;
    state.pressure = 0;
    const masked = relayer(state, state.tail.length);
    events.push({ type: 'relayer', turn, foldedThrough: state.foldedThrough, pressure: 0, masked });
  }

  /**
   * Closes the pending exchange with the model's answer; archives it and updates every layer.
   * `housekeepingGiven`: the answer carried valid housekeeping (the model's own summaries and
   * narrative); `contextRequests`: how many context requests it made, whose retrieved exchanges
   * the next input will carry.
   */
  completeExchange(output: Message): { problems: string[]; housekeepingGiven: boolean; contextRequests: number } {
    const pending = this.state.pending;
    if (!pending || !this.pendingOriginal) throw new StrataError('No exchange is waiting for an answer; call beginExchange first.', 'no_pending');
    if (output.role !== 'assistant') throw new StrataError(`An answer must be an assistant message, got '${output.role}'.`, 'bad_input');
    const count = (t: string) => this.state.tokenizer.count(t);
    const protocol = parseProtocolBlocks(output.content.map((b) => (b.type === 'text' ? b.text : '')).join('\n'));
    pending.output = renderOutput(output);
    pending.outputTokens = contentTokens(pending.output, count);
    this.state.historyTokens += pending.inputTokens + pending.outputTokens;
    const exchange: Exchange = { seq: pending.seq, createdAt: pending.createdAt, input: this.pendingOriginal, output };
    const problems = [...protocol.problems, ...this.recorder.record(exchange, protocol.housekeeping as Housekeeping | undefined)];
    this.state.tail.push(pending);
    this.state.fileViews.observe(pending);
    this.state.pending = undefined;
    this.pendingOriginal = undefined;
    this.lastCalls = toolCallsOf(output);
    this.nextSeq = pending.seq + 1;
    for (const request of protocol.contextRequests) {
      const got = this.retrieve(request.ids, request.format);
      this.pendingRetrieval = this.pendingRetrieval ? `${this.pendingRetrieval}\n${got}` : got;
    }
    return { problems, housekeepingGiven: protocol.housekeeping !== undefined, contextRequests: protocol.contextRequests.length };
  }

  /** Archived exchanges by id, in the asked format, within the per-turn retrieval quota. */
  retrieve(ids: readonly string[], format: RetrievalFormat): string {
    const count = (t: string) => this.state.tokenizer.count(t);
    return retrieveExchanges(this.recorder.reader, this.options.sessionId, ids, format, this.state.settings.retrievalQuotaTokens, count, (seq) => this.supersessions.note(seq)).text;
  }

  /** Archive writes not done yet (a locked, full or damaged archive); 0 when everything is stored. */
  get pendingArchiveWrites(): number {
    return this.recorder.pendingWrites;
  }

  /** Tries every pending archive write now (the editor calls it on exit); reports what is still pending. */
  flush(): FlushReport {
    return this.recorder.flush();
  }

  /**
   * Flushes, then closes the archive (the engine owns it from construction). What the report
   * still lists as pending is lost, and has been logged as an error. Closing twice is harmless.
   */
  close(): FlushReport {
    if (this.closed) return { pending: [], problems: [] };
    const report = this.flush();
    if (report.pending.length > 0) this.options.logger.error(`Closing session ${this.options.sessionId}: ${report.problems[report.problems.length - 1] ?? ''}`);
    this.closed = true;
    this.options.archive.close();
    return report;
  }

  /**
   * Full-text search over this session's archive: one line per hit (id, header, snippet), best
   * first; an archive that cannot search says so in the text instead of throwing.
   */
  searchArchive(query: string, limit = 10): string {
    try {
      const hits = this.options.archive.search(this.options.sessionId, query, limit);
      if (hits.length === 0) return `No archived exchange matches "${query}".`;
      return hits.map((h) => `e${h.seq}${this.supersessionMark(h.seq, h.supersededBy)} ${h.header} — ${h.snippet}`).join('\n');
    } catch (error) {
      return `The archive could not be searched: ${error instanceof Error ? error.message : String(error)}`;
    }
  }

  private supersessionMark(seq: number, stored: number | undefined): string {
    const by = this.supersessions.supersededBy(seq) ?? stored;
    return by !== undefined ? ` (superseded by e${by})` : '';
  }

  /**
   * The user pressed Condense: condense now, whatever the usage, unless the estimated saving is
   * below `condenseMinSavingTokens`: then a warning says so and no model call is made.
   */
  async condenseNow(signal?: AbortSignal): Promise<EngineEvent[]> {
    const events: EngineEvent[] = [];
    if (!this.state.task) {
      events.push({ type: 'warning', turn: this.nextSeq, message: 'Nothing to condense yet: the session has no exchanges.' });
      return events;
    }
    await this.betweenTurns(async () => {
      const min = this.state.settings.condenseMinSavingTokens;
      const estimate = min > 0 ? estimateCondense(this.state, () => buildTurn(this.state).tokens) : undefined;
      if (estimate && estimate.saved < min) {
        events.push({ type: 'warning', turn: this.nextSeq, message: `Condense would save about ${estimate.saved.toLocaleString('en-US')} tokens (the prompt is ${estimate.before.toLocaleString('en-US')}); not worth a call, so none was made. The minimum saving is ${min.toLocaleString('en-US')} tokens (setting condenseMinSavingTokens).` });
        return;
      }
      await this.condenseOrSlide(this.nextSeq, buildTurn(this.state).tokens, events, [], signal, false);
    });
    return events;
  }

  /** The usage the next prompt would have (between turns: with an empty input), for the meter after a condense. */
  async usageNow(): Promise<Usage> {
    return this.betweenTurns(async () => usageOf(this.state, buildTurn(this.state), safeBudget(sessionBudget(this.state), this.state.tokenizer)));
  }

  /**
   * Between turns nothing is pending: sizes are measured as the next prompt would be with an
   * empty input, which is then taken away again.
   */
  private async betweenTurns<T>(work: () => Promise<T>): Promise<T> {
    const measuring = !this.state.pending;
    if (measuring) this.state.pending = { seq: this.nextSeq, createdAt: 0, input: [{ type: 'text', text: '…' }], calls: new Map(), originals: new Map(), inputTokens: 0, outputTokens: 0 };
    try {
      return await work();
    } finally {
      if (measuring) this.state.pending = undefined;
    }
  }

  private async condenseOrSlide(turn: number, tokensBefore: number, events: EngineEvent[], calls: CondenseCall[], signal?: AbortSignal, slide = true) {
    const outcome = await condense(this.state, this.options.summarizer, () => buildTurn(this.state).tokens, signal);
    if (outcome.call) calls.push(outcome.call);
    const cost = outcome.call ? callCost(outcome.call.inputTokens, outcome.call.outputTokens) : 0;
    let built = buildTurn(this.state);
    if (outcome.ok) {
      events.push({ type: 'condense_context', turn, tokensBefore, tokensAfter: built.tokens, inputTokens: outcome.call.inputTokens, outputTokens: outcome.call.outputTokens, cost });
      return built;
    }
    events.push({ type: 'condense_context_error', turn, tokensBefore, error: outcome.error, cost });
    this.options.logger.warn(outcome.error);
    if (slide && this.state.tail.length > 0) {
      const removed = slideWindow(this.state);
      built = buildTurn(this.state);
      events.push({ type: 'sliding_window_truncation', turn, tokensBefore, tokensAfter: built.tokens, removedExchanges: removed });
    }
    return built;
  }
}

function firstText(blocks: ContentBlock[]): string {
  for (const b of blocks) if (b.type === 'text' && b.text.trim()) return b.text.trim();
  return '(no task text)';
}

/**
 * The calls of the newest answer a resume took back into working memory: the next input answers
 * them (a turn cut mid-tool leaves a call with no result, which gets NO_RESULT_TEXT). None when
 * everything was folded (the layout turns such results into text).
 */
function callsOfWorkingMemory(state: EngineState): Map<string, ToolCall> {
  const last = state.tail[state.tail.length - 1];
  return last?.output ? toolCallsOf({ role: 'assistant', content: last.output }) : new Map();
}

/** The meter's figures for a built prompt: its layers against `budget` (the session's, made safe) and the budget in force. */
function usageOf(state: EngineState, built: { request: MessagesRequest; tokens: number }, budget: number): Usage {
  const s = state.settings;
  return computeUsage(built.tokens, s.contextWindow, s.reservedOutputTokens, layerUsage(state, built.request, built.tokens, budget), sessionBudget(state));
}
