import type { EngineSettings } from '../shared/engineSettings';
import type { Message } from '../shared/messages';
import type { ParsedSession } from '../shared/sessionSchema';
import type { AssembledTurn } from '../engine/contextEngine';
import { ContextEngine } from '../engine/contextEngine';
import { ExtractiveSummarizer } from '../engine/extractiveSummarizer';
import type { ArchiveStore, Logger, Tokenizer } from '../engine/ports';
import { DEFAULT_AGENT_SYSTEM } from '../engine/protocolText';
import { steppingClock } from '../adapters/systemClock';

/** Replayed sessions start at this instant and advance a minute per exchange, so runs are identical. */
const REPLAY_EPOCH = Date.UTC(2025, 0, 1, 9, 0, 0);

export interface ReplayPorts {
  tokenizer: Tokenizer;
  archive: ArchiveStore;
  logger: Logger;
}

export interface ReplayTurn {
  /** 1-based index of the recorded assistant message this request precedes. */
  turn: number;
  assembled: AssembledTurn;
  /** Milliseconds spent in assemble() alone. */
  assembleMs: number;
}

/**
 * Feeds a recorded session to the engine in order. Before each recorded answer it assembles
 * the request the engine would send at that point (from what came before only), then ingests
 * the answer. `onTurn` sees every turn as it happens.
 */
export async function replaySession(
  session: ParsedSession,
  sessionId: string,
  settings: EngineSettings,
  ports: ReplayPorts,
  onTurn: (turn: ReplayTurn) => void,
): Promise<{ turns: number; problems: string[] }> {
  const engine = new ContextEngine({
    sessionId,
    settings,
    tokenizer: ports.tokenizer,
    archive: ports.archive,
    summarizer: new ExtractiveSummarizer(ports.tokenizer),
    clock: steppingClock(REPLAY_EPOCH, 60_000),
    logger: ports.logger,
    systemPrompt: session.meta.system ?? DEFAULT_AGENT_SYSTEM,
    // Debug runs check every request against the Messages API's rules (tests turn it on too).
    validateRequests: process.env.STRATA_DEBUG === '1',
  });
  const problems = [...session.problems];
  let open = false;
  let turn = 0;
  for (const message of session.messages) {
    if (message.role === 'user') {
      if (open) throw new Error('replay: two inputs in a row; the session parser should have merged them');
      engine.beginExchange(message);
      open = true;
      continue;
    }
    if (!open) {
      problems.push(`answer ${turn + 1} has no input before it; replayed with an empty one`);
      engine.beginExchange(placeholderInput());
    }
    turn += 1;
    const started = performance.now();
    const assembled = await engine.assemble();
    const assembleMs = performance.now() - started;
    onTurn({ turn, assembled, assembleMs });
    problems.push(...engine.completeExchange(message).problems);
    open = false;
  }
  return { turns: turn, problems };
}

function placeholderInput(): Message {
  return { role: 'user', content: [{ type: 'text', text: '(no recorded input)' }] };
}
