import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../src/adapters/tempFiles';
import type { TaskSession } from '../../src/host/openTaskSession';
import { openTaskSession } from '../../src/host/openTaskSession';
import type { MessagesRequest } from '../../src/shared/messages';
import type { TaskEvent } from '../../src/task/taskEvents';
import { faults, MessagesApiServer } from '../support/messagesApiServer';
import { textAnswer, toolAnswer } from '../support/messagesApiEvents';

const MODEL = 'claude-sonnet-5-5';
let server: MessagesApiServer;
let temp: { dir: string; remove: () => void };
let session: TaskSession | undefined;
let events: TaskEvent[];

async function open(): Promise<TaskSession> {
  const s = await openTaskSession({
    workspaceRoot: join(temp.dir, 'ws'),
    archivePath: join(temp.dir, 'archive.sqlite'),
    apiKey: 'sk-ant-test-resend',
    baseURL: server.url,
    model: MODEL,
    frontEnd: 'test',
    sessionId: 's-resend',
    approve: async () => ({ approved: true }),
    logger: { info: () => {}, warn: () => {}, error: () => {} },
  });
  s.task.onEvent((e) => events.push(e));
  return s;
}

function bodies(): MessagesRequest[] {
  return server.messageRequests.map((r) => r.body as MessagesRequest);
}

beforeEach(async () => {
  server = await MessagesApiServer.start({ models: [{ id: MODEL, max_input_tokens: 200_000, max_tokens: 64_000 }] });
  temp = makeTempDir('strata-resend-');
  mkdirSync(join(temp.dir, 'ws', 'src'), { recursive: true });
  writeFileSync(join(temp.dir, 'ws', 'src', 'a.ts'), 'export const answer = 41;\n');
  events = [];
});

afterEach(async () => {
  await session?.close();
  session = undefined;
  await server.close();
  temp.remove();
});

describe('Task.resend over the real SDK and the local Messages API server', () => {
  it('a resend stopped before its message begins supersedes nothing (the marks would have no exchange to travel with)', async () => {
    session = await open();
    server.enqueue(textAnswer('First answer.'), textAnswer('Second answer.'));
    await session.task.send('first question');
    await session.task.send('second question');
    const stopped = new AbortController();
    stopped.abort();
    await session.task.resend(2, 'second question, edited', stopped.signal);
    expect(events.filter((e) => e.type === 'resent')).toEqual([]);
    expect(events.at(-1)).toEqual({ type: 'idle', reason: 'stopped' });
    expect(session.engine.aliases()).toEqual({});
    expect(server.messageRequests).toHaveLength(2);
  });

  it('stops the running turn, supersedes the exchanges from the edited message on, and sends as if they never happened', async () => {
    session = await open();
    const task = session.task;
    server.enqueue(
      textAnswer('First answer.'),
      toolAnswer('read_file', { path: 'src/a.ts' }),
      textAnswer('It is 41.'),
      faults.stall(textAnswer('Third answer words, then a stall'), 5_000, 4),
      textAnswer('Edited answer.'),
    );
    await task.send('first question');
    await task.send('second question: what is the answer?');
    const third = task.send('third question');
    await new Promise<void>((resolve) => {
      const off = task.onEvent((e) => {
        if (e.type === 'text') {
          off();
          resolve();
        }
      });
    });
    const resent = task.resend(2, 'second question, edited: what is the answer times two?');
    await third;
    await resent;

    expect(events.filter((e) => e.type === 'user_message').map((e) => (e.type === 'user_message' ? e.turn : 0))).toEqual([1, 2, 4, 5]);
    expect(events).toContainEqual({ type: 'resent', from: 2, by: 5, superseded: [2, 3, 4] });
    expect(events.findIndex((e) => e.type === 'idle' && e.reason === 'stopped')).toBeLessThan(events.findIndex((e) => e.type === 'resent'));

    const sent = bodies();
    const last = sent[sent.length - 1]!;
    const lastText = JSON.stringify(last.messages);
    expect(last.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(lastText).toContain('first question');
    expect(lastText).toContain('First answer.');
    expect(lastText).toContain('times two');
    expect(lastText).not.toMatch(/second question: what|It is 41|third question|Third answer/);
    expect(events[events.length - 1]).toEqual({ type: 'idle', reason: 'answered' });

    const archive = session.archive;
    expect([1, 2, 3, 4, 5].map((seq) => archive.get('s-resend', seq)?.supersededBy)).toEqual([undefined, 5, 5, 5, undefined]);
    expect(JSON.stringify(archive.get('s-resend', 4)?.full)).toContain('[stopped by the user]');
    expect(session.engine.retrieve(['e3'], 'full')).toContain('[e3 is superseded: the user edited an earlier message and resent it as e5');

    await session.close();
    session = await open();
    expect(session.engine.aliases()).toEqual({ e2: 'e5', e3: 'e5', e4: 'e5' });
    server.enqueue(textAnswer('Resumed.'));
    await session.task.send('and now?');
    const resumed = JSON.stringify(bodies()[bodies().length - 1]!.messages);
    expect(resumed).toContain('times two');
    expect(resumed).not.toMatch(/It is 41|third question/);
  });

  it('refuses a resend from an id that is not in the conversation, with a message, and the session goes on', async () => {
    session = await open();
    server.enqueue(textAnswer('One.'), textAnswer('Two.'));
    await session.task.send('one');
    await expect(session.task.resend(7, 'x')).rejects.toThrow(/Cannot resend from e7: it is not an exchange of this session/);
    await session.task.send('two');
    expect(events.filter((e) => e.type === 'idle').length).toBe(2);
  });
});
