import type { EngineSettings } from '../../src/shared/engineSettings';
import type { ApiKeySource, ContextFigures, EngineEventView, HostToWebview, ModelSettings, UsageView } from '../../src/shared/webviewMessages';
import { applyResend, type LocalResent } from './resendState';
import { addCall, addEvent, emptyTimeline, type Timeline } from './context/timeline';

export type Usage = UsageView;
export type { EngineEventView };

/** One row of the chat flow. */
export type ChatItem =
  /** `past`: from the archive, shown when a session is resumed. */
  | { kind: 'user'; id: string; text: string; past?: boolean }
  | { kind: 'assistant'; id: string; text: string; past?: boolean }
  | { kind: 'tool'; id: string; name: string; input: unknown; result?: { text: string; isError: boolean } }
  | { kind: 'event'; id: string; event: EngineEventView }
  | { kind: 'error'; id: string; code: string; message: string }
  /** A write or command waiting for the user; `state` changes once it is decided. */
  | { kind: 'approval'; id: string; tool: string; summary: string; input: unknown; state: 'pending' | 'approved' | 'rejected' };

/** Everything the chat view shows; changed only by `chatReducer`. */
export interface ChatState {
  sessionId: string | undefined;
  /** The archive's title of a resumed session; undefined for a new one (its first message titles it). */
  title: string | undefined;
  items: ChatItem[];
  /** The request whose turn is running (Stop aborts it); undefined when idle. */
  running: string | undefined;
  apiKey: ApiKeySource | undefined;
  engine: EngineSettings | undefined;
  model: ModelSettings | undefined;
  usage: Usage | undefined;
  /** Dollars spent in this session, as priced from the usage the API reported. */
  sessionCost: number;
  /** Share of the last prompt read from the prompt cache, 0..1; undefined before the first answer. */
  cacheHitRate: number | undefined;
  storage: { ok: boolean; message: string; fallback?: boolean } | undefined;
  /** Condense Now is running (its model call can take seconds). */
  condensing: boolean;
  /** Exchange id of each user message, by item id (what Edit resends from). */
  userSeqs: Record<string, number>;
  /** Items an edited, resent message superseded (shown greyed; the archive keeps them). */
  superseded: string[];
  /** Window, reserve, budget and layer caps, from the host's one computation (context/figures). */
  figures: ContextFigures | undefined;
  /** The session's turns: prompt size, cost, cache reads, re-layering and condense marks. */
  timeline: Timeline;
}

export const initialChatState: ChatState = {
  sessionId: undefined,
  title: undefined,
  items: [],
  running: undefined,
  apiKey: undefined,
  engine: undefined,
  model: undefined,
  usage: undefined,
  sessionCost: 0,
  cacheHitRate: undefined,
  storage: undefined,
  condensing: false,
  userSeqs: {},
  superseded: [],
  figures: undefined,
  timeline: emptyTimeline,
};

/** What the view itself does: the user sent text (shown at once, before any reply), or answered an approval. */
export type LocalAction = { type: 'local/sent'; requestId: string; text: string } | { type: 'local/approvalAnswered'; requestId: string; approved: boolean } | LocalResent;

/** Applies one validated host message (or local action) to the state. Pure. */
export function chatReducer(state: ChatState, action: HostToWebview | LocalAction): ChatState {
  switch (action.type) {
    case 'local/sent':
      return { ...state, running: action.requestId, items: [...state.items, { kind: 'user', id: `${action.requestId}:u`, text: action.text }] };
    case 'local/resent':
    case 'chat/userMessage':
    case 'chat/resent':
      return applyResend(state, action);
    case 'settings/changed':
      return { ...state, engine: action.engine, model: action.model };
    case 'apiKey/status':
      return { ...state, apiKey: action.source };
    case 'storage/status':
      return { ...state, storage: { ok: action.ok, message: action.message, ...(action.fallback ? { fallback: true } : {}) } };
    case 'session/started':
      return action.sessionId === state.sessionId ? state : { ...state, sessionId: action.sessionId, title: action.title, items: historyItems(action), running: undefined, usage: action.usage, sessionCost: action.cost ?? 0, cacheHitRate: undefined, userSeqs: {}, superseded: [], timeline: emptyTimeline };
    case 'condense/running':
      return { ...state, condensing: action.running };
    case 'usage/updated':
      return { ...state, usage: action.usage };
    case 'chat/textDelta': {
      const last = state.items[state.items.length - 1];
      if (last?.kind === 'assistant' && last.id.startsWith(`${action.requestId}:`)) {
        return { ...state, items: [...state.items.slice(0, -1), { ...last, text: last.text + action.text }] };
      }
      return { ...state, items: [...state.items, { kind: 'assistant', id: `${action.requestId}:a${state.items.length}`, text: action.text }] };
    }
    case 'chat/toolCall':
      return { ...state, items: [...state.items, { kind: 'tool', id: action.toolUseId, name: action.name, input: action.input }] };
    case 'chat/toolResult':
      return {
        ...state,
        items: state.items.map((i) => (i.kind === 'tool' && i.id === action.toolUseId ? { ...i, result: { text: action.text, isError: action.isError } } : i)),
      };
    case 'chat/requestSent': // cost and cache rate stay those of the last answer until this one ends
      return { ...state, usage: action.usage };
    case 'chat/turnDone': {
      const call = { requestId: action.requestId, promptTokens: action.usage.used, cost: action.cost, ...(action.promptTokens !== undefined ? { apiPromptTokens: action.promptTokens } : {}), ...(action.cacheReadTokens !== undefined ? { cacheReadTokens: action.cacheReadTokens } : {}) };
      return { ...state, usage: action.usage, sessionCost: state.sessionCost + action.cost, cacheHitRate: action.cacheHitRate, timeline: addCall(state.timeline, call) };
    }
    case 'chat/engineEvent':
      return {
        ...state,
        items: [...state.items, { kind: 'event', id: `${action.requestId}:e${state.items.length}`, event: action.event }],
        // A condense's cost (Condense Now, or inside a turn) is part of the session's: in dollars, as the host priced it.
        sessionCost: state.sessionCost + (action.usd ?? 0),
        timeline: addEvent(state.timeline, action.requestId, action.event, action.usd),
      };
    case 'context/figures':
      return { ...state, figures: action.figures };
    case 'chat/error':
      return { ...state, items: [...state.items, { kind: 'error', id: `${action.requestId}:x${state.items.length}`, code: action.code, message: action.message }] };
    case 'chat/idle':
      return state.running === action.requestId ? { ...state, running: undefined } : state;
    case 'approval/request':
      if (state.items.some((i) => i.id === action.requestId)) return state; // sent again after a reload
      return { ...state, items: [...state.items, { kind: 'approval', id: action.requestId, tool: action.tool, summary: action.summary, input: action.input, state: 'pending' }] };
    case 'approval/settled':
    case 'local/approvalAnswered':
      return {
        ...state,
        items: state.items.map((i) => (i.kind === 'approval' && i.id === action.requestId ? { ...i, state: action.approved ? 'approved' : 'rejected' } : i)),
      };
    // The settings panel and the mention list keep their own state (settings/, mentions/).
    case 'settings/show':
    case 'settings/snapshot':
    case 'settings/updated':
    case 'mentions/results':
      return state;
  }
}

/**
 * A resumed session's compact history as chat rows; a note first when older entries were left
 * out, one last when a reload interrupted its running turn.
 */
function historyItems(action: Extract<HostToWebview, { type: 'session/started' }>): ChatItem[] {
  const items: ChatItem[] = action.history?.map((h) => ({ kind: h.role, id: `h${h.seq}:${h.role}`, text: h.text, past: true })) ?? [];
  if (action.interrupted !== undefined) {
    const asked = action.interrupted.length > 80 ? `${action.interrupted.slice(0, 80)}…` : action.interrupted;
    items.push({ kind: 'event', id: 'h0:interrupted', event: { type: 'warning', turn: 0, message: `Interrupted by a reload: the turn for "${asked}" stopped when the window went away. What it did is in the archive; send a message to go on.` } });
  }
  if (action.omitted) items.unshift({ kind: 'event', id: 'h0:omitted', event: { type: 'warning', turn: 0, message: `${action.omitted} earlier messages are not shown: the Archive view has the whole session.` } });
  return items;
}

/** The title the view shows: the archive's, else the session's first message, else "New session". */
export function sessionTitleOf(state: Pick<ChatState, 'title' | 'items'>): string {
  if (state.title) return state.title;
  const first = state.items.find((i) => i.kind === 'user');
  const line = first?.kind === 'user' ? first.text.replace(/\s+/g, ' ').trim() : '';
  if (line === '') return 'New session';
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
}
