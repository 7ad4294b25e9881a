import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AnthropicModelClient, DEFAULT_HEADER_TIMEOUT_MS, type AnthropicModelClientOptions } from '../../src/adapters/anthropicModelClient';
import { makeTempDir } from '../../src/adapters/tempFiles';
import { renderChatEvent } from '../../src/cli/chatOutput';
import { taskEventMessages } from '../../src/extension/taskEventMessages';
import type { TaskSession } from '../../src/host/openTaskSession';
import { openTaskSession } from '../../src/host/openTaskSession';
import type { TaskEvent } from '../../src/task/taskEvents';
import { faults, MessagesApiServer } from '../support/messagesApiServer';
import { textAnswer } from '../support/messagesApiEvents';

const MODEL = 'claude-sonnet-5-5';

let server: MessagesApiServer;
let temp: { dir: string; remove: () => void };
let session: TaskSession | undefined;
let events: TaskEvent[];

async function open(client: Partial<AnthropicModelClientOptions>): Promise<TaskSession> {
  const apiKey = `sk-ant-test-${Date.now()}`;
  const s = await openTaskSession({
    workspaceRoot: join(temp.dir, 'ws'),
    archivePath: join(temp.dir, 'archive.sqlite'),
    apiKey,
    baseURL: server.url,
    model: MODEL,
    frontEnd: 'test',
    modelClient: new AnthropicModelClient({ apiKey, baseURL: server.url, ...client }),
    approve: async () => ({ approved: true }),
    logger: { info: () => {}, warn: () => {}, error: () => {} },
  });
  s.task.onEvent((e) => events.push(e));
  return s;
}

function ofType<T extends TaskEvent['type']>(type: T): Array<Extract<TaskEvent, { type: T }>> {
  return events.filter((e): e is Extract<TaskEvent, { type: T }> => e.type === type);
}

beforeEach(async () => {
  server = await MessagesApiServer.start({ models: [{ id: MODEL, max_input_tokens: 200_000, max_tokens: 64_000 }] });
  temp = makeTempDir('strata-waits-');
  mkdirSync(join(temp.dir, 'ws'));
  events = [];
});

afterEach(async () => {
  await session?.close();
  session = undefined;
  await server.close();
  temp.remove();
});

describe('long waits: no silent wait, every wait can be stopped', () => {
  it('waits at most about two minutes for the response headers by default', () => {
    expect(DEFAULT_HEADER_TIMEOUT_MS).toBeLessThanOrEqual(120_000);
    expect(new AnthropicModelClient({ apiKey: 'k' }).headerTimeoutMs).toBe(DEFAULT_HEADER_TIMEOUT_MS);
  });

  it('a stall before the headers hits the header timeout, then the normal retry gets the answer', async () => {
    session = await open({ headerTimeoutMs: 300, maxRetries: 2 });
    server.enqueue(faults.stall(textAnswer('never sent'), 10_000), textAnswer('Answered on the retry.'));
    const started = Date.now();
    await session.task.send('hello');
    expect(Date.now() - started).toBeLessThan(8_000);
    expect(server.messageRequests).toHaveLength(2);
    expect(ofType('text').map((e) => e.text).join('')).toBe('Answered on the retry.');
  });

  it('a stall before the headers on every try fails the turn, says so, and archives it', async () => {
    session = await open({ headerTimeoutMs: 200, maxRetries: 1 });
    server.enqueue(faults.stall(textAnswer('x'), 10_000), faults.stall(textAnswer('x'), 10_000));
    await session.task.send('are you there?');
    expect(ofType('error')[0]?.message).toMatch(/no response within 200 ms/);
    expect(events[events.length - 1]).toEqual({ type: 'idle', reason: 'failed' });
    const archived = JSON.stringify(session.archive.get(session.sessionId, 1)?.full);
    expect(archived).toContain('are you there?');
    expect(archived).toContain('no complete answer');
  });

  it('a retry-after above the limit is announced before the wait, and Stop ends the wait at once', async () => {
    session = await open({ longWaitMs: 1_000, maxRetries: 2 });
    server.enqueue(faults.rateLimited(100), textAnswer('too late'));
    const stop = new AbortController();
    const announced = new Promise<void>((resolve) => session!.task.onEvent((e) => e.type === 'waiting' && resolve()));
    const started = Date.now();
    const sent = session.task.send('hello', stop.signal);
    await announced;
    stop.abort();
    await sent;
    expect(Date.now() - started).toBeLessThan(10_000);
    const waiting = ofType('waiting');
    expect(waiting).toHaveLength(1);
    expect(waiting[0]!.ms).toBe(100_000);
    expect(waiting[0]!.message).toMatch(/wait 100 s .*rate limited.*stop the task/);
    expect(server.messageRequests).toHaveLength(1);
    expect(events[events.length - 1]).toEqual({ type: 'idle', reason: 'stopped' });
    expect(JSON.stringify(session.archive.get(session.sessionId, 1)?.full)).toContain('hello');
  });

  it('a retry-after within the limit is waited without a notice; one above the longest wait fails at once, saying how long', async () => {
    session = await open({ longWaitMs: 5_000, maxWaitMs: 60_000, maxRetries: 2 });
    server.enqueue(faults.rateLimited(1), textAnswer('After a short wait.'));
    await session.task.send('one');
    expect(ofType('waiting')).toEqual([]);
    expect(ofType('text').map((e) => e.text).join('')).toBe('After a short wait.');

    events = [];
    server.enqueue(faults.rateLimited(3600), textAnswer('never'));
    const started = Date.now();
    await session.task.send('two');
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(server.pending).toBe(1);
    const error = ofType('error')[0]!;
    expect(error.code).toBe('model_rate_limited');
    expect(error.message).toMatch(/asked to wait 3600 s \(about 60 min\).*Send the message again later/);
  });

  it('the terminal prints the wait with how to stop it; the webview shows it as a warning row', () => {
    const event: TaskEvent = { type: 'waiting', turn: 3, ms: 100_000, message: 'The model API asked to wait 100 s before trying again (HTTP 429, rate limited).' };
    let err = '';
    renderChatEvent(event, { out: () => {}, err: (s) => (err += s), verbose: false });
    expect(err).toMatch(/waiting 100 s: .*HTTP 429.*Ctrl\+C stops/);
    expect(taskEventMessages(event, 'r1')).toEqual([{ type: 'chat/engineEvent', requestId: 'r1', event: { type: 'warning', turn: 3, message: event.message } }]);
  });
});
