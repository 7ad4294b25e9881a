import type { Housekeeping } from '../shared/protocolSchema';
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
import { StrataError } from './ports';
import { trimToTokens } from './text/trimToBudget';

/**
 * Turns a finished exchange into its trio (header, summary, full), archives it, and feeds the
 * index and the narrative. An archive failure never loses the exchange: it waits in memory and
 * is written with the next one.
 */
export class ExchangeRecorder {
  private readonly unarchived: ArchivedExchange[] = [];

  constructor(
    private readonly options: { sessionId: string; archive: ArchiveStore; logger: Logger },
    private readonly state: EngineState,
  ) {}

  /** Archive access that also sees exchanges still waiting for a failed write to succeed. */
  readonly reader: Pick<ArchiveStore, 'get' | 'lastSeq'> = {
    get: (sessionId, seq) => this.unarchived.find((e) => e.seq === seq && e.sessionId === sessionId) ?? this.safeGet(sessionId, seq),
    lastSeq: (sessionId) => Math.max(this.options.archive.lastSeq(sessionId), ...this.unarchived.map((e) => e.seq)),
  };

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
    const problems = this.applyModelSummaries(housekeeping, count);
    const tokens = messageTokens(exchange.input, count) + messageTokens(exchange.output, count);
    this.unarchived.push({ sessionId: this.options.sessionId, seq: exchange.seq, createdAt: exchange.createdAt, header, summary, full: [exchange.input, exchange.output], tokens });
    problems.push(...this.flush());
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
      this.state.headers[seq - 1]!.line = line;
      const waiting = this.unarchived.find((e) => e.seq === seq);
      if (waiting) Object.assign(waiting, { header: line, summary });
      else this.tryArchive(() => this.options.archive.updateTrio(this.options.sessionId, seq, line, summary));
    }
    return problems;
  }

  /** Writes waiting exchanges in order; stops at the first failure and keeps the rest waiting. */
  private flush(): string[] {
    while (this.unarchived.length > 0) {
      const next = this.unarchived[0]!;
      const problem = this.tryArchive(() => this.options.archive.put(next));
      if (problem) return [problem];
      this.unarchived.shift();
    }
    return [];
  }

  private tryArchive(write: () => void): string | undefined {
    try {
      write();
      return undefined;
    } catch (error) {
      const message = error instanceof StrataError ? error.message : `Archive write failed: ${String(error)}`;
      this.options.logger.warn(`${message} The exchange is kept in memory and will be written with the next one.`);
      return message;
    }
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
