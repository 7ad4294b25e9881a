import type { EngineEventView } from '../../../src/shared/webviewMessages';

/** What the engine did to the context before a turn's request: the marks on the timeline. */
export type TimelineMark = 'relayer' | 'condense' | 'slide' | 'mask';

/** One user turn of the session (all its model calls), for the timeline under the layer bar. */
export interface TimelineTurn {
  /** The webview request that started the turn (or a condense's own id). */
  requestId: string;
  /** Prompt tokens of the turn's last model call, as the engine counted them. */
  promptTokens: number;
  /** Dollars, all the turn's calls (condensing calls included). */
  cost: number;
  /** Prompt tokens the API reported, and those read from the cache: the turn's cache hit rate is their ratio. */
  apiPromptTokens: number;
  cacheReadTokens: number;
  marks: TimelineMark[];
}

/** The session's turns, oldest first, and its totals. */
export interface Timeline {
  turns: TimelineTurn[];
}

export const emptyTimeline: Timeline = { turns: [] };

/** Most turns kept for the picture; older ones still count in the session's cost (ChatState.sessionCost). */
export const TIMELINE_MAX_TURNS = 60;

/** One model call finished: added to its turn (a tool loop makes several calls per turn). Pure. */
export function addCall(t: Timeline, call: { requestId: string; promptTokens: number; cost: number; apiPromptTokens?: number; cacheReadTokens?: number }): Timeline {
  return upsert(t, call.requestId, (turn) => ({
    ...turn,
    promptTokens: call.promptTokens,
    cost: turn.cost + call.cost,
    apiPromptTokens: turn.apiPromptTokens + (call.apiPromptTokens ?? 0),
    cacheReadTokens: turn.cacheReadTokens + (call.cacheReadTokens ?? 0),
  }));
}

/**
 * An engine event of turn `requestId`: re-layering and condensing become marks; `usd` (the dollars
 * the host priced a condense at; the event's own `cost` is in engine units) counts. Pure.
 */
export function addEvent(t: Timeline, requestId: string, event: EngineEventView, usd = 0): Timeline {
  const mark = markOf(event);
  if (!mark) return t;
  return upsert(t, requestId, (turn) => ({
    ...turn,
    marks: turn.marks.includes(mark) ? turn.marks : [...turn.marks, mark],
    cost: turn.cost + usd,
    // A condense between turns has no call of its own: its bar shows the prompt it left.
    promptTokens: event.type === 'condense_context' && turn.promptTokens === 0 ? event.tokensAfter : turn.promptTokens,
  }));
}

/** Cache read / prompt tokens over the given turns, 0..1; undefined before any reported prompt. */
export function cacheHitRate(turns: readonly TimelineTurn[]): number | undefined {
  const prompt = turns.reduce((n, t) => n + t.apiPromptTokens, 0);
  return prompt > 0 ? turns.reduce((n, t) => n + t.cacheReadTokens, 0) / prompt : undefined;
}

function markOf(event: EngineEventView): TimelineMark | undefined {
  switch (event.type) {
    case 'relayer':
      return 'relayer';
    case 'condense_context':
      return 'condense';
    case 'sliding_window_truncation':
      return 'slide';
    case 'outputs_masked':
      return 'mask';
    case 'condense_context_error':
    case 'warning':
      return undefined;
  }
}

function upsert(t: Timeline, requestId: string, change: (turn: TimelineTurn) => TimelineTurn): Timeline {
  const last = t.turns[t.turns.length - 1];
  if (last?.requestId === requestId) return { turns: [...t.turns.slice(0, -1), change(last)] };
  const fresh: TimelineTurn = { requestId, promptTokens: 0, cost: 0, apiPromptTokens: 0, cacheReadTokens: 0, marks: [] };
  return { turns: [...t.turns, change(fresh)].slice(-TIMELINE_MAX_TURNS) };
}
