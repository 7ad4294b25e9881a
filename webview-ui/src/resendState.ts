import type { HostToWebview } from '../../src/shared/webviewMessages';
import type { ChatItem, ChatState } from './chatState';

/** The user edited their message `e${seq}` and resent `text` as the turn `requestId`. */
export type LocalResent = { type: 'local/resent'; requestId: string; seq: number; text: string };

type ResendAction = LocalResent | Extract<HostToWebview, { type: 'chat/userMessage' | 'chat/resent' }>;

/**
 * Edit and resend in the chat flow: user messages learn their exchange id (`chat/userMessage`),
 * and a resend greys out the edited message and everything after it (kept, marked superseded:
 * the archive keeps them too) before the new message joins. Pure.
 */
export function applyResend(state: ChatState, action: ResendAction): ChatState {
  switch (action.type) {
    case 'chat/userMessage':
      return { ...state, userSeqs: { ...state.userSeqs, [`${action.requestId}:u`]: action.seq } };
    case 'local/resent': {
      const marked = markFrom(state, action.seq, state.items.length);
      return { ...marked, running: action.requestId, items: [...marked.items, { kind: 'user', id: `${action.requestId}:u`, text: action.text }] };
    }
    case 'chat/resent': {
      const end = state.items.findIndex((i) => i.id === `${action.requestId}:u`);
      return markFrom(state, action.from, end === -1 ? state.items.length : end);
    }
  }
}

/** Marks superseded the items from the user message `e${seq}` up to (not including) index `end`. */
function markFrom(state: ChatState, seq: number, end: number): ChatState {
  const start = state.items.findIndex((i) => i.kind === 'user' && state.userSeqs[i.id] === seq);
  if (start === -1) return state;
  const ids = state.items.slice(start, end).map((i: ChatItem) => i.id);
  return { ...state, superseded: [...new Set([...state.superseded, ...ids])] };
}
