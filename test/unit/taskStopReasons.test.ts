import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../src/adapters/tempFiles';
import { requestProblems } from '../../src/engine/requestValidity';
import type { TaskSession } from '../../src/host/openTaskSession';
import { PAUSE_FOLLOW_UP } from '../../src/shared/exchangeText';
import type { ContentBlock, Message, MessagesRequest, ToolResultBlock, ToolUseBlock } from '../../src/shared/messages';
import type { TaskEvent } from '../../src/task/taskEvents';
import { faults, MessagesApiServer } from '../support/messagesApiServer';
import { lastUser, LIVE_TASK_MODEL, openLiveTask, requestBodies } from '../support/liveTask';
import { textAnswer } from '../support/messagesApiEvents';

const MODEL = LIVE_TASK_MODEL;

let server: MessagesApiServer;
let temp: { dir: string; remove: () => void };
let session: TaskSession;
let events: TaskEvent[];
let approvals: number;

async function open(): Promise<TaskSession> {
  return openLiveTask(server, temp.dir, (e) => events.push(e), {
    approve: async () => {
      approvals += 1;
      return { approved: true };
    },
  });
}

function bodies(): MessagesRequest[] {
  return requestBodies(server);
}

function toolUses(body: MessagesRequest): ToolUseBlock[] {
  return body.messages.flatMap((m) => m.content.filter((b): b is ToolUseBlock => b.type === 'tool_use'));
}

function results(message: Message): ToolResultBlock[] {
  return message.content.filter((b): b is ToolResultBlock => b.type === 'tool_result');
}

function resultText(block: ToolResultBlock): string {
  return typeof block.content === 'string' ? block.content : block.content.map((p) => p.text).join('');
}

function ofType<T extends TaskEvent['type']>(type: T): Array<Extract<TaskEvent, { type: T }>> {
  return events.filter((e): e is Extract<TaskEvent, { type: T }> => e.type === type);
}

function archivedText(seq: number): string {
  return JSON.stringify(session.archive.get(session.sessionId, seq)?.full);
}

beforeEach(async () => {
  server = await MessagesApiServer.start({ models: [{ id: MODEL, max_input_tokens: 200_000, max_tokens: 64_000 }] });
  temp = makeTempDir('strata-stops-');
  mkdirSync(join(temp.dir, 'ws', 'src'), { recursive: true });
  writeFileSync(join(temp.dir, 'ws', 'src', 'a.ts'), 'export const answer = 41;\n');
  events = [];
  approvals = 0;
});

afterEach(async () => {
  await session?.close();
  await server.close();
  temp.remove();
});

describe('stop reasons and unusable tool input, over the real SDK', () => {
  it('max_tokens in the middle of a tool call: the cut call is not run, the user is told, the model is told why, the next request is valid', async () => {
    session = await open();
    const cutJson = '{"path":"src/big.ts","content":"export const table = [1, 2, 3, 4';
    server.enqueue(
      { content: [{ type: 'text', text: 'Writing the file.' }, { type: 'tool_use', name: 'write_file', input: {}, rawJson: cutJson }], stopReason: 'max_tokens' },
      textAnswer('I will write it in two parts.'),
    );
    await session.task.send('Write src/big.ts');

    expect(approvals).toBe(0);
    expect(existsSync(join(temp.dir, 'ws', 'src', 'big.ts'))).toBe(false);
    const notice = ofType('notice');
    expect(notice.map((n) => n.kind)).toEqual(['max_tokens']);
    expect(notice[0]!.message).toContain('write_file');
    const sent = bodies();
    expect(sent).toHaveLength(2);
    // The cut call goes back with an object input, answered by an error result that says why.
    const cut = toolUses(sent[1]!)[0]!;
    expect(cut.input).toEqual({});
    const answer = results(lastUser(sent[1]!));
    expect(answer).toHaveLength(1);
    expect(answer[0]).toMatchObject({ tool_use_id: cut.id, is_error: true });
    expect(resultText(answer[0]!)).toMatch(/max_tokens/);
    expect(resultText(answer[0]!)).not.toMatch(/Invalid input/);
    expect(requestProblems(sent[1]!)).toEqual([]);
    expect(ofType('error')).toEqual([]);
    expect(events[events.length - 1]).toEqual({ type: 'idle', reason: 'answered' });
  });

  it('max_tokens after plain text: the user is told the answer was cut; the turn ends', async () => {
    session = await open();
    server.enqueue({ content: [{ type: 'text', text: 'A long explanation that goes on and' }], stopReason: 'max_tokens' });
    await session.task.send('Explain');
    expect(ofType('notice').map((n) => n.kind)).toEqual(['max_tokens']);
    expect(ofType('notice')[0]!.message).toMatch(/continue/);
    expect(server.messageRequests).toHaveLength(1);
  });

  it('invalid JSON in a tool input: the parse error is the tool result, nothing runs, the user is told', async () => {
    session = await open();
    server.enqueue(
      { content: [{ type: 'tool_use', name: 'write_file', input: {}, rawJson: '{"path": src/c.ts, "content": "x"}' }] },
      textAnswer('Fixed my JSON.'),
    );
    await session.task.send('Create c.ts');
    expect(approvals).toBe(0);
    const answer = results(lastUser(bodies()[1]!));
    expect(resultText(answer[0]!)).toMatch(/not valid JSON/);
    expect(resultText(answer[0]!)).not.toMatch(/Invalid input/);
    expect(ofType('notice').map((n) => n.kind)).toEqual(['tool_input']);
  });

  it('a null tool input is never re-sent: the request carries an object, later requests too, and the request check refuses a non-object', async () => {
    session = await open();
    server.enqueue({ content: [{ type: 'tool_use', name: 'read_file', input: {}, rawJson: 'null' }] }, textAnswer('Sorry.'), textAnswer('Next.'));
    await session.task.send('Read something');
    await session.task.send('Go on');
    const sent = bodies();
    expect(sent).toHaveLength(3);
    for (const body of sent.slice(1)) {
      for (const use of toolUses(body)) expect(use.input).toEqual({});
      expect(requestProblems(body)).toEqual([]);
    }
    expect(resultText(results(lastUser(sent[1]!))[0]!)).toMatch(/must be a JSON object, not null/);
    const withNull: MessagesRequest = {
      system: [],
      tools: [],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'hi' }] },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'read_file', input: null }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'x' }] },
      ],
    };
    expect(requestProblems(withNull)).toEqual(['message 1 block 0: tool_use toolu_1 has an input that is not an object']);
  });

  it('refusal: the user is told, the turn ends cleanly and is archived, a tool call of the refused answer never runs', async () => {
    session = await open();
    server.enqueue(
      { content: [{ type: 'text', text: 'I can begin with' }, { type: 'tool_use', name: 'write_file', input: { path: 'src/r.ts', content: 'x' } }], stopReason: 'refusal' },
      textAnswer('Something else, then.'),
    );
    await session.task.send('Do the thing');
    expect(approvals).toBe(0);
    expect(existsSync(join(temp.dir, 'ws', 'src', 'r.ts'))).toBe(false);
    expect(ofType('notice').map((n) => n.kind)).toEqual(['refusal']);
    expect(ofType('error')).toEqual([]);
    expect(events[events.length - 1]).toEqual({ type: 'idle', reason: 'answered' });
    expect(server.messageRequests).toHaveLength(1);
    expect(archivedText(1)).toContain('I can begin with');
    // The refused answer's call is answered "not run" with the next message, so the request is valid.
    await session.task.send('Something else');
    const next = bodies()[1]!;
    expect(requestProblems(next)).toEqual([]);
    expect(resultText(results(lastUser(next))[0]!)).toMatch(/^Not run: .*refusal/);
  });

  it('pause_turn: the answer is sent back so the model continues, at most three times per message', async () => {
    session = await open();
    server.enqueue({ content: [{ type: 'text', text: 'Part one.' }], stopReason: 'pause_turn' }, textAnswer('Part two.'));
    await session.task.send('Long task');
    const sent = bodies();
    expect(sent).toHaveLength(2);
    // The paused answer is in the second request, followed by the loop's own continue input.
    expect(JSON.stringify(sent[1]!.messages)).toContain('Part one.');
    expect(lastUser(sent[1]!).content.some((b: ContentBlock) => b.type === 'text' && b.text === PAUSE_FOLLOW_UP)).toBe(true);
    expect(ofType('text').map((t) => t.text).join('')).toMatch(/Part one\.[\s\S]*Part two\./);

    events = [];
    const paused = { content: [{ type: 'text' as const, text: 'Still going.' }], stopReason: 'pause_turn' };
    server.enqueue(paused, paused, paused, paused, paused);
    await session.task.send('Another long task');
    expect(server.messageRequests).toHaveLength(2 + 4);
    expect(server.pending).toBe(1);
    expect(ofType('notice').map((n) => n.kind)).toEqual(['pause_turn', 'pause_turn', 'pause_turn', 'pause_turn']);
    expect(ofType('notice')[3]!.message).toMatch(/send a message/);
    expect(events[events.length - 1]).toEqual({ type: 'idle', reason: 'answered' });
  });

  it('an in-stream error after a finished tool call: the user is told, the partial answer is archived, the call is answered "not run" next', async () => {
    session = await open();
    const answer = { content: [{ type: 'text' as const, text: 'Reading first.' }, { type: 'tool_use' as const, name: 'read_file', input: { path: 'src/a.ts' } }, { type: 'text' as const, text: 'and then more words' }] };
    // message_start, text start, ping, 2 deltas, stop, tool start, 4 deltas, stop: then the error.
    server.enqueue(faults.streamOverloaded(answer, 13), textAnswer('Recovered.'));
    await session.task.send('Read a.ts');
    expect(ofType('error')).toHaveLength(1);
    expect(ofType('error')[0]!.code).toBe('model_overloaded');
    expect(events[events.length - 1]).toEqual({ type: 'idle', reason: 'failed' });
    expect(archivedText(1)).toContain('Reading first.');
    expect(archivedText(1)).toContain('no complete answer');
    await session.task.send('Try again');
    const next = bodies()[1]!;
    expect(requestProblems(next)).toEqual([]);
    expect(resultText(results(lastUser(next))[0]!)).toMatch(/^Not run: /);
  });
});
