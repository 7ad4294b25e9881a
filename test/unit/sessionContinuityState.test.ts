import { describe, expect, it } from 'vitest';
import { chatReducer, initialChatState, sessionTitleOf, type ChatState } from '../../webview-ui/src/chatState';

function run(...actions: Parameters<typeof chatReducer>[1][]): ChatState {
  return actions.reduce(chatReducer, initialChatState);
}

describe('the chat view when a session comes back (reload, Open Session)', () => {
  it('carries the session cost on from what the host says it had cost', () => {
    const s = run({ type: 'session/started', sessionId: 'old', history: [{ role: 'user', text: 'Hi', seq: 1 }], cost: 0.25 });
    expect(s.sessionCost).toBe(0.25);
    expect(chatReducer(s, { type: 'chat/turnDone', requestId: 'r1', usage: { used: 1, window: 10, reservedOutput: 0, available: 9, percent: 10, band: 'green', layers: [] }, cost: 0.5, cacheHitRate: 0 }).sessionCost).toBe(0.75);
  });

  it('shows a turn a reload cut short as interrupted, after the history, naming its message', () => {
    const s = run({ type: 'session/started', sessionId: 'old', history: [{ role: 'user', text: 'Hi', seq: 1 }], interrupted: 'Refactor everything' });
    expect(s.items.at(-1)).toEqual({
      kind: 'event',
      id: 'h0:interrupted',
      event: { type: 'warning', turn: 0, message: 'Interrupted by a reload: the turn for "Refactor everything" stopped when the window went away. What it did is in the archive; send a message to go on.' },
    });
  });

  it('titles the session by the archive, else by its first message, else "New session"', () => {
    expect(sessionTitleOf(run({ type: 'session/started', sessionId: 'n' }))).toBe('New session');
    expect(sessionTitleOf(run({ type: 'session/started', sessionId: 'n' }, { type: 'local/sent', requestId: 'r1', text: '  What does\nhello.ts export?' }))).toBe('What does hello.ts export?');
    expect(sessionTitleOf(run({ type: 'session/started', sessionId: 'old', title: 'Fix the failing test' }))).toBe('Fix the failing test');
    expect(sessionTitleOf(run({ type: 'session/started', sessionId: 'n' }, { type: 'local/sent', requestId: 'r1', text: 'x'.repeat(100) }))).toHaveLength(60);
  });

  it('shows Condense progress while it runs', () => {
    const s = run({ type: 'condense/running', running: true });
    expect(s.condensing).toBe(true);
    expect(chatReducer(s, { type: 'condense/running', running: false }).condensing).toBe(false);
  });
});
