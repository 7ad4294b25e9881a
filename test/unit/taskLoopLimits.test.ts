import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../src/adapters/tempFiles';
import { requestProblems } from '../../src/engine/requestValidity';
import type { TaskSession, TaskSessionOptions } from '../../src/host/openTaskSession';
import type { Message, MessagesRequest, ToolResultBlock, ToolUseBlock } from '../../src/shared/messages';
import type { TaskEvent } from '../../src/task/taskEvents';
import { MessagesApiServer } from '../support/messagesApiServer';
import { lastUser, LIVE_TASK_MODEL, openLiveTask, requestBodies } from '../support/liveTask';
import { textAnswer, toolAnswer } from '../support/messagesApiEvents';

const MODEL = LIVE_TASK_MODEL;
const FILE_TEXT = 'export const answer = 41;\n';

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

function text(block: ToolResultBlock): string {
  return typeof block.content === 'string' ? block.content : block.content.map((p) => p.text).join('');
}

beforeEach(async () => {
  server = await MessagesApiServer.start({ models: [{ id: MODEL, max_input_tokens: 200_000, max_tokens: 64_000 }] });
  temp = makeTempDir('strata-limits-');
  mkdirSync(join(temp.dir, 'ws', 'src'), { recursive: true });
  writeFileSync(join(temp.dir, 'ws', 'src', 'a.ts'), FILE_TEXT);
  events = [];
});

afterEach(async () => {
  await session?.close();
  await server.close();
  temp.remove();
});

describe('the loop\'s limits and refusals, exactly', () => {
  it('a refused write with no feedback does not run, and the model is told it was refused', async () => {
    session = await open({ approve: async () => ({ approved: false }) });
    server.enqueue(toolAnswer('write_file', { path: 'src/b.ts', content: 'x' }), textAnswer('Understood.'));
    await session.task.send('Create b.ts');
    expect(existsSync(join(temp.dir, 'ws', 'src', 'b.ts'))).toBe(false);
    const result = results(lastUser(bodies()[1]!))[0]!;
    expect(result.is_error).toBe(true);
    expect(text(result)).toMatch(/^The user refused: .*Nothing was done\.$/);
  });

  it.each([1, 2, 3])('with maxSteps %i, exactly that many model calls per message; the next message carries the last results', async (maxSteps) => {
    session = await open({ maxSteps });
    for (let i = 0; i < maxSteps + 2; i++) server.enqueue(toolAnswer('read_file', { path: 'src/a.ts' }));
    await session.task.send('Keep reading');
    expect(server.messageRequests).toHaveLength(maxSteps);
    expect(events[events.length - 1]).toEqual({ type: 'idle', reason: 'step_limit' });
    // The results of the last step's calls were not lost: they open the next message.
    await session.task.send('go on');
    const next = bodies()[maxSteps]!;
    expect(requestProblems(next)).toEqual([]);
    const owed = results(lastUser(next));
    expect(owed).toHaveLength(1);
    expect(text(owed[0]!)).toContain('export const answer = 41;');
  });

  it('an answer on the last allowed step ends the turn as answered, not at the step limit', async () => {
    session = await open({ maxSteps: 3 });
    server.enqueue(toolAnswer('read_file', { path: 'src/a.ts' }), toolAnswer('read_file', { path: 'src/a.ts' }), textAnswer('Done in three.'));
    await session.task.send('Read twice');
    expect(server.messageRequests).toHaveLength(3);
    expect(events[events.length - 1]).toEqual({ type: 'idle', reason: 'answered' });
  });

  it('after a Stop during tools, the next input carries every owed result: the ones that ran, and "not run" for the rest', async () => {
    const stop = new AbortController();
    session = await open({
      approve: async () => {
        stop.abort();
        return { approved: false, feedback: 'stopped while asking' };
      },
    });
    server.enqueue(
      {
        content: [
          { type: 'tool_use', name: 'read_file', input: { path: 'src/a.ts' } },
          { type: 'tool_use', name: 'write_file', input: { path: 'src/b.ts', content: 'x' } },
          { type: 'tool_use', name: 'list_files', input: { path: 'src' } },
        ],
      },
      textAnswer('Resumed.'),
    );
    await session.task.send('Read, write, list', stop.signal);
    expect(events[events.length - 1]).toEqual({ type: 'idle', reason: 'stopped' });
    expect(server.messageRequests).toHaveLength(1);
    await session.task.send('go on');
    const next = bodies()[1]!;
    expect(requestProblems(next)).toEqual([]);
    const calls = next.messages[next.messages.length - 2]!.content.filter((b): b is ToolUseBlock => b.type === 'tool_use');
    const owed = results(lastUser(next));
    expect(owed.map((r) => r.tool_use_id)).toEqual(calls.map((c) => c.id));
    expect(text(owed[0]!)).toContain('export const answer = 41;');
    expect(text(owed[1]!)).toMatch(/^The user refused: .*stopped while asking/);
    expect(owed[2]).toMatchObject({ is_error: true });
    expect(text(owed[2]!)).toBe('Not run: the user stopped the task before list_files ran.');
    // The user's new words follow the owed results.
    expect(lastUser(next).content.findIndex((b) => b.type === 'text')).toBe(3);
  });
});
