import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AnthropicModelClient } from '../../src/adapters/anthropicModelClient';
import { openSqliteArchive } from '../../src/adapters/sqliteArchiveStore';
import { makeTempDir } from '../../src/adapters/tempFiles';
import { openTaskSession } from '../../src/host/openTaskSession';
import type { HostToWebview, UsageView } from '../../src/shared/webviewMessages';
import { ChatController, type ChatHost, type OpenedSession } from '../../src/extension/chatController';
import { openArchivedSession } from '../../src/extension/openArchivedSession';
import { RecordingModelClient } from '../../src/extension/recordingModelClient';
import { loadSession } from '../../src/extension/sessionExport';
import { sessionHistory } from '../../src/extension/sessionHistory';
import { faults, MessagesApiServer } from '../support/messagesApiServer';
import { textAnswer, toolAnswer } from '../support/messagesApiEvents';
import { STOP_AND_START_NEW, stopQuestion, type StopQuestion } from '../../src/extension/stopQuestion';

/**
 * The chat view's coordinator over the real Task loop, the real SDK and a local Messages API
 * server: everything the extension host does except the `vscode` calls (the host functions).
 */
const MODEL = 'claude-sonnet-4-5';

let server: MessagesApiServer;
let temp: { dir: string; remove: () => void };
let sent: HostToWebview[];
let usages: UsageView[];
let opens: number;
let openedIds: string[];
let archivedFor: string[];
let closes: number;
let autoWrites: boolean;
let failOpen: Error | undefined;
/** What the New Session modal answers, and the questions it was asked. */
let stopAnswer: boolean;
let stopQuestions: StopQuestion[];
let controller: ChatController;

function host(): ChatHost {
  let n = 0;
  return {
    send: (m) => sent.push(m),
    apiKeySource: async () => 'secretStorage',
    runCommand: () => {},
    newSessionId: () => `s-test-${++n}`,
    openSession: async (sessionId, approve): Promise<OpenedSession> => {
      opens += 1;
      openedIds.push(sessionId);
      if (failOpen) throw failOpen;
      const client = new RecordingModelClient(new AnthropicModelClient({ apiKey: 'sk-ant-test-key-0000', baseURL: server.url, maxRetries: 0 }));
      const session = await openTaskSession({
        workspaceRoot: join(temp.dir, 'ws'),
        archivePath: join(temp.dir, 'archive.sqlite'),
        sessionId,
        apiKey: 'sk-ant-test-key-0000',
        baseURL: server.url,
        model: MODEL,
        frontEnd: 'test',
        approve,
        logger: quiet,
        modelClient: client,
      });
      const close = session.close;
      return {
        session: { ...session, close: () => ((closes += 1), close()) },
        lastRequest: () => client.lastRequest,
      };
    },
    autoApprove: () => ({ writes: autoWrites, commands: false }),
    showUsage: (u) => usages.push(u),
    exchangeArchived: (id) => archivedFor.push(id),
    confirmStop: async (q) => (stopQuestions.push(q), stopAnswer),
    logger: quiet,
  };
}

const quiet = { info: () => {}, warn: () => {}, error: () => {} };

async function until(what: string, condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; sent: ${sent.map((m) => m.type).join(', ')}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

function of<T extends HostToWebview['type']>(type: T): Array<Extract<HostToWebview, { type: T }>> {
  return sent.filter((m): m is Extract<HostToWebview, { type: T }> => m.type === type);
}

const idleFor = (requestId: string) => () => of('chat/idle').some((m) => m.requestId === requestId);

function body(i: number): { system: unknown[]; tools: Array<{ name: string }>; messages: Array<{ role: string; content: Array<{ type: string; text?: string }> }> } {
  return server.messageRequests[i]!.body as ReturnType<typeof body>;
}

beforeEach(async () => {
  server = await MessagesApiServer.start({ models: [{ id: MODEL, max_input_tokens: 200_000, max_tokens: 64_000 }] });
  temp = makeTempDir('strata-chat-');
  mkdirSync(join(temp.dir, 'ws'), { recursive: true });
  writeFileSync(join(temp.dir, 'ws', 'hello.ts'), 'export const hello = "world";\n');
  sent = [];
  usages = [];
  opens = 0;
  openedIds = [];
  archivedFor = [];
  closes = 0;
  autoWrites = false;
  failOpen = undefined;
  stopAnswer = true;
  stopQuestions = [];
  controller = new ChatController(host());
});

afterEach(async () => {
  await controller.dispose();
  await server.close();
  temp.remove();
});

describe('ChatController over the Task loop', () => {
  it('streams an answer as deltas, then turn done (usage, cost, cache rate) and idle; one session serves both messages', async () => {
    server.enqueue(textAnswer('hello.ts exports the constant hello.', { input_tokens: 100, cache_read_input_tokens: 300, output_tokens: 9 }), textAnswer('Second answer.'));
    controller.handle({ type: 'chat/send', requestId: 'r1', text: 'What does hello.ts export?' });
    await until('idle r1', idleFor('r1'));
    const deltas = of('chat/textDelta').filter((m) => m.requestId === 'r1');
    expect(deltas.length).toBeGreaterThan(1); // streamed in pieces, not one block
    expect(deltas.map((m) => m.text).join('')).toBe('hello.ts exports the constant hello.');
    const done = of('chat/turnDone')[0]!;
    expect(done.cacheHitRate).toBeCloseTo(0.75, 5);
    expect(done.cost).toBeGreaterThan(0);
    expect(done.usage.used).toBeGreaterThan(0);
    expect(usages).toEqual([done.usage]);
    expect(of('chat/idle')).toEqual([{ type: 'chat/idle', requestId: 'r1', reason: 'answered' }]);
    expect(JSON.stringify(body(0).messages.at(-1))).toContain('What does hello.ts export?');

    controller.handle({ type: 'chat/send', requestId: 'r2', text: 'And then?' });
    await until('idle r2', idleFor('r2'));
    expect(of('chat/textDelta').filter((m) => m.requestId === 'r2').map((m) => m.text).join('')).toBe('Second answer.');
    expect(opens).toBe(1);
    // "Show Last Request" holds exactly what the server received.
    const last = controller.lastRequest()!.body;
    expect(JSON.stringify({ system: last.system, messages: last.messages, tools: last.tools })).toBe(JSON.stringify({ system: body(1).system, messages: body(1).messages, tools: body(1).tools }));
  });

  it('asks before an edit; Approve applies it and the tool row gets its result', async () => {
    server.enqueue(toolAnswer('edit_file', { path: 'hello.ts', edits: [{ search: '"world"', replace: '"strata"' }] }), textAnswer('Done.'));
    controller.handle({ type: 'chat/send', requestId: 'r1', text: 'Greet strata instead' });
    await until('approval request', () => of('approval/request').length === 1);
    const ask = of('approval/request')[0]!;
    expect(ask).toMatchObject({ turnRequestId: 'r1', tool: 'edit_file', summary: 'edit hello.ts (1 block)' });
    expect(readFileSync(join(temp.dir, 'ws', 'hello.ts'), 'utf8')).toContain('"world"'); // nothing written before the answer
    expect(of('chat/toolCall').map((m) => m.name)).toEqual(['edit_file']);
    controller.handle({ type: 'approval/respond', requestId: ask.requestId, approved: true });
    await until('idle', idleFor('r1'));
    expect(readFileSync(join(temp.dir, 'ws', 'hello.ts'), 'utf8')).toBe('export const hello = "strata";\n');
    expect(of('approval/settled')).toEqual([{ type: 'approval/settled', requestId: ask.requestId, approved: true }]);
    expect(of('chat/toolResult')[0]).toMatchObject({ toolUseId: of('chat/toolCall')[0]!.toolUseId, isError: false });
  });

  it("Reject sends the user's words to the model and writes nothing; with auto-approve on, nothing is asked", async () => {
    server.enqueue(toolAnswer('edit_file', { path: 'hello.ts', edits: [{ search: '"world"', replace: '"x"' }] }), textAnswer('Understood.'));
    controller.handle({ type: 'chat/send', requestId: 'r1', text: 'Change it' });
    await until('approval request', () => of('approval/request').length === 1);
    controller.handle({ type: 'approval/respond', requestId: of('approval/request')[0]!.requestId, approved: false, feedback: 'keep world' });
    await until('idle r1', idleFor('r1'));
    expect(readFileSync(join(temp.dir, 'ws', 'hello.ts'), 'utf8')).toContain('"world"');
    expect(JSON.stringify(body(1).messages.at(-1))).toContain('keep world');

    autoWrites = true;
    server.enqueue(toolAnswer('edit_file', { path: 'hello.ts', edits: [{ search: '"world"', replace: '"auto"' }] }), textAnswer('Done.'));
    controller.handle({ type: 'chat/send', requestId: 'r2', text: 'Change it anyway' });
    await until('idle r2', idleFor('r2'));
    expect(of('approval/request')).toHaveLength(1);
    expect(readFileSync(join(temp.dir, 'ws', 'hello.ts'), 'utf8')).toContain('"auto"');
  });

  it('Stop while an approval waits refuses it and ends the turn as stopped; the session goes on', async () => {
    server.enqueue(toolAnswer('write_file', { path: 'b.ts', content: 'x' }), textAnswer('Next.'));
    controller.handle({ type: 'chat/send', requestId: 'r1', text: 'Write b.ts' });
    await until('approval request', () => of('approval/request').length === 1);
    controller.handle({ type: 'chat/stop', requestId: 'r1' });
    await until('idle r1', idleFor('r1'));
    expect(of('approval/settled')[0]).toMatchObject({ approved: false });
    expect(of('chat/idle')[0]).toMatchObject({ reason: 'stopped' });
    expect(() => readFileSync(join(temp.dir, 'ws', 'b.ts'))).toThrow();
    controller.handle({ type: 'chat/send', requestId: 'r2', text: 'go on' });
    await until('idle r2', idleFor('r2'));
    expect(of('chat/textDelta').filter((m) => m.requestId === 'r2').map((m) => m.text).join('')).toBe('Next.');
  });

  it('New session closes the open session and the next message opens another with the new id', async () => {
    server.enqueue(textAnswer('One.'), textAnswer('Two.'));
    controller.handle({ type: 'chat/send', requestId: 'r1', text: 'first' });
    await until('idle r1', idleFor('r1'));
    const before = controller.currentSessionId;
    controller.handle({ type: 'session/new', requestId: 'n1' });
    await until('session started', () => of('session/started').some((m) => m.requestId === 'n1'));
    expect(closes).toBe(1);
    expect(controller.currentSessionId).not.toBe(before);
    expect(controller.lastRequest()).toBeUndefined();
    controller.handle({ type: 'chat/send', requestId: 'r2', text: 'second' });
    await until('idle r2', idleFor('r2'));
    expect(opens).toBe(2);
    // (said first so that a failed turn shows its error rather than a missing request)
    expect(of('chat/error')).toEqual([]);
    expect(of('chat/idle').at(-1)).toMatchObject({ requestId: 'r2', reason: 'answered' });
    // The new session starts empty: its request holds no trace of the first one.
    expect(JSON.stringify(body(1).messages)).not.toContain('first');
  });

  it('a session that cannot open shows its message and frees the input; the next message tries again', async () => {
    failOpen = new Error('The chat cannot start: the archive could not be opened (NODE_MODULE_VERSION 115).');
    controller.handle({ type: 'chat/send', requestId: 'r1', text: 'hi' });
    await until('idle r1', idleFor('r1'));
    expect(of('chat/error')[0]).toMatchObject({ requestId: 'r1', message: expect.stringContaining('NODE_MODULE_VERSION') });
    failOpen = undefined;
    server.enqueue(textAnswer('Now it works.'));
    controller.handle({ type: 'chat/send', requestId: 'r2', text: 'hi again' });
    await until('idle r2', idleFor('r2'));
    expect(opens).toBe(2);
    expect(of('chat/idle').at(-1)).toMatchObject({ requestId: 'r2', reason: 'answered' });
  });

  it('Condense Now: nothing before a session; after three exchanges a condense event row, from a real summarizer call', async () => {
    expect(await controller.condenseNow(new AbortController().signal)).toEqual({ kind: 'no_session' });
    // The first answer is long enough that a one-line summary of it makes the whole prompt smaller
    // (otherwise the engine discards the summary: chatController shows that as an error row).
    server.enqueue(textAnswer(`One, a long answer. ${'It explains the parser in detail. '.repeat(150)}`), textAnswer('Two.'), textAnswer('Three.'));
    for (const id of ['r1', 'r2', 'r3']) {
      controller.handle({ type: 'chat/send', requestId: id, text: `message ${id} with some words in it` });
      await until(`idle ${id}`, idleFor(id));
    }
    server.enqueue(textAnswer('Summary: one.'));
    const outcome = await controller.condenseNow(new AbortController().signal);
    expect(outcome.kind).toBe('done');
    // The summarizer call went out with the oldest exchange, through the recorded client.
    expect(JSON.stringify(body(3).messages)).toContain('message r1');
    expect(controller.lastRequest()!.body.messages).toEqual(body(3).messages);
    // One row for the outcome: the condense event, the prompt smaller after it.
    const rows = [...of('chat/engineEvent'), ...of('chat/error')].filter((m) => m.requestId.startsWith('condense-'));
    expect(rows).toHaveLength(1);
    const row = rows[0]!;
    expect(row.type).toBe('chat/engineEvent');
    if (row.type === 'chat/engineEvent') {
      expect(row.event).toMatchObject({ type: 'condense_context', tokensBefore: expect.any(Number), tokensAfter: expect.any(Number) });
      if (row.event.type === 'condense_context') expect(row.event.tokensAfter).toBeLessThan(row.event.tokensBefore);
    }
    // The session goes on after it.
    server.enqueue(textAnswer('Four.'));
    controller.handle({ type: 'chat/send', requestId: 'r4', text: 'and now' });
    await until('idle r4', idleFor('r4'));
    expect(of('chat/idle').at(-1)).toMatchObject({ requestId: 'r4', reason: 'answered' });
  });

  it('refuses a second message while one runs', async () => {
    server.enqueue(toolAnswer('write_file', { path: 'b.ts', content: 'x' }), textAnswer('ok'));
    controller.handle({ type: 'chat/send', requestId: 'r1', text: 'Write b.ts' });
    await until('approval request', () => of('approval/request').length === 1);
    controller.handle({ type: 'chat/send', requestId: 'r2', text: 'another' });
    await until('idle r2', idleFor('r2'));
    expect(of('chat/error')).toEqual([expect.objectContaining({ requestId: 'r2', code: 'task_busy' })]);
    expect(await controller.condenseNow(new AbortController().signal)).toEqual({ kind: 'busy' });
    controller.handle({ type: 'approval/respond', requestId: of('approval/request')[0]!.requestId, approved: true });
    await until('idle r1', idleFor('r1'));
    expect(readFileSync(join(temp.dir, 'ws', 'b.ts'), 'utf8')).toBe('x');
  });

  it('Open Session resumes an archived session: its history is shown (again after a reload) and the next message continues it', async () => {
    server.enqueue(toolAnswer('read_file', { path: 'hello.ts' }), textAnswer('It exports hello.'), textAnswer('Two.'), textAnswer('Three.'));
    controller.handle({ type: 'chat/send', requestId: 'r1', text: 'What does hello.ts export?' });
    await until('idle r1', idleFor('r1'));
    const first = controller.currentSessionId;
    expect(archivedFor).toEqual([first, first]); // one notice per archived exchange: the tool round and the answer
    controller.handle({ type: 'chat/send', requestId: 'r2', text: 'Thanks' });
    await until('idle r2', idleFor('r2'));
    await controller.newSession();
    expect(controller.currentSessionId).not.toBe(first);

    const archive = openSqliteArchive(join(temp.dir, 'archive.sqlite'));
    const history = sessionHistory(loadSession(archive, first));
    archive.close();
    await controller.resumeSession(first, history);
    expect(controller.currentSessionId).toBe(first);
    const expected = [
      { role: 'user', text: 'What does hello.ts export?', seq: 1 },
      { role: 'assistant', text: 'It exports hello.', seq: 2 },
      { role: 'user', text: 'Thanks', seq: 3 },
      { role: 'assistant', text: 'Two.', seq: 3 },
    ];
    expect(of('session/started').at(-1)).toEqual({ type: 'session/started', sessionId: first, history: expected, omitted: 0 });
    controller.handle({ type: 'webview/ready' });
    expect(of('session/started').at(-1)).toMatchObject({ sessionId: first, history: expected });

    controller.handle({ type: 'chat/send', requestId: 'r3', text: 'And now?' });
    await until('idle r3', idleFor('r3'));
    expect(openedIds).toEqual([first, first]); // reopened under its own id: openTaskSession resumes it
    const reopened = openSqliteArchive(join(temp.dir, 'archive.sqlite'));
    expect(reopened.lastSeq(first)).toBe(4); // ids continue after the three archived exchanges
    reopened.close();
    // A new session after it starts with no history.
    await controller.newSession();
    expect(of('session/started').at(-1)).not.toHaveProperty('history');
  });

  it('shows the usage of a request in the status bar and the meter while its answer streams, before the turn ends', async () => {
    server.enqueue(textAnswer('First.'), faults.stall(textAnswer('Second answer words, then a stall'), 5_000, 4));
    controller.handle({ type: 'chat/send', requestId: 'r1', text: 'first question' });
    await until('idle r1', idleFor('r1'));
    expect(usages).toEqual([of('chat/turnDone')[0]!.usage]);

    controller.handle({ type: 'chat/send', requestId: 'r2', text: 'second question' });
    await until('r2 streaming', () => of('chat/textDelta').some((m) => m.requestId === 'r2'));
    expect(of('chat/turnDone').filter((m) => m.requestId === 'r2')).toEqual([]);
    const request = of('chat/requestSent').filter((m) => m.requestId === 'r2');
    expect(request).toHaveLength(1);
    expect(usages).toEqual([of('chat/turnDone')[0]!.usage, request[0]!.usage]);
    expect(request[0]!.usage.used).toBeGreaterThan(usages[0]!.used); // the first exchange is in the second prompt
    const r2 = sent.filter((m) => 'requestId' in m && m.requestId === 'r2').map((m) => m.type);
    expect(r2.indexOf('chat/requestSent')).toBeLessThan(r2.indexOf('chat/textDelta'));

    controller.handle({ type: 'chat/stop', requestId: 'r2' });
    await until('idle r2', idleFor('r2'));
  });

  it('Open Session while a turn runs asks first: Cancel lets the turn finish in its session; "Stop and open" stops it, its partial answer archived, then switches', async () => {
    server.enqueue(
      textAnswer('Old answer.'),
      faults.stall(textAnswer('Kept answer words, then the rest'), 300, 4),
      faults.stall(textAnswer('Partial answer words, then a stall'), 5_000, 4),
    );
    controller.handle({ type: 'chat/send', requestId: 'r1', text: 'old question' });
    await until('idle r1', idleFor('r1'));
    const old = controller.currentSessionId;
    await controller.newSession();
    const busy = controller.currentSessionId;
    const questions: string[] = [];
    const open = (answer: boolean) =>
      openArchivedSession(controller, { id: old, title: 'old question' }, {
        history: () => ({ entries: [], omitted: 0 }),
        confirmStop: async (q) => (questions.push(q.message), answer),
      });

    controller.handle({ type: 'chat/send', requestId: 'r2', text: 'keep working' });
    await until('r2 streaming', () => of('chat/textDelta').some((m) => m.requestId === 'r2'));
    expect(controller.busyWith).toBe('turn');
    expect(await open(false)).toBe('cancelled');
    await until('idle r2', idleFor('r2'));
    expect(of('chat/idle').find((m) => m.requestId === 'r2')).toMatchObject({ reason: 'answered' });
    expect(controller.currentSessionId).toBe(busy);
    expect(controller.busyWith).toBeUndefined();

    controller.handle({ type: 'chat/send', requestId: 'r3', text: 'stop me' });
    await until('r3 streaming', () => of('chat/textDelta').some((m) => m.requestId === 'r3'));
    expect(await open(true)).toBe('opened');
    expect(questions).toHaveLength(2);
    expect(of('chat/idle').find((m) => m.requestId === 'r3')).toMatchObject({ reason: 'stopped' });
    expect(controller.currentSessionId).toBe(old);
    // Nothing lost: both turns of the busy session are archived, the stopped one with what had streamed.
    const archive = openSqliteArchive(join(temp.dir, 'archive.sqlite'));
    const texts = loadSession(archive, busy).map((e) => JSON.stringify(e.full));
    archive.close();
    expect(texts.join('\n')).toContain('Kept answer words, then the rest');
    expect(texts.at(-1)).toContain('stop me');
    const streamed = of('chat/textDelta').filter((m) => m.requestId === 'r3').map((m) => m.text).join('');
    expect(streamed.length).toBeGreaterThan(0);
    expect(texts.at(-1)).toContain(streamed);
    expect(texts.at(-1)).toContain('[stopped by the user]');
  });

  it('New Session while a turn runs asks first: Cancel leaves the turn and the chat as they are; "Stop and start new" stops it, its partial answer archived', async () => {
    server.enqueue(faults.stall(textAnswer('Kept answer words, then the rest'), 300, 4), faults.stall(textAnswer('Partial answer words, then a stall'), 5_000, 4));
    await controller.newSession();
    expect(stopQuestions).toEqual([]); // idle: nothing to ask
    const busy = controller.currentSessionId;
    const started = () => of('session/started').filter((m) => m.requestId === 'n1').length;

    controller.handle({ type: 'chat/send', requestId: 'r1', text: 'keep working' });
    await until('r1 streaming', () => of('chat/textDelta').some((m) => m.requestId === 'r1'));
    stopAnswer = false;
    expect(await controller.newSession('n1')).toBe('cancelled');
    expect(stopQuestions.map((q) => [q.message, q.confirm])).toEqual([['A turn is running in the chat. Stop it and start a new session?', STOP_AND_START_NEW]]);
    expect(started()).toBe(0); // the webview keeps its list
    await until('idle r1', idleFor('r1'));
    expect(of('chat/idle').find((m) => m.requestId === 'r1')).toMatchObject({ reason: 'answered' });
    expect(controller.currentSessionId).toBe(busy);

    controller.handle({ type: 'chat/send', requestId: 'r2', text: 'stop me' });
    await until('r2 streaming', () => of('chat/textDelta').some((m) => m.requestId === 'r2'));
    stopAnswer = true;
    expect(await controller.newSession('n1')).toBe('started');
    expect(stopQuestions).toHaveLength(2);
    expect(of('chat/idle').find((m) => m.requestId === 'r2')).toMatchObject({ reason: 'stopped' });
    expect(started()).toBe(1);
    expect(controller.currentSessionId).not.toBe(busy);
    const archive = openSqliteArchive(join(temp.dir, 'archive.sqlite'));
    const texts = loadSession(archive, busy).map((e) => JSON.stringify(e.full));
    archive.close();
    expect(texts.join('\n')).toContain('Kept answer words, then the rest');
    const streamed = of('chat/textDelta').filter((m) => m.requestId === 'r2').map((m) => m.text).join('');
    expect(streamed.length).toBeGreaterThan(0);
    expect(texts.at(-1)).toContain(streamed);
  });

  it('New Session while Condense Now runs names the condense in its question', () => {
    expect(stopQuestion('condense', { kind: 'new' })).toEqual({
      message: 'Condense Now is running in the chat. Stop it and start a new session?',
      detail: 'Stopping leaves the current session as it was before the condense; nothing archived is lost. Cancel lets the condense finish.',
      confirm: STOP_AND_START_NEW,
    });
  });

  it('chat/resend stops the running turn, then resends from the edited message; the webview learns ids and what was superseded', async () => {
    server.enqueue(textAnswer('First.'), faults.stall(textAnswer('Second answer words, then a stall'), 5_000, 4), textAnswer('Edited answer.'));
    controller.handle({ type: 'chat/send', requestId: 'r1', text: 'first question' });
    await until('idle r1', idleFor('r1'));
    controller.handle({ type: 'chat/send', requestId: 'r2', text: 'second question' });
    await until('r2 streaming', () => of('chat/textDelta').some((m) => m.requestId === 'r2'));
    controller.handle({ type: 'chat/resend', requestId: 'r3', seq: 2, text: 'second question, edited' });
    await until('idle r3', idleFor('r3'));
    expect(of('chat/userMessage')).toEqual([
      { type: 'chat/userMessage', requestId: 'r1', seq: 1 },
      { type: 'chat/userMessage', requestId: 'r2', seq: 2 },
      { type: 'chat/userMessage', requestId: 'r3', seq: 3 },
    ]);
    expect(of('chat/resent')).toEqual([{ type: 'chat/resent', requestId: 'r3', from: 2, by: 3, superseded: [2] }]);
    expect(of('chat/idle').map((m) => [m.requestId, m.reason])).toEqual([['r1', 'answered'], ['r2', 'stopped'], ['r3', 'answered']]);
    const last = JSON.stringify(body(server.messageRequests.length - 1).messages);
    expect(last).toContain('second question, edited');
    expect(last).not.toMatch(/second question"|Second answer/);
  });
});
