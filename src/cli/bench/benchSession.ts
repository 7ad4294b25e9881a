import type { EngineSettings } from '../../shared/engineSettings';
import type { Message } from '../../shared/messages';
import type { ParsedSession } from '../../shared/sessionSchema';
import type { ArchiveStore, Logger, Tokenizer } from '../../engine/ports';
import { DEFAULT_AGENT_SYSTEM } from '../../engine/protocolText';
import { replaySession } from '../../host/replaySession';
import type { BaselineContext } from './baselines';
import { ClearToolUses, FullHistory, ObservationMasking, SlidingWindow } from './baselines';
import type { StrategyTotals } from './ledger';
import { Ledger } from './ledger';
import { sessionProbes } from './recall';
import type { Strategy } from './strategy';
import { BlockCounter } from './strategy';
import { ClineContextManager, RooCondense } from './summarizingBaselines';

/** Strategy names in report order; `strata` last. */
export const STRATEGY_NAMES = ['full', 'window', 'cline', 'condense', 'masking', 'clear-tool-uses', 'strata'] as const;
export type StrategyName = (typeof STRATEGY_NAMES)[number];

export interface BenchPorts {
  tokenizer: Tokenizer;
  logger: Logger;
  /** A fresh archive for Strata, per session. */
  openArchive: () => ArchiveStore;
}

/**
 * Runs every strategy on one session: each sees, per recorded answer, only the messages before
 * it; all share the tokenizer, the cost model and the recall probes. Strata goes through the
 * same code path as `strata replay`.
 */
export async function benchSession(session: ParsedSession, sessionId: string, settings: EngineSettings, ports: BenchPorts, onTurn: () => void): Promise<Record<StrategyName, StrategyTotals>> {
  const count = (s: string) => ports.tokenizer.count(s);
  const counter = new BlockCounter(count);
  const messages = session.messages;
  const probes = sessionProbes(messages);
  const answers = messages.flatMap((m, i) => (m.role === 'assistant' ? [i] : []));
  const answerTokens = answers.map((i) => counter.message(messages[i]!));
  const ctx: BaselineContext = { system: session.meta.system ?? DEFAULT_AGENT_SYSTEM, counter, window: settings.contextWindow, reservedOutput: settings.reservedOutputTokens };
  const baselines: Strategy[] = [new FullHistory(ctx), new SlidingWindow(ctx), new ClineContextManager(ctx), new RooCondense(ctx, ports.tokenizer), new ObservationMasking(ctx), new ClearToolUses(ctx)];
  const results = {} as Record<StrategyName, StrategyTotals>;
  for (const strategy of baselines) {
    const ledger = new Ledger(count, settings.contextWindow);
    for (let turn = 0; turn < answers.length; turn++) {
      const history = historyBefore(messages, answers[turn]!);
      const started = performance.now();
      const out = await strategy.turn(history);
      const assembleMs = performance.now() - started;
      const compacted = counter.messages(out.request.messages) < counter.messages(history);
      ledger.record({ ...out, assembleMs, compacted }, answerTokens[turn]!, probes[turn]);
      onTurn();
    }
    results[strategy.name as StrategyName] = ledger.totals;
  }
  results.strata = await benchStrata(session, sessionId, settings, ports, onTurn, { counter, probes, answerTokens });
  return results;
}

/**
 * Strata alone on one session (`bench --presets` runs it once per preset; the rivals do not change).
 * `shared` is what `benchSession` already counted for the rivals.
 */
export async function benchStrata(
  session: ParsedSession,
  sessionId: string,
  settings: EngineSettings,
  ports: BenchPorts,
  onTurn: () => void,
  shared?: { counter: BlockCounter; probes: ReturnType<typeof sessionProbes>; answerTokens: number[] },
): Promise<StrategyTotals> {
  const count = (s: string) => ports.tokenizer.count(s);
  const counter = shared?.counter ?? new BlockCounter(count);
  const messages = session.messages;
  const probes = shared?.probes ?? sessionProbes(messages);
  const answerTokens = shared?.answerTokens ?? messages.flatMap((m) => (m.role === 'assistant' ? [counter.message(m)] : []));
  const archive = ports.openArchive();
  try {
    const ledger = new Ledger(count, settings.contextWindow);
    // The heap in use is read after every turn, from a collected heap when the replay begins (when
    // `--expose-gc` allows): the peak is the whole process's, garbage not yet collected included.
    (globalThis as { gc?: () => void }).gc?.();
    let peakHeap = 0;
    await replaySession(session, sessionId, settings, { tokenizer: ports.tokenizer, archive, logger: ports.logger }, (t) => {
      const calls = t.assembled.condenseCalls.map((c) => ({ request: c.request, outputTokens: c.outputTokens }));
      ledger.record({ request: t.assembled.request, extraOutputTokens: t.assembled.housekeepingTokens, sideCalls: calls, assembleMs: t.assembleMs, budget: t.assembled.budget, compacted: t.assembled.mode !== 'full' }, answerTokens[t.turn - 1] ?? 0, probes[t.turn - 1]);
      peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
      onTurn();
    });
    return { ...ledger.totals, peakHeapBytes: peakHeap };
  } finally {
    archive.close();
  }
}

/** The messages a strategy may see before answer `index`; a missing input becomes a placeholder. */
function historyBefore(messages: readonly Message[], index: number): Message[] {
  const history = messages.slice(0, index);
  if (history.length === 0 || history[history.length - 1]!.role !== 'user') history.push({ role: 'user', content: [{ type: 'text', text: '(no recorded input)' }] });
  return history;
}
