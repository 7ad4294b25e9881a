import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AnthropicModelClient } from '../../src/adapters/anthropicModelClient';
import type { ContextEngine } from '../../src/engine/contextEngine';
import type { ToolResultBlock } from '../../src/shared/messages';
import { Task } from '../../src/task/task';
import type { TaskEvent, TurnReport } from '../../src/task/taskEvents';
import { defineTool, ok } from '../../src/task/tools/tool';
import { toolDefinitionsForApi } from '../../src/task/tools/toolRegistry';
import { charTokenizer, makeEngine } from '../support/engineHarness';
import { MessagesApiServer } from '../support/messagesApiServer';
import { lastUser, LIVE_TASK_MODEL, requestBodies } from '../support/liveTask';
import { textAnswer, toolAnswer } from '../support/messagesApiEvents';
import { makeToolFixture, type ToolFixture } from '../support/toolWorkspace';

/**
 * A Task built from its own parts, with only what it requires: no redactor, no file tracker, no
 * step limit of its own, a tool of the test's, and a clock the test moves. Real engine (in-memory
 * archive), real SDK over the local Messages API server.
 */
const MODEL = LIVE_TASK_MODEL;
const HOUSEKEEPING = '<housekeeping>{"narrative":{"state":"checked"}}</housekeeping>';

let server: MessagesApiServer;
let fixture: ToolFixture;
let engine: ContextEngine;
let task: Task;
let events: TaskEvent[];
let now: number;
/** The mentioned paths each tool context was built with. */
let contexts: string[][];

/** A tool whose run prints nothing, as a command without output would. */
const silent = defineTool({
  name: 'silent',
  description: 'Does its work and prints nothing.',
  input: z.object({ what: z.string() }),
  needsApproval: false,
  summarize: (input) => `silent ${input.what}`,
  run: async () => ok(''),
});

beforeEach(async () => {
  server = await MessagesApiServer.start({ models: [{ id: MODEL, max_input_tokens: 200_000, max_tokens: 64_000 }] });
  fixture = makeToolFixture();
  engine = makeEngine({}, { tools: toolDefinitionsForApi([silent]) }).engine;
  events = [];
  contexts = [];
  now = Date.UTC(2026, 10, 26, 9, 0, 0);
  task = new Task({
    engine,
    tokenizer: charTokenizer,
    model: new AnthropicModelClient({ apiKey: 'sk-ant-test-own-parts', baseURL: server.url, maxRetries: 0 }),
    modelId: MODEL,
    maxOutputTokens: 4_000,
    tools: [silent],
    toolContext: (signal, mentionedPaths) => {
      contexts.push([...mentionedPaths]);
      return { ...fixture.ctx, signal, mentionedPaths };
    },
    mentions: {},
    environment: () => ({}),
    clock: { now: () => now },
  });
  task.onEvent((e) => events.push(e));
});

afterEach(async () => {
  await server.close();
  fixture.remove();
});

function reports(): TurnReport[] {
  return events.flatMap((e) => (e.type === 'turn_done' ? [e.report] : []));
}

/** The engine's next assemblies say housekeeping is due for e1 when `due` says so, turn by turn. */
function housekeepingAsked(due: boolean[]): void {
  const assemble = engine.assemble.bind(engine);
  let call = 0;
  engine.assemble = async (signal) => {
    const turn = await assemble(signal);
    return due[call++] ? { ...turn, housekeepingDue: [1] } : turn;
  };
}

describe('a Task with only its required parts', () => {
  it('sends the user\'s text as is without a redactor, gives the tool the mentioned paths, and a tool\'s empty output as "(no output)"', async () => {
    const secret = `sk-ant-api03-${'x'.repeat(40)}`;
    server.enqueue(toolAnswer('silent', { what: 'nothing' }), textAnswer('Done.'));
    await task.send(`use ${secret} with @/dist/ and @problems`);
    const sent = requestBodies(server);
    expect(JSON.stringify(lastUser(sent[0]!))).toContain(`use ${secret} with @/dist/`);
    expect(contexts).toEqual([['dist']]);
    const result = lastUser(sent[1]!).content[0] as ToolResultBlock;
    expect(result).toMatchObject({ type: 'tool_result', content: '(no output)' });
    expect(result).not.toHaveProperty('is_error');
    // what the engine, the archive and a recording receive says so too (not only the rendered request)
    const second = events.filter((e) => e.type === 'exchange')[1];
    expect(second?.type === 'exchange' && second.input.content[0]).toMatchObject({ type: 'tool_result', content: '(no output)' });
    expect(events.find((e) => e.type === 'tool_result')).toMatchObject({ name: 'silent', text: '', isError: false });
    expect(events.at(-1)).toEqual({ type: 'idle', reason: 'answered' });
  });

  it('a message with no words of the user\'s own is announced with an empty text', async () => {
    server.enqueue(textAnswer('Nothing to answer.'));
    await task.send('   ');
    expect(events.find((e) => e.type === 'user_message')).toEqual({ type: 'user_message', turn: 1, text: '' });
  });

  it('a signal the caller keeps for many messages holds no listener of the finished ones', async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      const kept = new AbortController();
      for (let i = 0; i < 12; i++) server.enqueue(textAnswer(`Answer ${i}.`));
      for (let i = 0; i < 12; i++) await task.send(`message ${i}`, kept.signal);
      // Node reports an EventTarget with more than 10 listeners of one event on the next tick
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings.map((w) => w.name)).toEqual([]);
    expect(events.filter((e) => e.type === 'idle')).toHaveLength(12);
  });

  it('a failed turn without a redactor reports the API\'s message as it came', async () => {
    server.enqueue({ fault: 'status', status: 400, errorType: 'invalid_request_error', message: 'the request named token-1234' });
    await task.send('hello');
    expect(events.find((e) => e.type === 'error')).toEqual({ type: 'error', code: 'model_bad_request', message: expect.stringContaining('the request named token-1234') });
    expect(events.at(-1)).toEqual({ type: 'idle', reason: 'failed' });
  });

  it('an unsubscribed listener hears nothing more; the session cost adds up every call', async () => {
    const heard: string[] = [];
    const off = task.onEvent((e) => heard.push(e.type));
    server.enqueue(textAnswer('One.', { input_tokens: 1_000, output_tokens: 10 }), textAnswer('Two.', { input_tokens: 2_000, output_tokens: 20 }));
    await task.send('one');
    const once = heard.length;
    expect(once).toBeGreaterThan(0);
    off();
    await task.send('two');
    expect(heard).toHaveLength(once);
    expect(task.sessionCost.totals).toMatchObject({ turns: 2, usage: { inputTokens: 3_000, outputTokens: 30 } });
  });

  it('reports the time the engine took to assemble and the time the model took, apart', async () => {
    const assemble = engine.assemble.bind(engine);
    engine.assemble = async (signal) => {
      now += 700;
      return assemble(signal);
    };
    task.onEvent((e) => {
      if (e.type === 'request') now += 5_000;
    });
    server.enqueue(textAnswer('Timed.'));
    await task.send('how long?');
    expect(reports().map((r) => [r.engineMs, r.modelMs])).toEqual([[700, 5_000]]);
  });

  it('tells a turn that asked for housekeeping and got it from one that missed it, and counts the misses', async () => {
    housekeepingAsked([false, true, true, false]);
    server.enqueue(textAnswer(`One.\n${HOUSEKEEPING}`), textAnswer(`Two.\n${HOUSEKEEPING}`), textAnswer('Three, no housekeeping.'), textAnswer('Four.'));
    for (const text of ['one', 'two', 'three', 'four']) await task.send(text);
    expect(reports().map((r) => r.housekeeping)).toEqual(['not_asked', 'applied', 'missed', 'not_asked']);
    expect(task.housekeepingMisses).toBe(1);
  });
});
