import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../src/adapters/tempFiles';
import { renderChatEvent } from '../../src/cli/chatOutput';
import { taskEventMessages } from '../../src/extension/taskEventMessages';
import type { TaskSession } from '../../src/host/openTaskSession';
import { CONTEXT_FOLLOW_UP, CONTEXT_FOLLOW_UP_LAST } from '../../src/shared/exchangeText';
import type { Message, MessagesRequest, ToolResultBlock } from '../../src/shared/messages';
import type { TaskEvent } from '../../src/task/taskEvents';
import { MessagesApiServer } from '../support/messagesApiServer';
import { lastUser, LIVE_TASK_MODEL, openLiveTask, requestBodies } from '../support/liveTask';
import { textAnswer, toolAnswer } from '../support/messagesApiEvents';

const MODEL = LIVE_TASK_MODEL;

let server: MessagesApiServer;
let temp: { dir: string; remove: () => void };
let session: TaskSession;
let events: TaskEvent[];

async function open(): Promise<TaskSession> {
  return openLiveTask(server, temp.dir, (e) => events.push(e));
}

function bodies(): MessagesRequest[] {
  return requestBodies(server);
}

function texts(message: Message): string[] {
  return message.content.flatMap((b) => (b.type === 'text' ? [b.text] : []));
}

function ofType<T extends TaskEvent['type']>(type: T): Array<Extract<TaskEvent, { type: T }>> {
  return events.filter((e): e is Extract<TaskEvent, { type: T }> => e.type === type);
}

function visible(): string {
  return ofType('text').map((e) => e.text).join('');
}

beforeEach(async () => {
  server = await MessagesApiServer.start({ models: [{ id: MODEL, max_input_tokens: 200_000, max_tokens: 64_000 }] });
  temp = makeTempDir('strata-protocol-');
  mkdirSync(join(temp.dir, 'ws'));
  events = [];
});

afterEach(async () => {
  await session?.close();
  await server.close();
  temp.remove();
});

describe('the protocol cannot hide text, and cannot loop', () => {
  it('an unterminated <housekeeping> in prose is shown, with the rest of the answer, and reported', async () => {
    session = await open();
    const answer = 'Strata asks for a <housekeeping> block at the end of some answers. The fix is in parser.ts, line 12.';
    server.enqueue(textAnswer(answer));
    await session.task.send('What is housekeeping?');
    expect(visible()).toBe(answer);
    expect(ofType('protocol_warning').map((w) => w.message)).toEqual(['<housekeeping> has no closing </housekeeping>; it was shown as text and ignored.']);
  });

  it('malformed housekeeping and context requests are reported as events that --verbose and the webview show', async () => {
    session = await open();
    server.enqueue(textAnswer('Done.\n<housekeeping>{"narrative": {"state": unquoted}}</housekeeping>\n<context_request>{"ids":[]}</context_request>'));
    await session.task.send('Do it');
    expect(visible()).toBe('Done.\n\n');
    const warnings = ofType('protocol_warning');
    expect(warnings.map((w) => w.message)).toEqual([
      '<housekeeping> block is not valid JSON; it was ignored.',
      expect.stringMatching(/^<context_request> block does not match the protocol: /),
    ]);
    let verbose = '';
    let quiet = '';
    renderChatEvent(warnings[0]!, { out: () => {}, err: (s) => (verbose += s), verbose: true });
    renderChatEvent(warnings[0]!, { out: () => {}, err: (s) => (quiet += s), verbose: false });
    expect(verbose).toContain('<housekeeping> block is not valid JSON');
    expect(quiet).toBe('');
    expect(taskEventMessages(warnings[0]!, 'r1')).toEqual([{ type: 'chat/engineEvent', requestId: 'r1', event: { type: 'warning', turn: 1, message: warnings[0]!.message } }]);
  });

  it('context requests get at most five automatic follow-ups per user message; the last one tells the model, the user is told', async () => {
    session = await open();
    server.enqueue(textAnswer('First answer.'));
    await session.task.send('one');
    events = [];
    const asking = textAnswer('Let me look again. <context_request>{"ids":["e1"],"format":"full"}</context_request>');
    server.enqueue(asking, asking, asking, asking, asking, asking, asking, asking);
    await session.task.send('two');
    const sent = bodies().slice(1);
    expect(sent).toHaveLength(6);
    expect(server.pending).toBe(2);
    expect(sent.slice(1, 5).map((b) => texts(lastUser(b))[0])).toEqual([CONTEXT_FOLLOW_UP, CONTEXT_FOLLOW_UP, CONTEXT_FOLLOW_UP, CONTEXT_FOLLOW_UP]);
    expect(texts(lastUser(sent[5]!))[0]).toBe(CONTEXT_FOLLOW_UP_LAST);
    expect(ofType('notice').map((n) => n.kind)).toEqual(['context_cap']);
    expect(events[events.length - 1]).toEqual({ type: 'idle', reason: 'answered' });
    // The next user message starts a fresh count.
    events = [];
    server.enqueue(textAnswer('Done.'), textAnswer('Done.'));
    await session.task.send('three');
    expect(server.pending).toBe(1);
  });

  it('the same recall call runs three times per user message; later ones are answered without running', async () => {
    session = await open();
    server.enqueue(textAnswer('First answer, to recall.'));
    await session.task.send('one');
    const recall = toolAnswer('recall', { ids: ['e1'], format: 'full' });
    server.enqueue(recall, recall, recall, recall, recall, textAnswer('Fine.'));
    await session.task.send('two');
    const sent = bodies().slice(2);
    const results = sent.map((b) => lastUser(b).content[0] as ToolResultBlock);
    expect(results).toHaveLength(5);
    for (const r of results.slice(0, 3)) expect(JSON.stringify(r.content)).toContain('First answer, to recall.');
    for (const r of results.slice(3)) {
      expect(r.is_error).toBe(true);
      expect(r.content).toMatch(/^Not run: this same recall already ran 3 times/);
    }
  });
});
