import type { EngineSettings } from '../shared/engineSettings';
import { z } from 'zod';
import type { Message, ToolDefinition } from '../shared/messages';
import type { ParsedSession } from '../shared/sessionSchema';
import type { AssembledTurn } from '../engine/contextEngine';
import { ContextEngine } from '../engine/contextEngine';
import { ExtractiveSummarizer } from '../engine/extractiveSummarizer';
import type { ArchiveStore, Logger, Tokenizer } from '../engine/ports';
import { StrataError } from '../engine/ports';
import { DEFAULT_AGENT_SYSTEM } from '../engine/protocolText';
import { steppingClock } from '../adapters/systemClock';

/** Replayed sessions start at this instant and advance a minute per exchange, so runs are identical. */
const REPLAY_EPOCH = Date.UTC(2025, 0, 1, 9, 0, 0);
const CLOCK_STEP_MS = 60_000;

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

/** How a replay runs beyond its session and ports. */
export interface ReplayOptions {
  /**
   * Continue the session's exchanges already in the archive: the first `lastSeq` recorded
   * answers are skipped (they are stored) and ids continue. Without it the session must be new.
   */
  resume?: boolean;
  /** Stops the replay at the next turn boundary (SIGINT/SIGTERM); what was archived stays. */
  signal?: AbortSignal;
  /** Called once the exchange of `turn` is in the archive (or queued if a write failed). */
  onArchived?: (turn: number) => void;
}

/** What a replay did: turns run (skipped ones excluded), problems, and writes the archive lacks. */
export interface ReplayResult {
  turns: number;
  /** Recorded answers skipped because a resumed session already held them. */
  skipped: number;
  problems: string[];
  /** Archive writes still pending after the final flush: lost when the process ends. */
  unarchived: number;
  interrupted: boolean;
}

/**
 * Feeds a recorded session to the engine in order. Before each recorded answer it assembles
 * the request the engine would send at that point (from what came before only), then ingests
 * the answer. `onTurn` sees every turn as it happens. At the end, also when the replay throws
 * or is stopped, the engine's pending archive writes are flushed; the archive stays open for
 * whoever opened it to read and close.
 */
export async function replaySession(
  session: ParsedSession,
  sessionId: string,
  settings: EngineSettings,
  ports: ReplayPorts,
  onTurn: (turn: ReplayTurn) => void,
  options: ReplayOptions = {},
): Promise<ReplayResult> {
  const skip = ports.archive.lastSeq(sessionId);
  if (skip > 0 && !options.resume) {
    throw new StrataError(`Session ${sessionId} already has ${skip} exchanges in the archive; resume it or replay into a new session.`, 'session_exists');
  }
  // A recorded chat gives each exchange its real time; other sessions get one clock step per
  // exchange (a resumed replay stamps exchanges as an unbroken one would).
  const stepping = steppingClock(REPLAY_EPOCH + skip * CLOCK_STEP_MS, CLOCK_STEP_MS);
  let recordedAt: number | undefined;
  const clock = { now: () => recordedAt ?? stepping.now() };
  const engine = new ContextEngine({
    sessionId,
    settings,
    tokenizer: ports.tokenizer,
    archive: ports.archive,
    summarizer: new ExtractiveSummarizer(ports.tokenizer),
    clock,
    logger: ports.logger,
    systemPrompt: session.meta.system ?? DEFAULT_AGENT_SYSTEM,
    tools: recordedTools(session),
    ...(session.meta.cwd ? { workspaceRoot: session.meta.cwd } : {}),
    // Debug runs check every request against the Messages API's rules (tests turn it on too).
    validateRequests: process.env.STRATA_DEBUG === '1',
  });
  const problems = [...session.problems];
  let open = false;
  let turn = 0;
  let interrupted = false;
  let unarchived = 0;
  try {
    for (const [index, message] of session.messages.entries()) {
      const note = session.notes.get(index);
      if (turn < skip) {
        if (message.role === 'assistant') turn += 1;
        continue;
      }
      if (message.role === 'user') {
        if (open) throw new Error('replay: two inputs in a row; the session parser should have merged them');
        recordedAt = note?.at;
        if (note?.resendFrom !== undefined) engine.supersedeFrom(note.resendFrom);
        engine.beginExchange(message, { ...(note?.userMessage ? { userMessage: true } : {}), ...(note?.changedFiles ? { changedFiles: note.changedFiles } : {}) });
        open = true;
        continue;
      }
      // Lets a signal handler run between turns; the engine's own work never yields.
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (options.signal?.aborted) {
        interrupted = true;
        break;
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
      // The live chat corrected its tokenizer with the API's reported usage at this point: so does the replay.
      if (note?.reportedTokens && note.estimatedTokens) ports.tokenizer.observe(note.estimatedTokens, note.reportedTokens);
      problems.push(...engine.completeExchange(message).problems);
      options.onArchived?.(turn);
      open = false;
    }
  } finally {
    const flushed = engine.flush();
    problems.push(...flushed.problems);
    unarchived = flushed.pending.length;
  }
  if (skip > turn) problems.push(`session ${sessionId} holds ${skip} exchanges but the file has only ${turn} answers; nothing was replayed`);
  return { turns: Math.max(0, turn - skip), skipped: Math.min(skip, turn), problems, unarchived, interrupted };
}

function placeholderInput(): Message {
  return { role: 'user', content: [{ type: 'text', text: '(no recorded input)' }] };
}

/** Tool definitions a recorded chat sent (its meta line's `tools`); none for other sessions. */
function recordedTools(session: ParsedSession): ToolDefinition[] {
  const parsed = recordedToolsSchema.safeParse(session.meta.tools);
  return parsed.success ? parsed.data : [];
}

const recordedToolsSchema = z.array(z.object({ name: z.string(), description: z.string(), input_schema: z.record(z.string(), z.unknown()) }));
