import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../src/adapters/tempFiles';
import { requestProblems } from '../../src/engine/requestValidity';
import type { TaskSession, TaskSessionOptions } from '../../src/host/openTaskSession';
import type { Message, MessagesRequest, ToolResultBlock } from '../../src/shared/messages';
import type { TaskEvent } from '../../src/task/taskEvents';
import { faults, MessagesApiServer } from '../support/messagesApiServer';
import { lastUser, LIVE_TASK_MODEL, openLiveTask, requestBodies } from '../support/liveTask';
import { textAnswer, toolAnswer } from '../support/messagesApiEvents';

/** The loop's edges over a whole session: busy sends, concurrent resends, owed results, changed files, caps. */
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

/** Resolves at the first event of `type` the task emits from now on. */
function next(type: TaskEvent['type']): Promise<void> {
  return new Promise((resolve) => {
    const off = session.task.onEvent((e) => {
      if (e.type === type) {
        off();
        resolve();
      }
    });
  });
}

function texts(message: Message): string[] {
  return message.content.flatMap((b) => (b.type === 'text' ? [b.text] : []));
}

beforeEach(async () => {
  server = await MessagesApiServer.start({ models: [{ id: MODEL, max_input_tokens: 200_000, max_tokens: 64_000 }] });
  temp = makeTempDir('strata-edges-');
  mkdirSync(join(temp.dir, 'ws', 'src'), { recursive: true });
  writeFileSync(join(temp.dir, 'ws', 'src', 'a.ts'), 'export const answer = 41;\n');
  writeFileSync(join(temp.dir, 'ws', 'src', 'b.ts'), 'export const other = 1;\n');
  events = [];
});

afterEach(async () => {
  await session?.close();
  await server.close();
  temp.remove();
});

describe('one message at a time', () => {
  it('a send while a turn runs is refused with task_busy, and the running turn finishes undisturbed', async () => {
    session = await open();
    server.enqueue(faults.stall(textAnswer('Slow words, then the rest.'), 300, 4), textAnswer('Second.'));
    const first = session.task.send('first');
    await next('text');
    expect(session.task.busy).toBe(true);
    await expect(session.task.send('second')).rejects.toMatchObject({ code: 'task_busy', message: expect.stringMatching(/^The task is already running; stop it or wait/) });
    await first;
    expect(session.task.busy).toBe(false);
    expect(events.at(-1)).toEqual({ type: 'idle', reason: 'answered' });
    expect(server.messageRequests).toHaveLength(1);
    await session.task.send('second');
    expect(server.messageRequests).toHaveLength(2);
  });

  it('of two resends during one turn, the first runs and the second is refused while the first runs', async () => {
    session = await open();
    server.enqueue(textAnswer('One.'), faults.stall(textAnswer('Two, slowly and then'), 5_000, 4), textAnswer('Edited.'));
    await session.task.send('one');
    const running = session.task.send('two');
    await next('text');
    const firstResend = session.task.resend(2, 'two, edited');
    const secondResend = session.task.resend(2, 'two, edited again');
    await expect(secondResend).rejects.toMatchObject({ code: 'task_busy', message: expect.stringMatching(/^The task is still finishing the stopped turn/) });
    await running;
    await firstResend;
    expect(ofType('resent')).toEqual([{ type: 'resent', from: 2, by: 3, superseded: [2] }]);
    expect(JSON.stringify(bodies().at(-1)!.messages)).toContain('two, edited');
    expect(JSON.stringify(bodies().at(-1)!.messages)).not.toContain('edited again');
  });

  it('a resend after a Stop during tools drops the owed results: the new message answers no superseded call', async () => {
    const stop = new AbortController();
    session = await open({
      approve: async () => {
        stop.abort();
        return { approved: true };
      },
    });
    server.enqueue(textAnswer('One.'), toolAnswer('write_file', { path: 'src/c.ts', content: 'x' }), textAnswer('Edited.'));
    await session.task.send('one');
    await session.task.send('write c.ts', stop.signal);
    expect(events.at(-1)).toEqual({ type: 'idle', reason: 'stopped' });
    await session.task.resend(2, 'do not write anything');
    const sent = bodies().at(-1)!;
    expect(requestProblems(sent)).toEqual([]);
    expect(results(lastUser(sent))).toEqual([]);
    expect(texts(lastUser(sent))[0]).toBe('do not write anything');
  });
});

describe('what each exchange began with', () => {
  it('the user message, the tool steps after it, and a resend are told apart in the exchange events', async () => {
    session = await open();
    server.enqueue(textAnswer('One.'), toolAnswer('read_file', { path: 'src/a.ts' }), textAnswer('It is 41.'), toolAnswer('read_file', { path: 'src/b.ts' }), textAnswer('Edited.'));
    await session.task.send('one');
    await session.task.send('read a');
    await session.task.resend(2, 'read b instead');
    const exchanges = ofType('exchange').map(({ turn, userMessage, changedFiles, resendFrom }) => ({ turn, userMessage, changedFiles, resendFrom }));
    expect(exchanges).toEqual([
      { turn: 1, userMessage: true },
      { turn: 2, userMessage: true },
      { turn: 3 },
      { turn: 4, userMessage: true, resendFrom: 2 },
      { turn: 5 },
    ]);
    for (const e of ofType('exchange')) expect(Object.keys(e)).not.toContain('changedFiles');
    expect(ofType('user_message').map((e) => [e.turn, e.text])).toEqual([
      [1, 'one'],
      [2, 'read a'],
      [4, 'read b instead'],
    ]);
  });

  it('a file changed on disk after the model read it is told once, with the next input; a deleted one says so', async () => {
    let calls = 0;
    session = await open({
      environment: () => {
        calls += 1;
        // after the read of the first step's tools: someone else edits the file
        if (calls === 2) writeFileSync(join(temp.dir, 'ws', 'src', 'a.ts'), 'export const answer = 420000;\n');
        return {};
      },
    });
    server.enqueue(toolAnswer('read_file', { path: 'src/a.ts' }), toolAnswer('read_file', { path: 'src/b.ts' }), textAnswer('Noted.'), textAnswer('Gone.'));
    await session.task.send('read a');
    const sent = bodies();
    const changed = 'Changed on disk since you read them (read again before editing): ';
    expect(texts(lastUser(sent[1]!)).some((t) => t.includes(`${changed}src/a.ts\n`))).toBe(true);
    // told once: the read is forgotten, so the next step's input does not repeat it
    expect(JSON.stringify(lastUser(sent[2]!))).not.toContain(changed);
    expect(ofType('exchange').map((e) => e.changedFiles)).toEqual([undefined, ['src/a.ts'], undefined]);

    rmSync(join(temp.dir, 'ws', 'src', 'b.ts'));
    await session.task.send('what now?');
    expect(texts(lastUser(bodies()[3]!)).some((t) => t.includes(`${changed}src/b.ts (deleted)\n`))).toBe(true);
    expect(ofType('exchange').at(-1)!.changedFiles).toEqual(['src/b.ts']);
  });
});

describe('owed results and caps, exactly', () => {
  it('after the step limit, the next message is the owed results, then the user\'s words: nothing of the stopped step\'s environment', async () => {
    session = await open({ maxSteps: 1, environment: () => ({ terminalOutput: `$ date\n${server.messageRequests.length}` }) });
    server.enqueue(toolAnswer('read_file', { path: 'src/a.ts' }), textAnswer('Done.'));
    await session.task.send('read a');
    expect(events.at(-1)).toEqual({ type: 'idle', reason: 'step_limit' });
    await session.task.send('go on');
    const input = lastUser(bodies()[1]!);
    expect(input.content.map((b) => b.type)).toEqual(['tool_result', 'text', 'text']);
    expect(texts(input)[0]).toBe('go on');
    expect(requestProblems(bodies()[1]!)).toEqual([]);
    // owed once: the message after carries no result again
    server.enqueue(textAnswer('Still done.'));
    await session.task.send('and then?');
    expect(results(lastUser(bodies()[2]!))).toEqual([]);
    // nor does the exchange the engine and the archive got (the engine drops a result answering no call)
    expect(results(ofType('exchange').at(-1)!.input)).toEqual([]);
    expect(requestProblems(bodies()[2]!)).toEqual([]);
  });

  it('a tool call that ran gets a plain result; a recall cut by max_tokens is not run, whatever the recall count says', async () => {
    session = await open();
    server.enqueue(
      textAnswer('Something to recall.'),
      toolAnswer('read_file', { path: 'src/a.ts' }),
      { content: [{ type: 'tool_use', name: 'recall', input: {}, rawJson: '{"ids":["e1"],"format":"fu' }], stopReason: 'max_tokens' },
      textAnswer('Retrying smaller.'),
    );
    await session.task.send('one');
    await session.task.send('read a, then recall e1');
    const sent = bodies();
    const read = results(lastUser(sent[2]!))[0]!;
    expect(read).not.toHaveProperty('is_error');
    const cut = results(lastUser(sent[3]!))[0]!;
    expect(cut.is_error).toBe(true);
    expect(JSON.stringify(cut.content)).toMatch(/max_tokens/);
    expect(JSON.stringify(cut.content)).not.toContain('Something to recall.');
  });

  it('the same read four times in one message runs four times: only recall has a same-call cap', async () => {
    session = await open();
    const read = toolAnswer('read_file', { path: 'src/a.ts' });
    server.enqueue(read, read, read, read, textAnswer('Read four times.'));
    await session.task.send('read it again and again');
    const got = bodies().slice(1).map((b) => results(lastUser(b))[0]!);
    expect(got).toHaveLength(4);
    for (const r of got) expect(JSON.stringify(r.content)).toContain('export const answer = 41;');
  });

  it('different recalls are counted apart: a fourth recall of other ids still runs', async () => {
    session = await open();
    server.enqueue(textAnswer('First answer.'), textAnswer('Second answer.'));
    await session.task.send('one');
    await session.task.send('two');
    const e1 = toolAnswer('recall', { ids: ['e1'], format: 'full' });
    server.enqueue(e1, e1, e1, toolAnswer('recall', { ids: ['e2'], format: 'full' }), textAnswer('Fine.'));
    await session.task.send('three');
    const last = results(lastUser(bodies().at(-1)!))[0]!;
    expect(last.is_error).toBeUndefined();
    expect(JSON.stringify(last.content)).toContain('Second answer.');
  });

  it('the context cap notice says what happened and when the request is served', async () => {
    session = await open();
    server.enqueue(textAnswer('First answer.'));
    await session.task.send('one');
    const asking = textAnswer('Again. <context_request>{"ids":["e1"],"format":"full"}</context_request>');
    server.enqueue(asking, asking, asking, asking, asking, asking);
    await session.task.send('two');
    expect(ofType('notice')).toEqual([
      { type: 'notice', turn: 7, kind: 'context_cap', message: 'The model asked for archived context more than 5 times for one message; the last request is served with your next message.' },
    ]);
  });

  it('pause_turn: a paused answer with tool calls goes on after the pause cap, and the notices say whether it is sent back', async () => {
    session = await open();
    const paused = { content: [{ type: 'text' as const, text: 'Still going.' }], stopReason: 'pause_turn' };
    const pausedWithCall = { content: [{ type: 'tool_use' as const, name: 'read_file', input: { path: 'src/a.ts' } }], stopReason: 'pause_turn' };
    server.enqueue(paused, paused, paused, pausedWithCall, textAnswer('Done.'));
    await session.task.send('long task');
    expect(server.messageRequests).toHaveLength(5);
    const sentBack = 'The API paused this long answer (pause_turn); Strata sends it back so the model continues.';
    expect(ofType('notice').map((n) => n.message)).toEqual([sentBack, sentBack, sentBack, sentBack]);
    expect(events.at(-1)).toEqual({ type: 'idle', reason: 'answered' });
  });

  it('a prompt still too long after the emergency condense fails the turn: one condense, two requests', async () => {
    session = await open();
    server.enqueue(textAnswer('One.'), faults.promptTooLong(250_000, 200_000), faults.promptTooLong(240_000, 200_000), textAnswer('never'));
    await session.task.send('one');
    events = [];
    await session.task.send('two');
    expect(server.messageRequests).toHaveLength(3);
    expect(server.pending).toBe(1);
    expect(ofType('request')).toHaveLength(2);
    expect(ofType('error').map((e) => e.code)).toEqual(['model_prompt_too_long']);
    expect(events.at(-1)).toEqual({ type: 'idle', reason: 'failed' });
  });
});
