import { describe, expect, it } from 'vitest';
import type { EngineEvent } from '../../src/engine/engineEvents';
import { clampSettings } from '../../src/extension/clampSettings';
import { contextFigures } from '../../src/extension/contextFigures';
import { STOP_AND_START_NEW } from '../../src/extension/stopQuestion';
import { StrataError } from '../../src/shared/strataError';
import { sessionEngineSettings, tableProfile } from '../../src/task/modelProfiles';
import { scriptedChat, until, untilStopped, USAGE, turnWaitingForApproval } from '../support/scriptedChat';

/**
 * ChatController's sessions over a scripted Task session (test/support/scriptedChat.ts): New
 * Session, Open Session, the restore after a reload, Condense Now, and what a reloaded webview
 * is sent again.
 */

const history = { entries: [{ role: 'user' as const, text: 'old question', seq: 1 }], omitted: 2 };
const condensed: EngineEvent = { type: 'condense_context', turn: 3, tokensBefore: 9_000, tokensAfter: 2_000, inputTokens: 100_000, outputTokens: 10_000, cost: 1 };

describe('ChatController: New Session and Open Session', () => {
  it('New Session when idle asks nothing, closes the open session, forgets it and starts the next id with the request id', async () => {
    const chat = scriptedChat();
    chat.controller.handle({ type: 'chat/send', requestId: 'r1', text: 'hi' });
    await until('idle', () => chat.of('chat/idle').length === 1);
    expect(await chat.controller.newSession('n1')).toBe('started');
    expect(chat.questions).toEqual([]);
    expect(chat.closed).toEqual(['s-1']);
    expect(chat.controller.currentSessionId).toBe('s-2');
    expect(chat.of('session/started')).toEqual([{ type: 'session/started', requestId: 'n1', sessionId: 's-2', cost: 0 }]);
    expect(chat.memory.at(-1)).toBe('forget');
    expect(chat.log.at(-1)).toBe('info session s-2 started');
    expect(chat.controller.lastRequest()).toBeUndefined();
  });

  it('New Session while a turn runs: Cancel keeps it (logged); confirming stops it, refusing its approval with the reason', async () => {
    const chat = scriptedChat();
    const { decisions } = await turnWaitingForApproval(chat, 'work');
    chat.knobs.stopAnswer = false;
    expect(await chat.controller.newSession()).toBe('cancelled');
    expect(chat.questions.map((q) => q.confirm)).toEqual([STOP_AND_START_NEW]);
    expect(chat.log.at(-1)).toBe('info New Session cancelled: the turn goes on in session s-1');
    expect(chat.controller.busyWith).toBe('turn');
    chat.knobs.stopAnswer = true;
    expect(await chat.controller.newSession()).toBe('started');
    expect(decisions).toEqual([{ approved: false, feedback: 'The user started a new session.' }]);
    expect(chat.of('chat/idle')).toEqual([{ type: 'chat/idle', requestId: 'r1', reason: 'stopped' }]);
    // Started without a request id; the stopped turn of s-1 leaves no mark on the new session.
    expect(chat.of('session/started')).toEqual([{ type: 'session/started', sessionId: 's-2', cost: 0 }]);
    // The stopped turn unmarks its session before the switch forgets it.
    expect(chat.memory).toEqual(['remember s-1 work', 'remember s-1', 'forget']);
  });

  it('Open Session shows the history, title and cost, closes the open session and stops its turn; the same session again changes nothing', async () => {
    const chat = scriptedChat();
    const { decisions } = await turnWaitingForApproval(chat, 'work');
    await chat.controller.resumeSession('s-9', history, 'Old title');
    expect(decisions).toEqual([{ approved: false, feedback: 'The user opened another session.' }]);
    expect(chat.closed).toEqual(['s-1']);
    expect(chat.controller.currentSessionId).toBe('s-9');
    expect(chat.of('session/started')).toEqual([{ type: 'session/started', sessionId: 's-9', history: history.entries, omitted: 2, title: 'Old title', cost: 0 }]);
    expect(chat.memory).toEqual(['remember s-1 work', 'remember s-1', 'remember s-9']);
    expect(chat.log.at(-1)).toBe('info session s-9 resumed (3 history entries)');
    const count = chat.sent.length;
    await chat.controller.resumeSession('s-9', { entries: [], omitted: 0 });
    expect(chat.sent).toHaveLength(count);
    // The next message opens the resumed session under its own id.
    chat.knobs.turn = async (emit) => emit({ type: 'idle', reason: 'answered' });
    chat.controller.handle({ type: 'chat/send', requestId: 'r2', text: 'go on' });
    await until('idle r2', () => chat.of('chat/idle').some((m) => m.requestId === 'r2'));
    expect(chat.opened).toEqual(['s-1', 's-9']);
    // New Session drops the history and title.
    await chat.controller.newSession();
    expect(chat.of('session/started').at(-1)).toEqual({ type: 'session/started', sessionId: 's-2', cost: 0 });
  });

  it('without a session memory, the started message carries no cost', async () => {
    const chat = scriptedChat({ memory: false });
    await chat.controller.newSession();
    expect(chat.of('session/started')).toEqual([{ type: 'session/started', sessionId: 's-2' }]);
  });
});

describe('ChatController: the restore after a reload', () => {
  const view = { title: 'Earlier', history };

  it('goes back to the last session with its history and title', () => {
    const chat = scriptedChat();
    chat.knobs.last = { sessionId: 's-7' };
    const looked: string[] = [];
    expect(chat.controller.restoreLast((id) => (looked.push(id), view))).toBe('restored');
    expect(looked).toEqual(['s-7']);
    expect(chat.controller.currentSessionId).toBe('s-7');
    expect(chat.of('session/started')).toEqual([{ type: 'session/started', sessionId: 's-7', history: history.entries, omitted: 2, title: 'Earlier', cost: 0 }]);
    expect(chat.memory).toEqual(['remember s-7']);
    expect(chat.usages).toEqual([]); // no prompt remembered for it: the status bar is left alone
    expect(chat.log).toEqual(['info session s-7 restored after a reload (1 history entries)']);
    // Restored once: a second call finds history and does nothing.
    expect(chat.controller.restoreLast(() => view)).toBe('none');
  });

  it("brings the last prompt the meter showed for that session, to the webview and the status bar", () => {
    const chat = scriptedChat();
    chat.knobs.last = { sessionId: 's-7' };
    chat.rememberedUsage.set('s-7', USAGE);
    chat.rememberedUsage.set('s-8', { ...USAGE, used: 1 });
    expect(chat.controller.restoreLast(() => view)).toBe('restored');
    expect(chat.of('session/started').at(-1)).toMatchObject({ sessionId: 's-7', usage: USAGE });
    expect(chat.usages).toEqual([USAGE]);
  });

  it('shows the turn a reload cut short as interrupted, even when the archive has nothing of it, until the next turn', async () => {
    const chat = scriptedChat();
    chat.knobs.last = { sessionId: 's-7', running: { text: 'the cut message' } };
    expect(chat.controller.restoreLast(() => undefined)).toBe('restored');
    expect(chat.of('session/started')).toEqual([{ type: 'session/started', sessionId: 's-7', history: [], omitted: 0, interrupted: 'the cut message', cost: 0 }]);
    expect(chat.log).toEqual(['info session s-7 restored after a reload (0 history entries, its running turn interrupted)']);
    chat.controller.handle({ type: 'webview/ready' });
    expect(chat.of('session/started').at(-1)).toMatchObject({ interrupted: 'the cut message' });
    chat.controller.handle({ type: 'chat/send', requestId: 'r1', text: 'again' });
    await until('idle', () => chat.of('chat/idle').length === 1);
    chat.controller.handle({ type: 'webview/ready' });
    expect(chat.of('session/started').at(-1)).not.toHaveProperty('interrupted');
  });

  it('an empty interrupted message is still shown as interrupted', () => {
    const chat = scriptedChat();
    chat.knobs.last = { sessionId: 's-7', running: { text: '' } };
    chat.controller.restoreLast(() => undefined);
    expect(chat.of('session/started')[0]).toMatchObject({ interrupted: '' });
  });

  it('does nothing with no last session, one gone from the archive, the current one, or once the chat has started a turn', async () => {
    const nothing = scriptedChat();
    expect(nothing.controller.restoreLast(() => view)).toBe('none');

    const gone = scriptedChat();
    gone.knobs.last = { sessionId: 's-7' };
    expect(gone.controller.restoreLast(() => undefined)).toBe('none');
    expect(gone.log).toEqual(['info the last session s-7 is not in the archive; the chat starts a new one']);
    expect(gone.controller.currentSessionId).toBe('s-1');

    const same = scriptedChat();
    same.knobs.last = { sessionId: 's-1' };
    expect(same.controller.restoreLast(() => view)).toBe('none');

    // A turn just sent (its session not yet opening), then the session it left open.
    const running = scriptedChat();
    running.knobs.last = { sessionId: 's-7' };
    running.controller.handle({ type: 'chat/send', requestId: 'r1', text: 'x' });
    expect(running.controller.restoreLast(() => view)).toBe('none');
    await until('idle', () => running.of('chat/idle').length === 1);
    await until('not busy', () => running.controller.busyWith === undefined);
    expect(running.controller.restoreLast(() => view)).toBe('none');
    expect(running.controller.currentSessionId).toBe('s-1');
    expect(running.of('session/started')).toEqual([]);
  });
});

describe('ChatController: Condense Now', () => {
  it('prices a condense event at the condensing model, adds it to the session cost, shows progress, then the meter', async () => {
    const chat = scriptedChat();
    chat.controller.handle({ type: 'chat/send', requestId: 'r1', text: 'hi' });
    await until('idle', () => chat.of('chat/idle').length === 1);
    const warning: EngineEvent = { type: 'warning', turn: 3, message: 'w' };
    chat.knobs.condense = async () => [condensed, warning];
    const from = chat.sent.length;
    expect(await chat.controller.condenseNow(new AbortController().signal)).toEqual({ kind: 'done', events: [condensed, warning] });
    expect(chat.sent.slice(from)).toEqual([
      { type: 'condense/running', running: true },
      { type: 'chat/engineEvent', requestId: 'condense-1', event: condensed, usd: expect.closeTo(0.45, 9) }, // Sonnet 4.5: $3 and $15 a million tokens
      { type: 'chat/engineEvent', requestId: 'condense-1', event: warning },
      { type: 'usage/updated', usage: USAGE },
      { type: 'condense/running', running: false },
    ]);
    expect(chat.usages).toEqual([USAGE]);
    expect(chat.memory.at(-1)).toBe('addCost s-1 0.4500');
    expect(chat.rememberedUsage.get('s-1')).toBe(USAGE); // the meter after the condense, for a reload
    expect(chat.controller.busyWith).toBeUndefined();

    // A second one gets the next id; a cheaper condensing model prices lower.
    await chat.controller.newSession();
    chat.knobs.profile = { id: 'claude-sonnet-4-5', contextWindow: 200_000, condenseModel: 'claude-haiku-4' };
    chat.knobs.condense = async () => [condensed];
    chat.controller.handle({ type: 'chat/send', requestId: 'r2', text: 'hi' });
    await until('idle', () => chat.of('chat/idle').length === 2);
    await chat.controller.condenseNow(new AbortController().signal);
    expect(chat.of('chat/engineEvent').at(-1)).toEqual({ type: 'chat/engineEvent', requestId: 'condense-2', event: condensed, usd: expect.closeTo(0.15, 9) }); // Haiku 4: $1 and $5
  });

  it('is busy while it runs (a message is refused), and stops with the signal it was given or with New Session', async () => {
    const chat = scriptedChat();
    chat.controller.handle({ type: 'chat/send', requestId: 'r1', text: 'hi' });
    await until('idle', () => chat.of('chat/idle').length === 1);
    chat.knobs.condense = (signal) => new Promise((resolve) => signal.addEventListener('abort', () => resolve([]), { once: true }));
    const caller = new AbortController();
    const first = chat.controller.condenseNow(caller.signal);
    await until('condensing', () => chat.condenseSignals.length === 1);
    expect(chat.controller.busyWith).toBe('condense');
    expect(await chat.controller.condenseNow(new AbortController().signal)).toEqual({ kind: 'busy' });
    chat.controller.handle({ type: 'chat/send', requestId: 'r2', text: 'now?' });
    await until('refused', () => chat.of('chat/error').length === 1);
    expect(chat.of('chat/error')[0]).toMatchObject({ requestId: 'r2', code: 'task_busy' });
    caller.abort();
    expect(await first).toEqual({ kind: 'done', events: [] });
    expect(chat.controller.busyWith).toBeUndefined();

    const second = chat.controller.condenseNow(new AbortController().signal);
    await until('condensing', () => chat.condenseSignals.length === 2);
    expect(await chat.controller.newSession()).toBe('started');
    expect(chat.questions.map((q) => q.message)).toEqual(['Condense Now is running in the chat. Stop it and start a new session?']);
    expect(chat.condenseSignals[1]!.aborted).toBe(true);
    expect(await second).toEqual({ kind: 'done', events: [] });
  });

  it('an engine failure is an error row and a log line; a meter failure is logged', async () => {
    const chat = scriptedChat();
    chat.controller.handle({ type: 'chat/send', requestId: 'r1', text: 'hi' });
    await until('idle', () => chat.of('chat/idle').length === 1);
    chat.knobs.condense = async () => {
      throw new Error('no layout');
    };
    expect(await chat.controller.condenseNow(new AbortController().signal)).toEqual({ kind: 'done', events: [] });
    expect(chat.of('chat/error')).toEqual([
      { type: 'chat/error', requestId: 'condense-1', code: 'condense_failed', message: 'Condense Now failed in the engine (no layout). The conversation goes on; send a message to continue.' },
    ]);
    expect(chat.log.at(-1)).toBe('error condense now: no layout');
    expect(chat.of('usage/updated')).toEqual([]);
    expect(chat.of('condense/running').map((m) => m.running)).toEqual([true, false]);

    chat.knobs.condense = async () => [];
    chat.knobs.usageNow = async () => {
      throw new Error('meter gone');
    };
    await chat.controller.condenseNow(new AbortController().signal);
    expect(chat.log.at(-1)).toBe('warn the meter could not be updated after condensing: meter gone');
    expect(chat.usages).toEqual([]);
  });

  it('before any turn: nothing to condense, unless a resumed session with history is open to be condensed', async () => {
    const chat = scriptedChat();
    expect(await chat.controller.condenseNow(new AbortController().signal)).toEqual({ kind: 'no_session' });
    await chat.controller.resumeSession('s-5', { entries: [], omitted: 4 });
    expect(await chat.controller.condenseNow(new AbortController().signal)).toEqual({ kind: 'no_session' });
    expect(chat.opened).toEqual([]);
    await chat.controller.resumeSession('s-6', history);
    chat.knobs.condense = async () => [condensed];
    expect(await chat.controller.condenseNow(new AbortController().signal)).toEqual({ kind: 'done', events: [condensed] });
    expect(chat.opened).toEqual(['s-6']);
  });

  it('a resumed session that cannot open for it shows the error with its code and condenses nothing', async () => {
    const chat = scriptedChat();
    await chat.controller.resumeSession('s-6', history);
    chat.knobs.openFails = new StrataError('No API key.', 'no_api_key');
    expect(await chat.controller.condenseNow(new AbortController().signal)).toEqual({ kind: 'done', events: [] });
    chat.knobs.openFails = new Error('broken archive');
    await chat.controller.condenseNow(new AbortController().signal);
    expect(chat.of('chat/error')).toEqual([
      { type: 'chat/error', requestId: 'condense-1', code: 'no_api_key', message: 'No API key.' },
      { type: 'chat/error', requestId: 'condense-2', code: 'session_failed', message: 'broken archive' },
    ]);
    expect(chat.condenseSignals).toEqual([]);
    expect(chat.of('condense/running')).toEqual([]);
  });
});

describe('ChatController: settings and a reloaded webview', () => {
  it('before a session: the settings and the figures a session of that model would run with; after it opens, its own figures stay', async () => {
    const chat = scriptedChat();
    const settings = clampSettings((name) => (name === 'strata.model' ? 'claude-haiku-4' : undefined));
    chat.controller.pushSettings(settings, { autoCondensePercent: 70 });
    const planned = contextFigures(sessionEngineSettings(tableProfile('claude-haiku-4'), { autoCondensePercent: 70 }), 'settings');
    expect(chat.sent).toEqual([
      { type: 'settings/changed', engine: settings.engine, model: settings.model },
      { type: 'context/figures', figures: planned },
    ]);
    expect(planned.condensePercent).toBe(70);

    chat.controller.handle({ type: 'chat/send', requestId: 'r1', text: 'hi' });
    await until('idle', () => chat.of('chat/idle').length === 1);
    const session = contextFigures(chat.knobs.engineSettings, 'session');
    expect(chat.of('context/figures').at(-1)).toEqual({ type: 'context/figures', figures: session });
    chat.controller.pushSettings(settings, {});
    expect(chat.sent.at(-1)).toEqual({ type: 'settings/changed', engine: settings.engine, model: settings.model });
    expect(chat.of('context/figures')).toHaveLength(2);
  });

  it('a reloaded webview gets the session, the figures, the open approvals and the key source again', async () => {
    const chat = scriptedChat();
    chat.knobs.apiKey = 'environment';
    chat.controller.handle({ type: 'webview/ready' });
    await until('key status', () => chat.of('apiKey/status').length === 1);
    expect(chat.sent).toEqual([
      { type: 'session/started', sessionId: 's-1', cost: 0.25 },
      { type: 'apiKey/status', source: 'environment' },
    ]);

    chat.knobs.turn = async (emit, signal) => {
      await chat.approve({ tool: 'edit_file', input: {}, summary: 'edit' });
      await untilStopped(emit, signal);
    };
    chat.controller.handle({ type: 'chat/send', requestId: 'r1', text: 'edit' });
    await until('asked', () => chat.of('approval/request').length === 1);
    const from = chat.sent.length;
    chat.controller.handle({ type: 'webview/ready' });
    await until('key status', () => chat.of('apiKey/status').length === 2);
    expect(chat.sent.slice(from).map((m) => m.type)).toEqual(['session/started', 'context/figures', 'approval/request', 'apiKey/status']);
    expect(chat.sent[from + 2]).toEqual(chat.of('approval/request')[0]);
    await chat.controller.dispose();
  });
});
