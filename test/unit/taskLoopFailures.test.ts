import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AnthropicModelClient } from '../../src/adapters/anthropicModelClient';
import { makeTempDir } from '../../src/adapters/tempFiles';
import { requestProblems } from '../../src/engine/requestValidity';
import type { TaskSession, TaskSessionOptions } from '../../src/host/openTaskSession';
import type { Message, MessagesRequest, ToolResultBlock } from '../../src/shared/messages';
import type { ModelClient } from '../../src/task/modelClient';
import type { TaskEvent } from '../../src/task/taskEvents';
import { faults, MessagesApiServer } from '../support/messagesApiServer';
import { lastUser, LIVE_TASK_MODEL, openLiveTask, requestBodies } from '../support/liveTask';
import { textAnswer, toolAnswer } from '../support/messagesApiEvents';

/** How a turn fails, stops or streams at its edges: every outcome archived, reported, and the next request valid. */
const MODEL = LIVE_TASK_MODEL;

let server: MessagesApiServer;
let temp: { dir: string; remove: () => void };
let session: TaskSession;
let events: TaskEvent[];

async function open(options: Partial<TaskSessionOptions> = {}): Promise<TaskSession> {
  return openLiveTask(server, temp.dir, (e) => events.push(e), options);
}

function bodies(): MessagesRequest[] {
  return requestBodies(server);
}

function results(message: Message): ToolResultBlock[] {
  return message.content.filter((b): b is ToolResultBlock => b.type === 'tool_result');
}

function ofType<T extends TaskEvent['type']>(type: T): Array<Extract<TaskEvent, { type: T }>> {
  return events.filter((e): e is Extract<TaskEvent, { type: T }> => e.type === type);
}

function archived(seq: number): Message | undefined {
  return session.archive.get(session.sessionId, seq)?.full.at(-1);
}

function visible(): string {
  return ofType('text').map((e) => e.text).join('');
}

/** The engine's next assembly fails with `reason` (thrown as is, an Error or not). */
function failNextAssembly(reason: unknown): void {
  const engine = session.engine;
  const assemble = engine.assemble.bind(engine);
  engine.assemble = async () => {
    engine.assemble = assemble;
    return Promise.reject(reason);
  };
}

beforeEach(async () => {
  server = await MessagesApiServer.start({ models: [{ id: MODEL, max_input_tokens: 200_000, max_tokens: 64_000 }] });
  temp = makeTempDir('strata-failures-');
  mkdirSync(join(temp.dir, 'ws', 'src'), { recursive: true });
  writeFileSync(join(temp.dir, 'ws', 'src', 'a.ts'), 'export const answer = 41;\n');
  events = [];
});

afterEach(async () => {
  await session?.close();
  await server.close();
  temp.remove();
});

describe('a turn that fails before or during its model call', () => {
  it('an assembly failing with a plain Error: task_failed with its message, the input archived, no request sent', async () => {
    session = await open();
    failNextAssembly(new Error('the layer cache is corrupt'));
    await session.task.send('hello');
    expect(server.messageRequests).toHaveLength(0);
    expect(ofType('error')).toEqual([{ type: 'error', code: 'task_failed', message: 'the layer cache is corrupt' }]);
    expect(events.at(-1)).toEqual({ type: 'idle', reason: 'failed' });
    expect(archived(1)).toEqual({ role: 'assistant', content: [{ type: 'text', text: '[no complete answer: the layer cache is corrupt]' }] });
    const exchange = ofType('exchange')[0]!;
    expect(JSON.stringify(exchange.input)).toContain('hello');
    expect(exchange.userMessage).toBe(true);
    server.enqueue(textAnswer('Fine now.'));
    await session.task.send('again');
    expect(visible()).toBe('Fine now.');
  });

  it('an assembly failing with something not an Error reports it as text', async () => {
    session = await open();
    failNextAssembly('out of file handles');
    await session.task.send('hello');
    expect(ofType('error')).toEqual([{ type: 'error', code: 'task_failed', message: 'out of file handles' }]);
  });

  it('every engine event of the assembly reaches the listeners before the request', async () => {
    session = await open();
    const engine = session.engine;
    const assemble = engine.assemble.bind(engine);
    engine.assemble = async (signal) => {
      const turn = await assemble(signal);
      return { ...turn, events: [...turn.events, { type: 'warning', turn: turn.turn, message: 'assembled under test' }] };
    };
    server.enqueue(textAnswer('Answer.'));
    await session.task.send('hello');
    const i = events.findIndex((e) => e.type === 'engine' && e.event.type === 'warning' && e.event.message === 'assembled under test');
    expect(i).toBeGreaterThan(-1);
    expect(i).toBeLessThan(events.findIndex((e) => e.type === 'request'));
  });

  it('the engine events of the assembly after an emergency condense reach the listeners too', async () => {
    session = await open();
    server.enqueue(textAnswer('One.'), faults.promptTooLong(250_000, 200_000), textAnswer('After condensing.'));
    await session.task.send('one');
    const engine = session.engine;
    const assemble = engine.assemble.bind(engine);
    let calls = 0;
    engine.assemble = async (signal) => {
      const turn = await assemble(signal);
      calls += 1;
      return { ...turn, events: [...turn.events, { type: 'warning', turn: turn.turn, message: `assembly ${calls}` }] };
    };
    events = [];
    await session.task.send('two');
    const warnings = events.flatMap((e) => (e.type === 'engine' && e.event.type === 'warning' ? [e.event.message] : []));
    expect(warnings.filter((m) => m.startsWith('assembly '))).toEqual(['assembly 1', 'assembly 2']);
    expect(visible()).toBe('After condensing.');
  });

  it('a model client failing with an error of its own (not a ModelError): the turn fails, nothing partial is kept', async () => {
    const real = new AnthropicModelClient({ apiKey: 'sk-ant-test-own-error', baseURL: server.url, maxRetries: 0 });
    let fail = true;
    const client: ModelClient = {
      listModels: (signal) => real.listModels(signal),
      stream: async (call, onEvent) => {
        if (!fail) return real.stream(call, onEvent);
        fail = false;
        throw new TypeError('the socket went away');
      },
    };
    session = await open({ modelClient: client });
    await session.task.send('hello');
    expect(ofType('error')).toEqual([{ type: 'error', code: 'task_failed', message: 'the socket went away' }]);
    expect(archived(1)).toEqual({ role: 'assistant', content: [{ type: 'text', text: '[no complete answer: the socket went away]' }] });
    server.enqueue(textAnswer('Back.'));
    await session.task.send('again');
    expect(visible()).toBe('Back.');
  });

  it('a call of a failed answer is answered with the failure, as an error, with the next message', async () => {
    session = await open();
    const answer = { content: [{ type: 'tool_use' as const, name: 'read_file', input: { path: 'src/a.ts' } }, { type: 'text' as const, text: 'and more words' }] };
    // message_start, tool start, ping, 4 deltas, stop, text start: then the error
    server.enqueue(faults.streamOverloaded(answer, 9), textAnswer('Recovered.'));
    await session.task.send('read a');
    const message = ofType('error')[0]!.message;
    await session.task.send('again');
    const owed = results(lastUser(bodies()[1]!));
    expect(owed).toHaveLength(1);
    expect(owed[0]).toMatchObject({ is_error: true, content: `Not run: ${message}` });
    expect(requestProblems(bodies()[1]!)).toEqual([]);
  });

  it('a stream failing before any text arrived, or after only blanks, archives no empty text block', async () => {
    session = await open({ modelClient: new AnthropicModelClient({ apiKey: 'sk-ant-test-blank', baseURL: server.url, maxRetries: 0 }) });
    // message_start, text start, ping: then the error (the text block is still empty)
    server.enqueue(faults.streamOverloaded(textAnswer('never shown'), 3), faults.streamOverloaded(textAnswer(' \n   \n    and more'), 4), textAnswer('Fine.'));
    await session.task.send('one');
    await session.task.send('two');
    for (const seq of [1, 2]) {
      const texts = archived(seq)!.content.flatMap((b) => (b.type === 'text' ? [b.text] : []));
      expect(texts).toHaveLength(1);
      expect(texts[0]).toMatch(/^\[no complete answer: /);
    }
    await session.task.send('three');
    expect(requestProblems(bodies()[2]!)).toEqual([]);
  });
});

describe('stops and streams at their edges', () => {
  it('a message sent with a signal already stopped is archived as stopped without a model call, and the session goes on', async () => {
    session = await open();
    const stop = new AbortController();
    stop.abort();
    server.enqueue(textAnswer('Not for the stopped one.'));
    await session.task.send('never mind', stop.signal);
    expect(server.messageRequests).toHaveLength(0);
    expect(events.map((e) => e.type)).toEqual(['user_message', 'request', 'turn_done', 'exchange', 'idle']);
    expect(events.at(-1)).toEqual({ type: 'idle', reason: 'stopped' });
    expect(archived(1)).toEqual({ role: 'assistant', content: [{ type: 'text', text: '[stopped by the user]' }] });
    await session.task.send('now for real');
    expect(visible()).toBe('Not for the stopped one.');
    expect(requestProblems(bodies()[0]!)).toEqual([]);
  });

  it('text held back as a possible tag start is shown when the answer ends', async () => {
    session = await open();
    const answer = 'Compare a < b, then see <housekee';
    server.enqueue(textAnswer(answer));
    await session.task.send('compare');
    expect(visible()).toBe(answer);
    expect(ofType('text').every((e) => e.text !== '')).toBe(true);
  });

  it('a wait of a fraction of a second past a whole one is announced rounded up', async () => {
    const client = new AnthropicModelClient({ apiKey: 'sk-ant-test-wait', baseURL: server.url, longWaitMs: 1_000, maxRetries: 1 });
    session = await open({ modelClient: client });
    server.enqueue({ ...faults.rateLimited(1), retryAfter: '1.2' }, textAnswer('After the wait.'));
    await session.task.send('hello');
    const waiting = ofType('waiting');
    expect(waiting.map((w) => w.ms)).toEqual([1_200]);
    expect(waiting[0]!.message).toMatch(/^The model API asked to wait 2 s before trying again \(.*\)\. Waiting; stop the task to give up now\.$/);
    expect(visible()).toBe('After the wait.');
  });

  it('without a step limit of its own a message gets fifty model calls', async () => {
    session = await open();
    for (let i = 0; i < 51; i++) server.enqueue(toolAnswer('list_files', { path: 'src' }));
    await session.task.send('list forever');
    expect(server.messageRequests).toHaveLength(50);
    expect(events.at(-1)).toEqual({ type: 'idle', reason: 'step_limit' });
  }, 60_000);
});
