import { describe, expect, it } from 'vitest';
import { StrataError } from '../../src/shared/strataError';
import type { TaskEvent } from '../../src/task/taskEvents';
import { deferred, scriptedChat, until, untilStopped, USAGE, turnWaitingForApproval } from '../support/scriptedChat';

/**
 * ChatController's turns over a scripted Task session (test/support/scriptedChat.ts): what the
 * webview, the status bar, the archive tree and the session memory are told for each outcome of
 * a turn. chatController.test.ts runs the same controller over the real Task loop.
 */

const report = {
  turn: 1,
  mode: 'full' as const,
  promptTokens: 1_000,
  budget: 30_000,
  layers: USAGE,
  usage: { inputTokens: 900, cacheWriteTokens: 0, cacheReadTokens: 100, outputTokens: 20 },
  cost: { inputUsd: 0.002, cacheWriteUsd: 0, cacheReadUsd: 0.0001, outputUsd: 0.0003, totalUsd: 0.0024, priced: true },
  cacheHitRate: 0.1,
  engineMs: 1,
  modelMs: 5,
  housekeeping: 'not_asked' as const,
};

/** The answered turn's figures: the API's count corrects the request's estimate. */
const ANSWERED = { ...USAGE, used: USAGE.used + 19 };

const idleOf = (chat: ReturnType<typeof scriptedChat>, requestId: string) => () => chat.of('chat/idle').some((m) => m.requestId === requestId);

describe('ChatController turns', () => {
  it('sends each Task event as its webview message; the request shows in the status bar, an exchange refreshes the archive tree, the cost is remembered', async () => {
    const chat = scriptedChat();
    const events: TaskEvent[] = [
      { type: 'user_message', turn: 1, text: 'hi' },
      { type: 'request', turn: 1, layers: USAGE },
      { type: 'text', turn: 1, text: 'Hello.' },
      { type: 'exchange', turn: 1, input: { role: 'user', content: [] }, output: { role: 'assistant', content: [] }, estimatedTokens: 1, reportedTokens: 1 },
      { type: 'turn_done', report: { ...report, layers: ANSWERED } },
      { type: 'idle', reason: 'answered' },
    ];
    chat.knobs.turn = async (emit) => events.forEach(emit);
    chat.controller.handle({ type: 'chat/send', requestId: 'r1', text: 'hi' });
    await until('idle', idleOf(chat, 'r1'));
    expect(chat.sent.map((m) => m.type)).toEqual(['context/figures', 'chat/userMessage', 'chat/requestSent', 'chat/textDelta', 'chat/turnDone', 'chat/idle']);
    expect(chat.of('chat/idle')).toEqual([{ type: 'chat/idle', requestId: 'r1', reason: 'answered' }]); // the Task's own idle, not a second one
    expect(chat.usages).toEqual([USAGE]);
    expect(chat.archived).toEqual(['s-1']);
    expect(chat.calls).toEqual([{ sessionId: 's-1', kind: 'send', text: 'hi' }]);
    // Marked running with its message while it runs, then unmarked; the turn's dollars added.
    expect(chat.memory).toEqual(['remember s-1 hi', 'addCost s-1 0.0024', 'remember s-1']);
    // what the meter showed last (the answered turn's figures), for a reload to show again
    expect(chat.rememberedUsage.get('s-1')).toBe(ANSWERED);
    expect(chat.log).toEqual(['info session s-1 opened (claude-sonnet-4-5, 200000-token window)']);
  });

  it("remembers a request's figures when its turn ends without an answer (what the meter shows then)", async () => {
    const chat = scriptedChat();
    chat.knobs.turn = async (emit) => {
      emit({ type: 'request', turn: 1, layers: USAGE });
      emit({ type: 'idle', reason: 'failed' });
    };
    chat.controller.handle({ type: 'chat/send', requestId: 'r1', text: 'hi' });
    await until('idle', idleOf(chat, 'r1'));
    expect(chat.rememberedUsage.get('s-1')).toBe(USAGE);
  });

  it('ends a turn the Task left without an idle as failed, and events after it reach no one', async () => {
    const chat = scriptedChat();
    let late: ((event: TaskEvent) => void) | undefined;
    chat.knobs.turn = async (emit) => {
      emit({ type: 'text', turn: 1, text: 'partial' });
      late = emit;
    };
    chat.controller.handle({ type: 'chat/send', requestId: 'r1', text: 'hi' });
    await until('idle', idleOf(chat, 'r1'));
    expect(chat.of('chat/idle')).toEqual([{ type: 'chat/idle', requestId: 'r1', reason: 'failed' }]);
    const count = chat.sent.length;
    late!({ type: 'text', turn: 1, text: 'after the turn' });
    expect(chat.sent).toHaveLength(count); // unsubscribed when the call returned
  });

  it('without an API key says how to set one and frees the input; no session is opened', async () => {
    const chat = scriptedChat();
    chat.knobs.apiKey = 'none';
    chat.controller.handle({ type: 'chat/send', requestId: 'r1', text: 'hi' });
    await until('idle', idleOf(chat, 'r1'));
    expect(chat.sent).toEqual([
      { type: 'chat/error', requestId: 'r1', code: 'no_api_key', message: 'No API key: run "Strata: Set API Key" or set ANTHROPIC_API_KEY, then send again.' },
      { type: 'chat/idle', requestId: 'r1', reason: 'failed' },
    ]);
    expect(chat.opened).toEqual([]);
  });

  it("a session that cannot open shows the error's code (session_failed for a plain error) and is opened again next time", async () => {
    const chat = scriptedChat();
    chat.knobs.openFails = new StrataError('No workspace folder is open.', 'no_workspace');
    chat.controller.handle({ type: 'chat/send', requestId: 'r1', text: 'hi' });
    await until('idle r1', idleOf(chat, 'r1'));
    chat.knobs.openFails = new Error('disk full');
    chat.controller.handle({ type: 'chat/send', requestId: 'r2', text: 'hi' });
    await until('idle r2', idleOf(chat, 'r2'));
    expect(chat.of('chat/error')).toEqual([
      { type: 'chat/error', requestId: 'r1', code: 'no_workspace', message: 'No workspace folder is open.' },
      { type: 'chat/error', requestId: 'r2', code: 'session_failed', message: 'disk full' },
    ]);
    expect(chat.of('chat/idle').map((m) => m.reason)).toEqual(['failed', 'failed']);
    expect(chat.log).toEqual(['error turn r1: No workspace folder is open.', 'error turn r2: disk full']);
    chat.knobs.openFails = undefined;
    chat.controller.handle({ type: 'chat/send', requestId: 'r3', text: 'hi' });
    await until('idle r3', idleOf(chat, 'r3'));
    expect(chat.opened).toEqual(['s-1', 's-1', 's-1']);
    expect(chat.calls).toHaveLength(1);
  });

  it('a Task call that throws shows its error and ends the turn', async () => {
    const chat = scriptedChat();
    chat.knobs.turn = async () => {
      throw 'not an Error';
    };
    chat.controller.handle({ type: 'chat/send', requestId: 'r1', text: 'hi' });
    await until('idle', idleOf(chat, 'r1'));
    expect(chat.of('chat/error')).toEqual([{ type: 'chat/error', requestId: 'r1', code: 'session_failed', message: 'not an Error' }]);
    expect(chat.of('chat/idle')).toEqual([{ type: 'chat/idle', requestId: 'r1', reason: 'failed' }]);
  });

  it('Stop names its turn: another id stops nothing; stopped while the session opens, the message is never sent', async () => {
    const chat = scriptedChat();
    const gate = deferred();
    chat.knobs.openGate = gate.promise;
    chat.controller.handle({ type: 'chat/send', requestId: 'r1', text: 'hi' });
    await until('opening', () => chat.opened.length === 1);
    chat.controller.handle({ type: 'chat/stop', requestId: 'r0' });
    expect(chat.controller.busyWith).toBe('turn');
    chat.controller.handle({ type: 'chat/stop', requestId: 'r1' });
    gate.resolve();
    await until('idle', idleOf(chat, 'r1'));
    expect(chat.of('chat/idle')).toEqual([{ type: 'chat/idle', requestId: 'r1', reason: 'stopped' }]);
    expect(chat.calls).toEqual([]);
    expect(chat.controller.busyWith).toBeUndefined();
  });

  it('Stop of another turn leaves the running one to answer; Stop when idle does nothing', async () => {
    const chat = scriptedChat();
    expect(() => chat.controller.handle({ type: 'chat/stop', requestId: 'r0' })).not.toThrow();
    const answer = deferred();
    chat.knobs.turn = async (emit, signal) => {
      await answer.promise;
      emit({ type: 'idle', reason: signal.aborted ? 'stopped' : 'answered' });
    };
    chat.controller.handle({ type: 'chat/send', requestId: 'r1', text: 'hi' });
    await until('running', () => chat.calls.length === 1);
    chat.controller.handle({ type: 'chat/stop', requestId: 'r0' });
    answer.resolve();
    await until('idle', idleOf(chat, 'r1'));
    expect(chat.of('chat/idle')).toEqual([{ type: 'chat/idle', requestId: 'r1', reason: 'answered' }]);
  });

  it('an approval answered in time settles it, with nothing logged', async () => {
    const chat = scriptedChat();
    const decisions: unknown[] = [];
    chat.knobs.turn = async (emit) => {
      decisions.push(await chat.approve({ tool: 'edit_file', input: { path: 'a.ts' }, summary: 'edit a.ts' }));
      emit({ type: 'idle', reason: 'answered' });
    };
    chat.controller.handle({ type: 'chat/send', requestId: 'r1', text: 'edit' });
    await until('asked', () => chat.of('approval/request').length === 1);
    chat.controller.handle({ type: 'approval/respond', requestId: chat.of('approval/request')[0]!.requestId, approved: true });
    await until('idle', idleOf(chat, 'r1'));
    expect(decisions).toEqual([{ approved: true }]);
    expect(chat.log.filter((line) => line.startsWith('warn'))).toEqual([]);
  });

  it('closing the editor refuses an open approval as closing; closing when idle closes the session only', async () => {
    const chat = scriptedChat();
    const { decisions } = await turnWaitingForApproval(chat, 'edit');
    await chat.controller.dispose();
    expect(decisions).toEqual([{ approved: false, feedback: 'The editor is closing.' }]);

    const idle = scriptedChat();
    idle.controller.handle({ type: 'chat/send', requestId: 'r1', text: 'hi' });
    await until('idle', idleOf(idle, 'r1'));
    await until('not busy', () => idle.controller.busyWith === undefined);
    await idle.controller.dispose();
    expect(idle.closed).toEqual(['s-1']);
  });

  it('edit and resend when nothing runs resends at once', async () => {
    const chat = scriptedChat();
    chat.controller.handle({ type: 'chat/resend', requestId: 'r2', seq: 1, text: 'edited' });
    await until('idle', idleOf(chat, 'r2'));
    expect(chat.calls).toEqual([{ sessionId: 's-1', kind: 'resend', text: 'edited', seq: 1 }]);
  });

  it('a host without session memory or archive hook runs turns, condenses, resumes and restores all the same', async () => {
    const chat = scriptedChat({ memory: false, archiveHook: false });
    expect(chat.controller.restoreLast(() => ({ title: 't', history: { entries: [], omitted: 0 } }))).toBe('none');
    chat.knobs.turn = async (emit) => {
      emit({ type: 'exchange', turn: 1, input: { role: 'user', content: [] }, output: { role: 'assistant', content: [] }, estimatedTokens: 1, reportedTokens: 1 });
      emit({ type: 'turn_done', report });
      emit({ type: 'idle', reason: 'answered' });
    };
    chat.controller.handle({ type: 'chat/send', requestId: 'r1', text: 'hi' });
    await until('idle', idleOf(chat, 'r1'));
    chat.knobs.condense = async () => [{ type: 'condense_context', turn: 1, tokensBefore: 10, tokensAfter: 5, inputTokens: 100, outputTokens: 10, cost: 1 }];
    expect(await chat.controller.condenseNow(new AbortController().signal)).toMatchObject({ kind: 'done' });
    await chat.controller.resumeSession('s-9', { entries: [], omitted: 0 });
    expect(chat.of('chat/error')).toEqual([]);
    expect(chat.of('chat/idle')).toEqual([{ type: 'chat/idle', requestId: 'r1', reason: 'answered' }]);
    expect(chat.of('chat/engineEvent')).toHaveLength(1);
    expect(chat.of('session/started')).toEqual([{ type: 'session/started', sessionId: 's-9', history: [], omitted: 0 }]);
    expect(chat.log.filter((line) => !line.startsWith('info'))).toEqual([]);
  });

  it('New Session from the webview echoes its request id; with no session open nothing is closed or logged as failing', async () => {
    const chat = scriptedChat();
    chat.controller.handle({ type: 'session/new', requestId: 'n1' });
    await until('started', () => chat.of('session/started').length === 1);
    expect(chat.of('session/started')).toEqual([{ type: 'session/started', requestId: 'n1', sessionId: 's-2', cost: 0 }]);
    expect(chat.closed).toEqual([]);
    expect(chat.log).toEqual(['info session s-2 started']);
  });

  it('refuses a second message while a turn runs, and the first goes on', async () => {
    const chat = scriptedChat();
    chat.knobs.turn = untilStopped;
    chat.controller.handle({ type: 'chat/send', requestId: 'r1', text: 'one' });
    await until('running', () => chat.calls.length === 1);
    chat.controller.handle({ type: 'chat/send', requestId: 'r2', text: 'two' });
    await until('idle r2', idleOf(chat, 'r2'));
    expect(chat.of('chat/error')).toEqual([
      { type: 'chat/error', requestId: 'r2', code: 'task_busy', message: 'Strata is still busy with the previous message or a condense; stop it or wait, then send again.' },
    ]);
    expect(chat.of('chat/idle')).toEqual([{ type: 'chat/idle', requestId: 'r2', reason: 'failed' }]);
    expect(chat.controller.busyWith).toBe('turn');
    chat.controller.handle({ type: 'chat/stop', requestId: 'r1' });
    await until('not busy', () => chat.controller.busyWith === undefined);
    expect(chat.of('chat/idle').map((m) => [m.requestId, m.reason])).toEqual([['r2', 'failed'], ['r1', 'stopped']]);
    expect(chat.calls.map((c) => c.text)).toEqual(['one']);
  });

  it('approvals carry the running turn\'s id (none when idle); Stop refuses them with its reason', async () => {
    const chat = scriptedChat();
    const decisions: unknown[] = [];
    chat.knobs.turn = async (emit, signal) => {
      decisions.push(await chat.approve({ tool: 'edit_file', input: { path: 'a.ts' }, summary: 'edit a.ts' }));
      await untilStopped(emit, signal);
    };
    chat.controller.handle({ type: 'chat/send', requestId: 'r1', text: 'edit' });
    await until('asked', () => chat.of('approval/request').length === 1);
    expect(chat.of('approval/request')[0]).toMatchObject({ turnRequestId: 'r1', tool: 'edit_file' });
    expect(chat.controller.pendingApproval(chat.of('approval/request')[0]!.requestId)).toEqual({ tool: 'edit_file', input: { path: 'a.ts' } });
    chat.controller.handle({ type: 'chat/stop', requestId: 'r1' });
    await until('idle', idleOf(chat, 'r1'));
    expect(decisions).toEqual([{ approved: false, feedback: 'The user stopped the task.' }]);
    void chat.approve({ tool: 'edit_file', input: { path: 'b.ts' }, summary: 'edit b.ts' });
    expect(chat.of('approval/request').at(-1)).toMatchObject({ turnRequestId: 'none' });
  });

  it('an answer to an approval that is not open is logged, and command buttons run their command', () => {
    const chat = scriptedChat();
    chat.controller.handle({ type: 'approval/respond', requestId: 'a9', approved: true });
    chat.controller.handle({ type: 'command/run', command: 'strata.setApiKey' });
    expect(chat.log).toEqual(['warn approval a9 is not open (already settled or stopped)']);
    expect(chat.commands).toEqual(['strata.setApiKey']);
    expect(chat.sent).toEqual([]);
  });

  it('edit and resend stops the running turn (refusing its approval as edited), then resends from the seq', async () => {
    const chat = scriptedChat();
    const decisions: unknown[] = [];
    chat.knobs.turn = async (emit, signal) => {
      decisions.push(await chat.approve({ tool: 'write_file', input: { path: 'a.ts' }, summary: 'write a.ts' }));
      await untilStopped(emit, signal);
    };
    chat.controller.handle({ type: 'chat/send', requestId: 'r1', text: 'first' });
    await until('asked', () => chat.of('approval/request').length === 1);
    chat.knobs.turn = async (emit) => emit({ type: 'idle', reason: 'answered' });
    chat.controller.handle({ type: 'chat/resend', requestId: 'r2', seq: 4, text: 'first, edited' });
    await until('idle r2', idleOf(chat, 'r2'));
    expect(decisions).toEqual([{ approved: false, feedback: 'The user edited an earlier message and resent it.' }]);
    expect(chat.calls).toEqual([
      { sessionId: 's-1', kind: 'send', text: 'first' },
      { sessionId: 's-1', kind: 'resend', text: 'first, edited', seq: 4 },
    ]);
    expect(chat.of('chat/idle').map((m) => [m.requestId, m.reason])).toEqual([['r1', 'stopped'], ['r2', 'answered']]);
    expect(chat.of('chat/error')).toEqual([]);
  });

  it('a setting changed while the session opens or is open reopens it (same id) before the next turn; before any session it changes nothing', async () => {
    const chat = scriptedChat();
    chat.controller.invalidateSession();
    const gate = deferred();
    chat.knobs.openGate = gate.promise;
    chat.controller.handle({ type: 'chat/send', requestId: 'r1', text: 'one' });
    await until('opening', () => chat.opened.length === 1);
    chat.controller.invalidateSession(); // while it opens
    gate.resolve();
    await until('idle r1', idleOf(chat, 'r1'));
    expect(chat.closed).toEqual([]);
    chat.controller.handle({ type: 'chat/send', requestId: 'r2', text: 'two' });
    await until('idle r2', idleOf(chat, 'r2'));
    expect(chat.closed).toEqual(['s-1']);
    expect(chat.opened).toEqual(['s-1', 's-1']);
    chat.controller.handle({ type: 'chat/send', requestId: 'r3', text: 'three' });
    await until('idle r3', idleOf(chat, 'r3'));
    expect(chat.opened).toHaveLength(2); // not stale any more
    chat.controller.invalidateSession(); // open: reopened before the next turn
    chat.controller.handle({ type: 'chat/send', requestId: 'r4', text: 'four' });
    await until('idle r4', idleOf(chat, 'r4'));
    expect(chat.closed).toEqual(['s-1', 's-1']);
    expect(chat.opened).toHaveLength(3);
  });

  it('a session that fails to close is logged and the next one opens', async () => {
    const chat = scriptedChat();
    chat.controller.handle({ type: 'chat/send', requestId: 'r1', text: 'one' });
    await until('idle r1', idleOf(chat, 'r1'));
    chat.knobs.closeFails = new Error('locked');
    await chat.controller.newSession();
    expect(chat.log).toContain('warn closing session s-1: Error: locked');
    chat.controller.handle({ type: 'chat/send', requestId: 'r2', text: 'two' });
    await until('idle r2', idleOf(chat, 'r2'));
    expect(chat.opened).toEqual(['s-1', 's-2']);
    expect(chat.controller.lastRequest()).toEqual({ body: { sessionId: 's-2' }, at: 1 });
  });

  it('a turn the closing editor stops keeps its running mark (the next activation shows it interrupted)', async () => {
    const chat = scriptedChat();
    chat.knobs.turn = untilStopped;
    chat.controller.handle({ type: 'chat/send', requestId: 'r1', text: 'long job' });
    await until('running', () => chat.calls.length === 1);
    await chat.controller.dispose();
    expect(chat.of('chat/idle')).toEqual([{ type: 'chat/idle', requestId: 'r1', reason: 'stopped' }]);
    expect(chat.memory).toEqual(['remember s-1 long job']);
    expect(chat.closed).toEqual(['s-1']);
  });
});
