import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../src/adapters/tempFiles';
import type { TaskSession } from '../../src/host/openTaskSession';
import { openTaskSession } from '../../src/host/openTaskSession';
import type { Message, MessagesRequest } from '../../src/shared/messages';
import { StrataError } from '../../src/shared/strataError';
import type { TaskEvent } from '../../src/task/taskEvents';
import { faults, MessagesApiServer } from '../support/messagesApiServer';
import { textAnswer, toolAnswer } from '../support/messagesApiEvents';

const API_KEY = 'sk-ant-test-4f9c2a-never-shown';
const MODEL = 'claude-sonnet-5-5';

let server: MessagesApiServer;
let temp: { dir: string; remove: () => void };
let session: TaskSession;
let events: TaskEvent[];

async function open(options: { approve?: boolean } = {}): Promise<TaskSession> {
  const s = await openTaskSession({
    workspaceRoot: join(temp.dir, 'ws'),
    archivePath: join(temp.dir, 'archive.sqlite'),
    apiKey: API_KEY,
    baseURL: server.url,
    model: MODEL,
    frontEnd: 'test',
    approve: async () => ({ approved: options.approve ?? true, ...(options.approve === false ? { feedback: 'not that file' } : {}) }),
    logger: { info: () => {}, warn: () => {}, error: () => {} },
  });
  s.task.onEvent((e) => events.push(e));
  return s;
}

/** The Messages API bodies the server received, in order. */
function sentBodies(): Array<MessagesRequest & { model: string; max_tokens: number; stream: boolean }> {
  return server.messageRequests.map((r) => r.body as MessagesRequest & { model: string; max_tokens: number; stream: boolean });
}

function lastUser(body: MessagesRequest): Message {
  const m = body.messages[body.messages.length - 1]!;
  expect(m.role).toBe('user');
  return m;
}

function breakpoints(body: MessagesRequest): number {
  const marks = [...body.system, ...body.tools, ...body.messages.flatMap((m) => m.content)].filter((b) => 'cache_control' in b && b.cache_control);
  return marks.length;
}

function visibleText(): string {
  return events.flatMap((e) => (e.type === 'text' ? [e.text] : [])).join('');
}

/** Event types in order (a run of text deltas as one), with the exchange id of requests and reports. */
function flow(): string[] {
  const types = events.map((e) => (e.type === 'request' ? `request e${e.turn}` : e.type === 'turn_done' ? `turn_done e${e.report.turn}` : e.type));
  return types.filter((t, i) => t !== 'text' || types[i - 1] !== 'text');
}

beforeEach(async () => {
  server = await MessagesApiServer.start({ models: [{ id: MODEL, max_input_tokens: 200_000, max_tokens: 64_000 }] });
  temp = makeTempDir('strata-task-');
  mkdirSync(join(temp.dir, 'ws', 'src'), { recursive: true });
  writeFileSync(join(temp.dir, 'ws', 'src', 'a.ts'), 'export const answer = 41;\n');
  events = [];
});

afterEach(async () => {
  session?.close();
  await server.close();
  temp.remove();
});

describe('Task loop over the real SDK and a local Messages API server', () => {
  it('runs a multi-turn tool session: three branches, tools run, housekeeping hidden, exact requests', async () => {
    session = await open();
    server.enqueue(
      { content: [{ type: 'thinking', thinking: 'Read the file first.', signature: 'sig-1' }, { type: 'text', text: 'Let me read it.' }, { type: 'tool_use', name: 'read_file', input: { path: 'src/a.ts' } }] },
      toolAnswer('edit_file', { path: 'src/a.ts', edits: [{ search: '41', replace: '42' }] }),
      textAnswer('Changed 41 to 42.\n<housekeeping>{"narrative":{"state":"answer fixed"}}</housekeeping>', { input_tokens: 900, cache_read_input_tokens: 3000, output_tokens: 20 }),
    );
    await session.task.send('Make the answer 42 in @/src/a.ts');

    expect(readFileSync(join(temp.dir, 'ws', 'src', 'a.ts'), 'utf8')).toBe('export const answer = 42;\n');
    const bodies = sentBodies();
    expect(bodies).toHaveLength(3);
    for (const body of bodies) {
      expect(body.model).toBe(MODEL);
      expect(body.stream).toBe(true);
      // System branch: role, stable environment, guardrails, protocol; no per-turn facts.
      expect(body.system.map((b) => b.text).join('\n')).toMatch(/Workspace root: .*ws[\s\S]*## Guardrails[\s\S]*Strata context protocol/);
      expect(body.system.map((b) => b.text).join('\n')).not.toContain('Time:');
      expect(body.tools.map((t) => t.name)).toEqual(['read_file', 'list_files', 'search_files', 'list_definitions', 'write_file', 'edit_file', 'execute_command', 'recall']);
      expect(breakpoints(body)).toBeGreaterThan(0);
      expect(breakpoints(body)).toBeLessThanOrEqual(4);
    }
    // User input branch: the query, the resolved mention, the per-turn environment.
    const first = lastUser(bodies[0]!).content.map((b) => (b.type === 'text' ? b.text : '')).join('\n');
    expect(first).toContain('Make the answer 42 in @/src/a.ts');
    expect(first).toContain('<mention ref="@/src/a.ts">');
    expect(first).toContain('export const answer = 41;');
    expect(first).toMatch(/<environment>\nTime: \d{4}-/);
    // Tool results come back as the next input, answering the right call.
    const toolUseId = (bodies[1]!.messages[bodies[1]!.messages.length - 2]!.content.find((b) => b.type === 'tool_use') as { id: string }).id;
    const result = lastUser(bodies[1]!).content[0]!;
    expect(result).toMatchObject({ type: 'tool_result', tool_use_id: toolUseId });
    expect(JSON.stringify(result)).toContain('export const answer = 41;');
    // The answer's thinking goes back whole, first in its turn, as tool loops on thinking models require.
    expect(bodies[1]!.messages[bodies[1]!.messages.length - 2]!.content[0]).toEqual({ type: 'thinking', thinking: 'Read the file first.', signature: 'sig-1' });
    expect(visibleText()).not.toContain('Read the file first.');
    // The system prefix is byte-identical across turns (cacheable).
    expect(JSON.stringify(bodies[2]!.system)).toBe(JSON.stringify(bodies[0]!.system));

    expect(visibleText()).toContain('Changed 41 to 42.');
    expect(visibleText()).not.toMatch(/housekeeping|answer fixed/);
    expect(events.filter((e) => e.type === 'tool_result').map((e) => (e.type === 'tool_result' ? e.isError : true))).toEqual([false, false]);
    const reports = events.flatMap((e) => (e.type === 'turn_done' ? [e.report] : []));
    expect(reports).toHaveLength(3);
    expect(reports[2]!.usage).toEqual({ inputTokens: 900, cacheWriteTokens: 0, cacheReadTokens: 3000, outputTokens: 20 });
    expect(reports[2]!.cacheHitRate).toBeCloseTo(3000 / 3900, 5);
    expect(reports[2]!.cost.totalUsd).toBeCloseTo((900 * 2 + 3000 * 0.1 + 20 * 10) / 1_000_000, 10);
    expect(events[events.length - 1]).toEqual({ type: 'idle', reason: 'answered' });
    // Everything is archived, and the key is nowhere in it.
    expect(session.archive.lastSeq(session.sessionId)).toBe(3);
    expect(readFileSync(join(temp.dir, 'archive.sqlite')).includes(API_KEY)).toBe(false);
  });

  it('announces each request with its layers before the answer streams: one turn, and a turn with a tool round', async () => {
    session = await open();
    server.enqueue(textAnswer('The answer is 41.'));
    await session.task.send('What is the answer?');
    expect(flow()).toEqual(['user_message', 'request e1', 'text', 'turn_done e1', 'exchange', 'idle']);

    events = [];
    server.enqueue(toolAnswer('read_file', { path: 'src/a.ts' }, 'Let me read it.'), textAnswer('It is 41.'));
    await session.task.send('Read src/a.ts again');
    expect(flow()).toEqual(['user_message', 'request e2', 'text', 'turn_done e2', 'exchange', 'tool_call', 'tool_result', 'request e3', 'text', 'turn_done e3', 'exchange', 'idle']);
    // The request carries the layers the answer's report later repeats; the tool result makes the second one larger.
    const requests = events.flatMap((e) => (e.type === 'request' ? [e.layers] : []));
    const reports = events.flatMap((e) => (e.type === 'turn_done' ? [e.report.layers] : []));
    expect(requests).toEqual(reports);
    expect(requests[1]!.used).toBeGreaterThan(requests[0]!.used);
  });

  it('announces the re-assembled request after an emergency condense, before its answer streams', async () => {
    session = await open();
    server.enqueue(textAnswer('One.'), faults.promptTooLong(250_000, 200_000), textAnswer('After condensing.'));
    await session.task.send('one');
    events = [];
    await session.task.send('two');
    const order = flow().filter((t) => t !== 'engine');
    expect(order).toEqual(['user_message', 'request e2', 'request e2', 'text', 'turn_done e2', 'exchange', 'idle']);
    const requests = events.flatMap((e) => (e.type === 'request' ? [e.layers] : []));
    const report = events.flatMap((e) => (e.type === 'turn_done' ? [e.report.layers] : []))[0];
    expect(report).toEqual(requests[1]);
  });

  it('fails the turn cleanly when assembling again after an emergency condense fails: input archived, the next message works', async () => {
    session = await open();
    server.enqueue(textAnswer('One.'), faults.promptTooLong(250_000, 200_000), textAnswer('Three.'));
    await session.task.send('one');
    // the engine fails on its second assembly of the turn (the one after the condense)
    const engine = session.engine;
    const assemble = engine.assemble.bind(engine);
    let calls = 0;
    engine.assemble = async (signal) => {
      calls += 1;
      if (calls === 2) throw new StrataError('Turn e2 cannot fit the prompt budget (test).', 'budget_too_small');
      return assemble(signal);
    };
    events = [];
    await session.task.send('two');
    expect(flow().filter((t) => t !== 'engine')).toEqual(['user_message', 'request e2', 'exchange', 'error', 'idle']);
    expect(events.find((e) => e.type === 'error')).toMatchObject({ code: 'budget_too_small' });
    expect(events.find((e) => e.type === 'idle')).toMatchObject({ reason: 'failed' });
    events = [];
    await session.task.send('three');
    expect(visibleText()).toBe('Three.');
    expect(JSON.stringify(session.engine.retrieve(['e2'], 'full'))).toContain('two');
  });

  it('serves a context request at once when the answer called no tool, and the recall tool by id', async () => {
    session = await open();
    server.enqueue(
      textAnswer('The answer is 41.'),
      textAnswer('I need the first exchange again. <context_request>{"ids":["e1"],"format":"full"}</context_request>'),
      toolAnswer('recall', { ids: ['e1', 'e999'], format: 'full' }),
      textAnswer('Got it.'),
    );
    await session.task.send('What is the answer?');
    await session.task.send('Remind me what you said first.');
    const bodies = sentBodies();
    expect(bodies).toHaveLength(4);
    const followUp = JSON.stringify(lastUser(bodies[2]!));
    expect(followUp).toContain('The answer is 41.');
    const recalled = lastUser(bodies[3]!).content[0]!;
    expect(recalled.type).toBe('tool_result');
    expect(JSON.stringify(recalled)).toContain('The answer is 41.');
    expect(JSON.stringify(recalled)).toMatch(/e999/);
    expect(visibleText()).not.toContain('context_request');
  });

  it('refused approval reaches the model as the user\'s feedback, and nothing is written', async () => {
    session = await open({ approve: false });
    server.enqueue(toolAnswer('write_file', { path: 'src/b.ts', content: 'x' }), textAnswer('Understood.'));
    await session.task.send('Create b.ts');
    const result = JSON.stringify(lastUser(sentBodies()[1]!).content[0]);
    expect(result).toContain('The user refused');
    expect(result).toContain('not that file');
    expect(() => readFileSync(join(temp.dir, 'ws', 'src', 'b.ts'))).toThrow();
  });

  it('survives faults: a 529 is retried, a prompt too long is condensed and retried once, a cut stream is reported and archived', async () => {
    session = await open();
    server.enqueue(faults.overloaded(), textAnswer('After the retry.'));
    await session.task.send('one');
    expect(visibleText()).toContain('After the retry.');

    server.enqueue(faults.promptTooLong(250_000, 200_000), textAnswer('After condensing.'));
    await session.task.send('two');
    expect(visibleText()).toContain('After condensing.');
    expect(events.some((e) => e.type === 'engine' && (e.event.type === 'condense_context' || e.event.type === 'condense_context_error'))).toBe(true);

    const cut = textAnswer('Half of this answer arrives and then');
    server.enqueue(faults.cut(cut, 4), faults.cut(cut, 4), faults.cut(cut, 4), faults.cut(cut, 4), faults.cut(cut, 4), faults.cut(cut, 4));
    await session.task.send('three');
    const error = events.find((e) => e.type === 'error');
    expect(error).toBeDefined();
    expect(error && error.type === 'error' ? error.message : '').not.toContain(API_KEY);
    expect(events[events.length - 1]).toEqual({ type: 'idle', reason: 'failed' });
    // The user's message of the failed turn is archived.
    const last = session.archive.get(session.sessionId, session.archive.lastSeq(session.sessionId));
    expect(JSON.stringify(last?.full)).toContain('three');
    expect(JSON.stringify(last?.full)).toContain('no complete answer');
  });

  it('the tokenizer correction learned from reported usage is kept for the next session of the model', async () => {
    session = await open();
    server.enqueue(textAnswer('One.', { input_tokens: 9_000 }), textAnswer('Two.'));
    await session.task.send('first');
    const first = events.flatMap((e) => (e.type === 'turn_done' ? [e.report] : []))[0]!;
    session.close();
    events = [];
    session = await open();
    await session.task.send('second');
    const second = events.flatMap((e) => (e.type === 'turn_done' ? [e.report] : []))[0]!;
    // Unlearned, the engine keeps a 5% margin off its budget; calibrated from the archive, it does not.
    expect(second.budget).toBeGreaterThan(first.budget);
    // The prompt is larger than the raw estimate: the API reported more tokens than o200k counted.
    expect(second.promptTokens).toBeGreaterThan(first.promptTokens);
  });

  it('a stop keeps the partial answer, archived, and the session goes on', async () => {
    session = await open();
    server.enqueue(faults.stall(textAnswer('Partial words before the stall, then more'), 5_000, 4), textAnswer('Next.'));
    const stop = new AbortController();
    const stopped = session.task.send('long answer please', stop.signal);
    await new Promise<void>((resolve) => {
      const off = session.task.onEvent((e) => {
        if (e.type === 'text') {
          off();
          resolve();
        }
      });
    });
    stop.abort();
    await stopped;
    expect(events[events.length - 1]).toEqual({ type: 'idle', reason: 'stopped' });
    const archived = JSON.stringify(session.archive.get(session.sessionId, 1)?.full);
    expect(archived).toContain('Partial');
    expect(archived).toContain('[stopped by the user]');
    await session.task.send('go on');
    expect(visibleText()).toContain('Next.');
  });
});
