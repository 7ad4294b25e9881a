import { describe, expect, it } from 'vitest';
import { AnthropicModelClient } from '../../src/adapters/anthropicModelClient';
import { requestProblems } from '../../src/engine/requestValidity';
import type { Message } from '../../src/shared/messages';
import type { ModelClient } from '../../src/task/modelClient';
import { faults } from '../support/messagesApiServer';
import { lastUser } from '../support/liveTask';
import { toolResults, useLiveTask } from '../support/liveTaskHarness';
import { textAnswer, toolAnswer } from '../support/messagesApiEvents';

/** How a turn fails, stops or streams at its edges: every outcome archived, reported, and the next request valid. */
const live = useLiveTask('strata-failures-', { 'src/a.ts': 'export const answer = 41;\n' });

function archived(seq: number): Message | undefined {
  return live.session.archive.get(live.session.sessionId, seq)?.full.at(-1);
}

function visible(): string {
  return live.ofType('text').map((e) => e.text).join('');
}

/** The engine's next assembly fails with `reason` (thrown as is, an Error or not). */
function failNextAssembly(reason: unknown): void {
  const engine = live.session.engine;
  const assemble = engine.assemble.bind(engine);
  engine.assemble = async () => {
    engine.assemble = assemble;
    return Promise.reject(reason);
  };
}

describe('a turn that fails before or during its model call', () => {
  it('an assembly failing with a plain Error: task_failed with its message, the input archived, no request sent', async () => {
    await live.open();
    failNextAssembly(new Error('the layer cache is corrupt'));
    await live.session.task.send('hello');
    expect(live.server.messageRequests).toHaveLength(0);
    expect(live.ofType('error')).toEqual([{ type: 'error', code: 'task_failed', message: 'the layer cache is corrupt' }]);
    expect(live.events.at(-1)).toEqual({ type: 'idle', reason: 'failed' });
    expect(archived(1)).toEqual({ role: 'assistant', content: [{ type: 'text', text: '[no complete answer: the layer cache is corrupt]' }] });
    const exchange = live.ofType('exchange')[0]!;
    expect(JSON.stringify(exchange.input)).toContain('hello');
    expect(exchange.userMessage).toBe(true);
    live.server.enqueue(textAnswer('Fine now.'));
    await live.session.task.send('again');
    expect(visible()).toBe('Fine now.');
  });

  it('an assembly failing with something not an Error reports it as text', async () => {
    await live.open();
    failNextAssembly('out of file handles');
    await live.session.task.send('hello');
    expect(live.ofType('error')).toEqual([{ type: 'error', code: 'task_failed', message: 'out of file handles' }]);
  });

  it('every engine event of the assembly reaches the listeners before the request', async () => {
    await live.open();
    const engine = live.session.engine;
    const assemble = engine.assemble.bind(engine);
    engine.assemble = async (signal) => {
      const turn = await assemble(signal);
      return { ...turn, events: [...turn.events, { type: 'warning', turn: turn.turn, message: 'assembled under test' }] };
    };
    live.server.enqueue(textAnswer('Answer.'));
    await live.session.task.send('hello');
    const i = live.events.findIndex((e) => e.type === 'engine' && e.event.type === 'warning' && e.event.message === 'assembled under test');
    expect(i).toBeGreaterThan(-1);
    expect(i).toBeLessThan(live.events.findIndex((e) => e.type === 'request'));
  });

  it('the engine events of the assembly after an emergency condense reach the listeners too', async () => {
    await live.open();
    live.server.enqueue(textAnswer('One.'), faults.promptTooLong(250_000, 200_000), textAnswer('After condensing.'));
    await live.session.task.send('one');
    const engine = live.session.engine;
    const assemble = engine.assemble.bind(engine);
    let calls = 0;
    engine.assemble = async (signal) => {
      const turn = await assemble(signal);
      calls += 1;
      return { ...turn, events: [...turn.events, { type: 'warning', turn: turn.turn, message: `assembly ${calls}` }] };
    };
    live.events = [];
    await live.session.task.send('two');
    const warnings = live.events.flatMap((e) => (e.type === 'engine' && e.event.type === 'warning' ? [e.event.message] : []));
    expect(warnings.filter((m) => m.startsWith('assembly '))).toEqual(['assembly 1', 'assembly 2']);
    expect(visible()).toBe('After condensing.');
  });

  it('a model client failing with an error of its own (not a ModelError): the turn fails, nothing partial is kept', async () => {
    const real = new AnthropicModelClient({ apiKey: 'sk-ant-test-own-error', baseURL: live.server.url, maxRetries: 0 });
    let fail = true;
    const client: ModelClient = {
      listModels: (signal) => real.listModels(signal),
      stream: async (call, onEvent) => {
        if (!fail) return real.stream(call, onEvent);
        fail = false;
        throw new TypeError('the socket went away');
      },
    };
    await live.open({ modelClient: client });
    await live.session.task.send('hello');
    expect(live.ofType('error')).toEqual([{ type: 'error', code: 'task_failed', message: 'the socket went away' }]);
    expect(archived(1)).toEqual({ role: 'assistant', content: [{ type: 'text', text: '[no complete answer: the socket went away]' }] });
    live.server.enqueue(textAnswer('Back.'));
    await live.session.task.send('again');
    expect(visible()).toBe('Back.');
  });

  it('a call of a failed answer is answered with the failure, as an error, with the next message', async () => {
    await live.open();
    const answer = { content: [{ type: 'tool_use' as const, name: 'read_file', input: { path: 'src/a.ts' } }, { type: 'text' as const, text: 'and more words' }] };
    // message_start, tool start, ping, 4 deltas, stop, text start: then the error
    live.server.enqueue(faults.streamOverloaded(answer, 9), textAnswer('Recovered.'));
    await live.session.task.send('read a');
    const message = live.ofType('error')[0]!.message;
    await live.session.task.send('again');
    const owed = toolResults(lastUser(live.bodies()[1]!));
    expect(owed).toHaveLength(1);
    expect(owed[0]).toMatchObject({ is_error: true, content: `Not run: ${message}` });
    expect(requestProblems(live.bodies()[1]!)).toEqual([]);
  });

  it('a stream failing before any text arrived, or after only blanks, archives no empty text block', async () => {
    await live.open({ modelClient: new AnthropicModelClient({ apiKey: 'sk-ant-test-blank', baseURL: live.server.url, maxRetries: 0 }) });
    // message_start, text start, ping: then the error (the text block is still empty)
    live.server.enqueue(faults.streamOverloaded(textAnswer('never shown'), 3), faults.streamOverloaded(textAnswer(' \n   \n    and more'), 4), textAnswer('Fine.'));
    await live.session.task.send('one');
    await live.session.task.send('two');
    for (const seq of [1, 2]) {
      const texts = archived(seq)!.content.flatMap((b) => (b.type === 'text' ? [b.text] : []));
      expect(texts).toHaveLength(1);
      expect(texts[0]).toMatch(/^\[no complete answer: /);
    }
    await live.session.task.send('three');
    expect(requestProblems(live.bodies()[2]!)).toEqual([]);
  });
});

describe('stops and streams at their edges', () => {
  it('a message sent with a signal already stopped is archived as stopped without a model call, and the session goes on', async () => {
    await live.open();
    const stop = new AbortController();
    stop.abort();
    live.server.enqueue(textAnswer('Not for the stopped one.'));
    await live.session.task.send('never mind', stop.signal);
    expect(live.server.messageRequests).toHaveLength(0);
    expect(live.events.map((e) => e.type)).toEqual(['user_message', 'request', 'turn_done', 'exchange', 'idle']);
    expect(live.events.at(-1)).toEqual({ type: 'idle', reason: 'stopped' });
    expect(archived(1)).toEqual({ role: 'assistant', content: [{ type: 'text', text: '[stopped by the user]' }] });
    await live.session.task.send('now for real');
    expect(visible()).toBe('Not for the stopped one.');
    expect(requestProblems(live.bodies()[0]!)).toEqual([]);
  });

  it('text held back as a possible tag start is shown when the answer ends', async () => {
    await live.open();
    const answer = 'Compare a < b, then see <housekee';
    live.server.enqueue(textAnswer(answer));
    await live.session.task.send('compare');
    expect(visible()).toBe(answer);
    expect(live.ofType('text').every((e) => e.text !== '')).toBe(true);
  });

  it('a wait of a fraction of a second past a whole one is announced rounded up', async () => {
    const client = new AnthropicModelClient({ apiKey: 'sk-ant-test-wait', baseURL: live.server.url, longWaitMs: 1_000, maxRetries: 1 });
    await live.open({ modelClient: client });
    live.server.enqueue({ ...faults.rateLimited(1), retryAfter: '1.2' }, textAnswer('After the wait.'));
    await live.session.task.send('hello');
    const waiting = live.ofType('waiting');
    expect(waiting.map((w) => w.ms)).toEqual([1_200]);
    expect(waiting[0]!.message).toMatch(/^The model API asked to wait 2 s before trying again \(.*\)\. Waiting; stop the task to give up now\.$/);
    expect(visible()).toBe('After the wait.');
  });

  it('without a step limit of its own a message gets fifty model calls', async () => {
    await live.open();
    for (let i = 0; i < 51; i++) live.server.enqueue(toolAnswer('list_files', { path: 'src' }));
    await live.session.task.send('list forever');
    expect(live.server.messageRequests).toHaveLength(50);
    expect(live.events.at(-1)).toEqual({ type: 'idle', reason: 'step_limit' });
  }, 60_000);
});
