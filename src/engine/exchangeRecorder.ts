import type { Housekeeping } from '../shared/protocolSchema';
import { ArchiveWriteQueue } from './archiveWriteQueue';
import type { FlushReport } from './archiveWriteQueue';
import { messageTokens } from './blockTokens';
import { exchangeEntities } from './derive/entities';
import { deriveHeader, deriveSummary } from './derive/describeExchange';
import type { EngineState } from './engineState';
import type { Exchange } from './exchange';
import { parseExchangeId } from './exchange';
import { factsOf } from './exchangeFacts';
import type { Narrative } from './narrative';
import { advanceNarrative, applyHousekeeping } from './narrative';
import type { ArchivedExchange, ArchiveStore, Logger } from './ports';
import { trimToTokens } from './text/trimToBudget';

/**
 * Turns a finished exchange into its trio (header, summary, full), archives it, and feeds the
 * index and the narrative. Writes go through an ArchiveWriteQueue: one that fails stays in
 * memory, readable, and is retried on its own (see that class for when).
 */
export class ExchangeRecorder {
  private readonly writes: ArchiveWriteQueue;
  /** A resend waiting for its exchange: `by`'s row will mark `seqs` superseded. */
  private resend?: { by: number; seqs: number[] };

  constructor(
    private readonly options: { sessionId: string; archive: ArchiveStore; logger: Logger },
    private readonly state: EngineState,
  ) {
    this.writes = new ArchiveWriteQueue(options.archive, options.logger);
  }

  /** Archive access that also sees exchanges whose write has not succeeded yet. */
  readonly reader: Pick<ArchiveStore, 'get' | 'lastSeq'> = {
    get: (sessionId, seq) => this.writes.pendingExchange(sessionId, seq) ?? this.safeGet(sessionId, seq),
    lastSeq: (sessionId) => Math.max(this.options.archive.lastSeq(sessionId), this.writes.lastPendingSeq(sessionId)),
  };

  /** Archive writes not yet done (exchanges and summary updates). */
  get pendingWrites(): number {
    return this.writes.pendingCount;
  }

  /** Tries every pending archive write now; reports what is still pending. */
  flush(): FlushReport {
    return this.writes.flush();
  }

  /** Exchanges `seqs` are superseded by `by` (a resent message, not recorded yet); archived with `by`. */
  supersede(seqs: readonly number[], by: number): void {
    this.writes.markSuperseded(this.options.sessionId, seqs, by);
    this.resend = { by, seqs: [...(this.resend?.by === by ? this.resend.seqs : []), ...seqs] };
  }

  /** Records the exchange; returns problems worth telling the user (never throws on archive trouble). */
  record(exchange: Exchange, housekeeping: Housekeeping | undefined): string[] {
    const s = this.state.settings;
    const count = (t: string) => this.state.tokenizer.count(t);
    const header = deriveHeader(exchange, count, s.headerMaxTokens);
    const summary = deriveSummary(exchange, count, s.summaryMaxTokens);
    const entities = exchangeEntities(exchange);
    for (const f of entities.files) this.state.index.add(exchange.seq, 'file', f);
    for (const sym of entities.symbols) this.state.index.add(exchange.seq, 'symbol', sym);
    for (const e of entities.errors) this.state.index.add(exchange.seq, 'error', e);
    this.state.headers[exchange.seq - 1] = { seq: exchange.seq, line: header, tools: toolNames(exchange), files: entities.files.slice(0, 3) };
    this.state.summaries.set(exchange.seq, summary);
    const facts = factsOf(exchange, header, entities.files, entities.symbols);
    this.state.narrative = applyHousekeeping(advanceNarrative(this.state.narrative, facts), housekeeping);
    const tokens = messageTokens(exchange.input, count) + messageTokens(exchange.output, count);
    // Queued before the model's summaries are applied, so one naming this very exchange lands in its row.
    const supersedes = this.resend?.by === exchange.seq ? { supersedes: this.resend.seqs } : {};
    if (this.resend?.by === exchange.seq) this.resend = undefined;
    this.writes.put({ sessionId: this.options.sessionId, seq: exchange.seq, createdAt: exchange.createdAt, header, summary, full: [exchange.input, exchange.output], tokens, ...supersedes });
    const problems = this.applyModelSummaries(housekeeping, count);
    problems.push(...this.writes.drain());
    return problems;
  }

  /** Tokens of the housekeeping block the protocol asks for `seqs`, written as lean as the engine would. */
  housekeepingTokens(seqs: number[], narrative: Narrative): number {
    const summaries: Record<string, string> = {};
    for (const seq of seqs) summaries[`e${seq}`] = this.state.summaries.get(seq) ?? '';
    const body = JSON.stringify({ summaries, narrative: { state: narrative.state, nextSteps: narrative.nextSteps } });
    return this.state.tokenizer.count(`<housekeeping>${body}</housekeeping>`);
  }

  private applyModelSummaries(housekeeping: Housekeeping | undefined, count: (s: string) => number): string[] {
    const problems: string[] = [];
    for (const [id, text] of Object.entries(housekeeping?.summaries ?? {})) {
      const seq = parseExchangeId(id);
      if (seq === undefined || !this.state.headers[seq - 1]) {
        problems.push(`Housekeeping named ${id}, which is not an exchange of this session; ignored.`);
        continue;
      }
      const summary = trimToTokens(`e${seq}: ${text}`, this.state.settings.summaryMaxTokens, count);
      this.state.summaries.set(seq, summary);
      const header = housekeeping?.headers?.[id];
      const line = header ? trimToTokens(header, this.state.settings.headerMaxTokens, count) : this.state.headers[seq - 1]!.line;
      // replaced, not edited in place: a checkpoint (resend) may share the old record
      this.state.headers[seq - 1] = { ...this.state.headers[seq - 1]!, line };
      this.writes.updateTrio(this.options.sessionId, seq, line, summary);
    }
    return problems;
  }

  private safeGet(sessionId: string, seq: number): ArchivedExchange | undefined {
    try {
      return this.options.archive.get(sessionId, seq);
    } catch (error) {
      this.options.logger.warn(error instanceof Error ? error.message : String(error));
      return undefined;
    }
  }
}

function toolNames(exchange: Exchange): string[] {
  const names: string[] = [];
  for (const b of exchange.output.content) if (b.type === 'tool_use' && !names.includes(b.name)) names.push(b.name);
  return names.length > 0 ? names : ['text'];
}
