import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { requestProblems } from '../../src/engine/requestValidity';
import type { Message } from '../../src/shared/messages';
import type { TaskEvent } from '../../src/task/taskEvents';
import { faults } from '../support/messagesApiServer';
import { lastUser } from '../support/liveTask';
import { toolResults, useLiveTask } from '../support/liveTaskHarness';
import { textAnswer, toolAnswer } from '../support/messagesApiEvents';

/** The loop's edges over a whole session: busy sends, concurrent resends, owed results, changed files, caps. */
const live = useLiveTask('strata-edges-', { 'src/a.ts': 'export const answer = 41;\n', 'src/b.ts': 'export const other = 1;\n' });

/** Resolves at the first event of `type` the task emits from now on. */
function next(type: TaskEvent['type']): Promise<void> {
  return new Promise((resolve) => {
    const off = live.session.task.onEvent((e) => {
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

describe('one message at a time', () => {
  it('a send while a turn runs is refused with task_busy, and the running turn finishes undisturbed', async () => {
    await live.open();
    live.server.enqueue(faults.stall(textAnswer('Slow words, then the rest.'), 300, 4), textAnswer('Second.'));
    const first = live.session.task.send('first');
    await next('text');
    expect(live.session.task.busy).toBe(true);
    await expect(live.session.task.send('second')).rejects.toMatchObject({ code: 'task_busy', message: expect.stringMatching(/^The task is already running; stop it or wait/) });
    await first;
    expect(live.session.task.busy).toBe(false);
    expect(live.events.at(-1)).toEqual({ type: 'idle', reason: 'answered' });
    expect(live.server.messageRequests).toHaveLength(1);
    await live.session.task.send('second');
    expect(live.server.messageRequests).toHaveLength(2);
  });

  it('of two resends during one turn, the first runs and the second is refused while the first runs', async () => {
    await live.open();
    live.server.enqueue(textAnswer('One.'), faults.stall(textAnswer('Two, slowly and then'), 5_000, 4), textAnswer('Edited.'));
    await live.session.task.send('one');
    const running = live.session.task.send('two');
    await next('text');
    const firstResend = live.session.task.resend(2, 'two, edited');
    const secondResend = live.session.task.resend(2, 'two, edited again');
    await expect(secondResend).rejects.toMatchObject({ code: 'task_busy', message: expect.stringMatching(/^The task is still finishing the stopped turn/) });
    await running;
    await firstResend;
    expect(live.ofType('resent')).toEqual([{ type: 'resent', from: 2, by: 3, superseded: [2] }]);
    expect(JSON.stringify(live.bodies().at(-1)!.messages)).toContain('two, edited');
    expect(JSON.stringify(live.bodies().at(-1)!.messages)).not.toContain('edited again');
  });

  it('a resend after a Stop during tools drops the owed results: the new message answers no superseded call', async () => {
    const stop = new AbortController();
    await live.open({
      approve: async () => {
        stop.abort();
        return { approved: true };
      },
    });
    live.server.enqueue(textAnswer('One.'), toolAnswer('write_file', { path: 'src/c.ts', content: 'x' }), textAnswer('Edited.'));
    await live.session.task.send('one');
    await live.session.task.send('write c.ts', stop.signal);
    expect(live.events.at(-1)).toEqual({ type: 'idle', reason: 'stopped' });
    await live.session.task.resend(2, 'do not write anything');
    const sent = live.bodies().at(-1)!;
    expect(requestProblems(sent)).toEqual([]);
    expect(toolResults(lastUser(sent))).toEqual([]);
    expect(texts(lastUser(sent))[0]).toBe('do not write anything');
  });
});

describe('what each exchange began with', () => {
  it('the user message, the tool steps after it, and a resend are told apart in the exchange events', async () => {
    await live.open();
    live.server.enqueue(textAnswer('One.'), toolAnswer('read_file', { path: 'src/a.ts' }), textAnswer('It is 41.'), toolAnswer('read_file', { path: 'src/b.ts' }), textAnswer('Edited.'));
    await live.session.task.send('one');
    await live.session.task.send('read a');
    await live.session.task.resend(2, 'read b instead');
    const exchanges = live.ofType('exchange').map(({ turn, userMessage, changedFiles, resendFrom }) => ({ turn, userMessage, changedFiles, resendFrom }));
    expect(exchanges).toEqual([
      { turn: 1, userMessage: true },
      { turn: 2, userMessage: true },
      { turn: 3 },
      { turn: 4, userMessage: true, resendFrom: 2 },
      { turn: 5 },
    ]);
    for (const e of live.ofType('exchange')) {
      expect(Object.keys(e)).not.toContain('changedFiles');
      if (e.turn !== 4) expect(Object.keys(e)).not.toContain('resendFrom');
    }
    expect(live.ofType('user_message').map((e) => [e.turn, e.text])).toEqual([
      [1, 'one'],
      [2, 'read a'],
      [4, 'read b instead'],
    ]);
  });

  it('a file changed on disk after the model read it is told once, with the next input; a deleted one says so', async () => {
    let calls = 0;
    await live.open({
      environment: () => {
        calls += 1;
        // after the read of the first step's tools: someone else edits the file
        if (calls === 2) writeFileSync(join(live.dir, 'ws', 'src', 'a.ts'), 'export const answer = 420000;\n');
        return {};
      },
    });
    live.server.enqueue(toolAnswer('read_file', { path: 'src/a.ts' }), toolAnswer('read_file', { path: 'src/b.ts' }), textAnswer('Noted.'), textAnswer('Gone.'));
    await live.session.task.send('read a');
    const sent = live.bodies();
    const changed = 'Changed on disk since you read them (read again before editing): ';
    expect(texts(lastUser(sent[1]!)).some((t) => t.includes(`${changed}src/a.ts\n`))).toBe(true);
    // told once: the read is forgotten, so the next step's input does not repeat it
    expect(JSON.stringify(lastUser(sent[2]!))).not.toContain(changed);
    expect(live.ofType('exchange').map((e) => e.changedFiles)).toEqual([undefined, ['src/a.ts'], undefined]);

    rmSync(join(live.dir, 'ws', 'src', 'b.ts'));
    await live.session.task.send('what now?');
    expect(texts(lastUser(live.bodies()[3]!)).some((t) => t.includes(`${changed}src/b.ts (deleted)\n`))).toBe(true);
    expect(live.ofType('exchange').at(-1)!.changedFiles).toEqual(['src/b.ts']);
  });
});

describe('the environment of a tool step', () => {
  it('an unchanged terminal tail is left out, and the rest of the environment still goes', async () => {
    await live.open({ environment: () => ({ terminalOutput: '$ npm test\nFAIL a.test.ts', activeFile: 'src/a.ts' }) });
    live.server.enqueue(toolAnswer('read_file', { path: 'src/a.ts' }), textAnswer('Read.'));
    await live.session.task.send('read a');
    const [first, step] = live.bodies().map((b) => texts(lastUser(b)).join('\n'));
    expect(first).toContain('FAIL a.test.ts');
    expect(step).not.toContain('FAIL a.test.ts');
    expect(step).toMatch(/<environment>\nTime: .*\nActive file: src\/a\.ts\n<\/environment>/);
  });
});

describe('owed results and caps, exactly', () => {
  it('after the step limit, the next message is the owed results, then the user\'s words: nothing of the stopped step\'s environment', async () => {
    await live.open({ maxSteps: 1, environment: () => ({ terminalOutput: `$ date\n${live.server.messageRequests.length}` }) });
    live.server.enqueue(toolAnswer('read_file', { path: 'src/a.ts' }), textAnswer('Done.'));
    await live.session.task.send('read a');
    expect(live.events.at(-1)).toEqual({ type: 'idle', reason: 'step_limit' });
    await live.session.task.send('go on');
    const input = lastUser(live.bodies()[1]!);
    expect(input.content.map((b) => b.type)).toEqual(['tool_result', 'text', 'text']);
    expect(texts(input)[0]).toBe('go on');
    expect(requestProblems(live.bodies()[1]!)).toEqual([]);
    // owed once: the message after carries no result again
    live.server.enqueue(textAnswer('Still done.'));
    await live.session.task.send('and then?');
    expect(toolResults(lastUser(live.bodies()[2]!))).toEqual([]);
    // nor does the exchange the engine and the archive got (the engine drops a result answering no call)
    expect(toolResults(live.ofType('exchange').at(-1)!.input)).toEqual([]);
    expect(requestProblems(live.bodies()[2]!)).toEqual([]);
  });

  it('a tool call that ran gets a plain result; a recall cut by max_tokens is not run, whatever the recall count says', async () => {
    await live.open();
    live.server.enqueue(
      textAnswer('Something to recall.'),
      toolAnswer('read_file', { path: 'src/a.ts' }),
      { content: [{ type: 'tool_use', name: 'recall', input: {}, rawJson: '{"ids":["e1"],"format":"fu' }], stopReason: 'max_tokens' },
      textAnswer('Retrying smaller.'),
    );
    await live.session.task.send('one');
    await live.session.task.send('read a, then recall e1');
    const sent = live.bodies();
    const read = toolResults(lastUser(sent[2]!))[0]!;
    expect(read).not.toHaveProperty('is_error');
    const cut = toolResults(lastUser(sent[3]!))[0]!;
    expect(cut.is_error).toBe(true);
    expect(JSON.stringify(cut.content)).toMatch(/max_tokens/);
    expect(JSON.stringify(cut.content)).not.toContain('Something to recall.');
  });

  it('the same read four times in one message runs four times: only recall has a same-call cap', async () => {
    await live.open();
    const read = toolAnswer('read_file', { path: 'src/a.ts' });
    live.server.enqueue(read, read, read, read, textAnswer('Read four times.'));
    await live.session.task.send('read it again and again');
    const got = live.bodies().slice(1).map((b) => toolResults(lastUser(b))[0]!);
    expect(got).toHaveLength(4);
    for (const r of got) expect(JSON.stringify(r.content)).toContain('export const answer = 41;');
  });

  it('different recalls are counted apart: a fourth recall of other ids still runs', async () => {
    await live.open();
    live.server.enqueue(textAnswer('First answer.'), textAnswer('Second answer.'));
    await live.session.task.send('one');
    await live.session.task.send('two');
    const e1 = toolAnswer('recall', { ids: ['e1'], format: 'full' });
    live.server.enqueue(e1, e1, e1, toolAnswer('recall', { ids: ['e2'], format: 'full' }), textAnswer('Fine.'));
    await live.session.task.send('three');
    const last = toolResults(lastUser(live.bodies().at(-1)!))[0]!;
    expect(last.is_error).toBeUndefined();
    expect(JSON.stringify(last.content)).toContain('Second answer.');
  });

  it('the context cap notice says what happened and when the request is served', async () => {
    await live.open();
    live.server.enqueue(textAnswer('First answer.'));
    await live.session.task.send('one');
    const asking = textAnswer('Again. <context_request>{"ids":["e1"],"format":"full"}</context_request>');
    live.server.enqueue(asking, asking, asking, asking, asking, asking);
    await live.session.task.send('two');
    expect(live.ofType('notice')).toEqual([
      { type: 'notice', turn: 7, kind: 'context_cap', message: 'The model asked for archived context more than 5 times for one message; the last request is served with your next message.' },
    ]);
  });

  it('pause_turn: a paused answer with tool calls goes on after the pause cap, and the notices say whether it is sent back', async () => {
    await live.open();
    const paused = { content: [{ type: 'text' as const, text: 'Still going.' }], stopReason: 'pause_turn' };
    const pausedWithCall = { content: [{ type: 'tool_use' as const, name: 'read_file', input: { path: 'src/a.ts' } }], stopReason: 'pause_turn' };
    live.server.enqueue(paused, paused, paused, pausedWithCall, textAnswer('Done.'));
    await live.session.task.send('long task');
    expect(live.server.messageRequests).toHaveLength(5);
    const sentBack = 'The API paused this long answer (pause_turn); Strata sends it back so the model continues.';
    expect(live.ofType('notice').map((n) => n.message)).toEqual([sentBack, sentBack, sentBack, sentBack]);
    expect(live.events.at(-1)).toEqual({ type: 'idle', reason: 'answered' });
  });

  it('a prompt still too long after the emergency condense fails the turn: one condense, two requests', async () => {
    await live.open();
    live.server.enqueue(textAnswer('One.'), faults.promptTooLong(250_000, 200_000), faults.promptTooLong(240_000, 200_000), textAnswer('never'));
    await live.session.task.send('one');
    live.events = [];
    await live.session.task.send('two');
    expect(live.server.messageRequests).toHaveLength(3);
    expect(live.server.pending).toBe(1);
    expect(live.ofType('request')).toHaveLength(2);
    expect(live.ofType('error').map((e) => e.code)).toEqual(['model_prompt_too_long']);
    expect(live.events.at(-1)).toEqual({ type: 'idle', reason: 'failed' });
  });
});
