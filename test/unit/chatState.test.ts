import { describe, expect, it } from 'vitest';
import { computeUsage } from '../../src/engine/usage';
import { chatReducer, initialChatState, type ChatState } from '../../webview-ui/src/chatState';

function run(...actions: Parameters<typeof chatReducer>[1][]): ChatState {
  return actions.reduce(chatReducer, initialChatState);
}

describe('webview chatReducer', () => {
  it('shows the sent text at once and frees the input on idle', () => {
    const s = run({ type: 'local/sent', requestId: 'r1', text: 'hello' });
    expect(s.items).toEqual([{ kind: 'user', id: 'r1:u', text: 'hello' }]);
    expect(s.running).toBe('r1');
    expect(chatReducer(s, { type: 'chat/idle', requestId: 'r1' }).running).toBeUndefined();
    expect(chatReducer(s, { type: 'chat/idle', requestId: 'other' }).running).toBe('r1');
  });

  it('keeps the storage status: an archive on the plain-file fallback is marked so, a later status replaces it', () => {
    const fallback = run({ type: 'storage/status', ok: true, message: 'SQLite does not load here', fallback: true });
    expect(fallback.storage).toEqual({ ok: true, message: 'SQLite does not load here', fallback: true });
    expect(chatReducer(fallback, { type: 'storage/status', ok: true, message: 'Archive: a.sqlite' }).storage).toEqual({ ok: true, message: 'Archive: a.sqlite' });
  });

  it('joins streamed deltas into one answer and starts a new one after a tool row', () => {
    const s = run(
      { type: 'local/sent', requestId: 'r1', text: 'q' },
      { type: 'chat/textDelta', requestId: 'r1', text: 'Let me ' },
      { type: 'chat/textDelta', requestId: 'r1', text: 'look.' },
      { type: 'chat/toolCall', requestId: 'r1', toolUseId: 't1', name: 'read_file', input: { path: 'a.ts' } },
      { type: 'chat/toolResult', requestId: 'r1', toolUseId: 't1', text: 'export {}', isError: false },
      { type: 'chat/textDelta', requestId: 'r1', text: 'Done.' },
    );
    expect(s.items.map((i) => i.kind)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(s.items[1]).toMatchObject({ text: 'Let me look.' });
    expect(s.items[2]).toMatchObject({ result: { text: 'export {}', isError: false } });
    expect(new Set(s.items.map((i) => i.id)).size).toBe(4);
  });

  it('adds each turn cost to the session cost and keeps the latest usage', () => {
    const usage = computeUsage(50_000, 200_000, 8_192, []);
    const s = run({ type: 'chat/turnDone', requestId: 'r1', usage, cost: 0.25, cacheHitRate: 0 }, { type: 'chat/turnDone', requestId: 'r2', usage, cost: 0.5, cacheHitRate: 0.5 });
    expect(s.sessionCost).toBe(0.75);
    expect(s.usage).toBe(usage);
  });

  it("adds a condense's dollar cost as the host priced it, never the engine's cost units", () => {
    const usage = computeUsage(50_000, 200_000, 8_192, []);
    // 5,054 tokens condensed: the event's cost is 5,054 + 5 x 100 = 5,554 engine units; the call cost $0.017.
    const event = { type: 'condense_context' as const, turn: 3, tokensBefore: 5_054, tokensAfter: 3_555, inputTokens: 5_054, outputTokens: 100, cost: 5_554 };
    const s = run({ type: 'chat/turnDone', requestId: 'r1', usage, cost: 0.25, cacheHitRate: 0 }, { type: 'chat/engineEvent', requestId: 'condense-1', event, usd: 0.017 });
    expect(s.sessionCost).toBeCloseTo(0.267, 10);
    // An engine event the host did not price (a warning, a re-layering) adds nothing.
    expect(run({ type: 'chat/engineEvent', requestId: 'r2', event: { type: 'warning', turn: 1, message: 'x' } }).sessionCost).toBe(0);
  });

  it('shows the usage of a request as it goes out, keeping the last answer\'s cost and cache rate until its own turn ends', () => {
    const answered = computeUsage(40_000, 200_000, 8_192, []);
    const inFlight = computeUsage(55_000, 200_000, 8_192, []);
    const sent = run(
      { type: 'local/sent', requestId: 'r1', text: 'q' },
      { type: 'chat/requestSent', requestId: 'r1', usage: answered },
      { type: 'chat/turnDone', requestId: 'r1', usage: answered, cost: 0.25, cacheHitRate: 0.5 },
      { type: 'local/sent', requestId: 'r2', text: 'more' },
      { type: 'chat/requestSent', requestId: 'r2', usage: inFlight },
    );
    expect(sent).toMatchObject({ usage: inFlight, sessionCost: 0.25, cacheHitRate: 0.5, running: 'r2' });
    expect(run({ type: 'chat/requestSent', requestId: 'r1', usage: inFlight }).usage).toBe(inFlight);
  });

  it('clears the flow, usage and cost when a different session starts, not when the same one is announced again', () => {
    const usage = computeUsage(50_000, 200_000, 8_192, []);
    const s = run(
      { type: 'session/started', sessionId: 's1' },
      { type: 'local/sent', requestId: 'r1', text: 'q' },
      { type: 'chat/turnDone', requestId: 'r1', usage, cost: 1, cacheHitRate: 0 },
    );
    expect(chatReducer(s, { type: 'session/started', sessionId: 's1' })).toBe(s);
    const fresh = chatReducer(s, { type: 'session/started', requestId: 'n1', sessionId: 's2' });
    expect(fresh).toMatchObject({ sessionId: 's2', items: [], usage: undefined, sessionCost: 0, running: undefined });
    // a resumed session brings its last prompt and its cost: the meter shows them before its next request
    const last = computeUsage(31_000, 200_000, 8_192, []);
    expect(chatReducer(s, { type: 'session/started', sessionId: 'old', usage: last, cost: 0.4 })).toMatchObject({ sessionId: 'old', usage: last, sessionCost: 0.4 });
  });

  it('shows a resumed session\'s history as past rows, with a note when older entries were left out', () => {
    const s = run({ type: 'session/started', sessionId: 's1' }, { type: 'local/sent', requestId: 'r1', text: 'q' });
    const resumed = chatReducer(s, { type: 'session/started', sessionId: 'old', history: [{ role: 'user', text: 'Hi', seq: 3 }, { role: 'assistant', text: 'Hello', seq: 3 }], omitted: 7 });
    expect(resumed.items).toEqual([
      { kind: 'event', id: 'h0:omitted', event: { type: 'warning', turn: 0, message: '7 earlier messages are not shown: the Archive view has the whole session.' } },
      { kind: 'user', id: 'h3:user', text: 'Hi', past: true },
      { kind: 'assistant', id: 'h3:assistant', text: 'Hello', past: true },
    ]);
    expect(chatReducer(s, { type: 'session/started', sessionId: 'old', history: [], omitted: 0 }).items).toEqual([]);
  });

  it('shows errors as rows with their code', () => {
    const s = run({ type: 'chat/error', requestId: 'r1', code: 'no_api_key', message: 'No API key' });
    expect(s.items).toEqual([{ kind: 'error', id: 'r1:x0', code: 'no_api_key', message: 'No API key' }]);
  });

  it('shows an approval card once (even when sent again) and marks it decided', () => {
    const ask = { type: 'approval/request' as const, requestId: 'r1:approval1', turnRequestId: 'r1', tool: 'edit_file', summary: 'edit a.ts (1 block)', input: {} };
    const s = run({ type: 'local/sent', requestId: 'r1', text: 'go' }, ask, ask);
    expect(s.items.filter((i) => i.kind === 'approval')).toEqual([{ kind: 'approval', id: 'r1:approval1', tool: 'edit_file', summary: 'edit a.ts (1 block)', input: {}, state: 'pending' }]);
    expect(chatReducer(s, { type: 'local/approvalAnswered', requestId: 'r1:approval1', approved: true }).items[1]).toMatchObject({ state: 'approved' });
    expect(chatReducer(s, { type: 'approval/settled', requestId: 'r1:approval1', approved: false }).items[1]).toMatchObject({ state: 'rejected' });
  });

  it('edit and resend: user messages learn their exchange id; a resend greys out the edited message and all after it', () => {
    const s = run(
      { type: 'local/sent', requestId: 'r1', text: 'one' },
      { type: 'chat/userMessage', requestId: 'r1', seq: 1 },
      { type: 'chat/textDelta', requestId: 'r1', text: 'A1' },
      { type: 'chat/idle', requestId: 'r1' },
      { type: 'local/sent', requestId: 'r2', text: 'two' },
      { type: 'chat/userMessage', requestId: 'r2', seq: 2 },
      { type: 'chat/textDelta', requestId: 'r2', text: 'A2' },
      { type: 'local/resent', requestId: 'r3', seq: 2, text: 'two, edited' },
    );
    expect(s.userSeqs).toEqual({ 'r1:u': 1, 'r2:u': 2 });
    expect(s.superseded).toEqual(['r2:u', s.items[3]!.id]);
    expect(s.items.map((i) => (i.kind === 'user' || i.kind === 'assistant' ? i.text : i.kind))).toEqual(['one', 'A1', 'two', 'A2', 'two, edited']);
    expect(s.running).toBe('r3');
    const confirmed = chatReducer(chatReducer(s, { type: 'chat/resent', requestId: 'r3', from: 2, by: 3, superseded: [2] }), { type: 'chat/userMessage', requestId: 'r3', seq: 3 });
    expect(confirmed.superseded).toEqual(s.superseded);
    expect(confirmed.userSeqs['r3:u']).toBe(3);
    expect(chatReducer(confirmed, { type: 'session/started', sessionId: 'new' })).toMatchObject({ userSeqs: {}, superseded: [] });
  });
});
