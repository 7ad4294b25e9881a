import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ContentBlock, Message, MessagesRequest } from '../../src/shared/messages';
import { resolveEngineSettings } from '../../src/shared/engineSettings';
import type { EngineSettings } from '../../src/shared/engineSettings';
import { assertValidRequest, requestProblems } from '../../src/engine/requestValidity';
import { NO_RESULT_TEXT } from '../../src/engine/liveExchange';
import { StrataError } from '../../src/engine/ports';
import { openSqliteArchive } from '../../src/adapters/sqliteArchiveStore';
import { readSessionFile } from '../../src/adapters/sessionFileReader';
import { createTiktokenTokenizer } from '../../src/adapters/tiktokenTokenizer';
import { makeTempDir } from '../../src/adapters/tempFiles';
import { replaySession } from '../../src/host/replaySession';
import type { ReplayTurn } from '../../src/host/replaySession';
import { assistant, drive, makeEngine, silentLogger, text, toolResult, toolUse, user } from '../support/engineHarness';

const mark = { type: 'ephemeral' } as const;

/** A valid request: text, a call, its result, an answer, a new question; two breakpoints. */
function base(): MessagesRequest {
  return {
    system: [{ type: 'text', text: 'sys', cache_control: mark }],
    messages: [
      user(text('task')),
      assistant(text('reading'), toolUse('a', 'Read', { file_path: 'x' }), toolUse('b', 'Bash', { command: 'ls' })),
      user(toolResult('a', 'file'), toolResult('b', 'out'), { type: 'text', text: 'and then?', cache_control: mark }),
      assistant(text('done')),
      user(text('next')),
    ],
    tools: [],
  };
}

function withMessage(index: number, content: ContentBlock[], role?: Message['role']): MessagesRequest {
  const request = base();
  request.messages[index] = { role: role ?? request.messages[index]!.role, content };
  return request;
}

describe('requestProblems: each Messages API rule, one breakage each', () => {
  it('accepts a valid request', () => {
    expect(requestProblems(base())).toEqual([]);
  });

  it('first message from the assistant, and two user messages in a row', () => {
    const r = base();
    r.messages = r.messages.slice(1);
    expect(requestProblems(r)).toEqual(['message 0 is from the assistant; the first message must be the user\'s']);
    const twice = base();
    twice.messages.splice(4, 0, user(text('again')));
    expect(requestProblems(twice)).toEqual(['messages 4 and 5 are both from the user; roles must alternate']);
    expect(requestProblems({ ...base(), messages: [] })).toEqual(['the request has no messages']);
  });

  it('two assistant messages in a row are one problem: the second is not asked to answer the first one\'s calls', () => {
    const r = base();
    r.messages = [user(text('task')), assistant(toolUse('a', 'Read', { file_path: 'x' })), assistant(text('done')), user(text('next'))];
    expect(requestProblems(r)).toEqual(['messages 1 and 2 are both from the assistant; roles must alternate']);
  });

  it('empty content arrays and empty or blank text blocks, in messages, system and tool results', () => {
    expect(requestProblems(withMessage(4, []))).toEqual(['message 4 has an empty content array']);
    expect(requestProblems(withMessage(4, [text(' \n')]))).toEqual(['message 4 block 0 is an empty text block']);
    expect(requestProblems({ ...base(), system: [{ type: 'text', text: '' }] })).toEqual(['system block 0 is an empty text block']);
    const part = withMessage(2, [{ type: 'tool_result', tool_use_id: 'a', content: [{ type: 'text', text: '' }] }, toolResult('b', 'out')]);
    expect(requestProblems(part)).toEqual(['message 2 block 0 part 0 is an empty text block']);
  });

  it('blank (whitespace-only) text counts as empty in system blocks and tool-result parts too', () => {
    expect(requestProblems({ ...base(), system: [{ type: 'text', text: ' \n\t' }] })).toEqual(['system block 0 is an empty text block']);
    const part = withMessage(2, [{ type: 'tool_result', tool_use_id: 'a', content: [{ type: 'text', text: 'ok' }, { type: 'text', text: '  ' }] }, toolResult('b', 'out')]);
    expect(requestProblems(part)).toEqual(['message 2 block 0 part 1 is an empty text block']);
  });

  it('a tool_result with no tool_use just before it: first message, or a call two messages back', () => {
    expect(requestProblems(withMessage(0, [toolResult('zz', 'orphan'), text('task')]))).toEqual([
      'message 0 block 0: tool_result zz has no tool_use in the assistant message just before it',
    ]);
    const late = base();
    late.messages[4] = user(toolResult('a', 'again'));
    expect(requestProblems(late)).toEqual(['message 4 block 0: tool_result a has no tool_use in the assistant message just before it']);
  });

  it('a call left unanswered, a call answered twice, a result after text', () => {
    expect(requestProblems(withMessage(2, [toolResult('a', 'file')]))).toEqual(['message 2 does not answer tool_use b of message 1']);
    expect(requestProblems(withMessage(2, [toolResult('a', 'file'), toolResult('b', 'out'), toolResult('b', 'out')]))).toEqual(['message 2 block 2: tool_use b is answered twice']);
    expect(requestProblems(withMessage(2, [toolResult('a', 'file'), text('hm'), toolResult('b', 'out')]))).toEqual([
      'message 2 block 2: tool_result b comes after text; tool results must come first in their message',
    ]);
  });

  it('tool_use in a user message, tool_result in an assistant message, a tool_use id used twice', () => {
    expect(requestProblems(withMessage(4, [toolUse('u', 'Bash', {})]))).toEqual(['message 4 block 0 is a tool_use in a user message']);
    expect(requestProblems(withMessage(3, [text('x'), toolResult('q', 'y')]))).toEqual(['message 3 block 1 is a tool_result in a assistant message']);
    const r = base();
    r.messages[3] = assistant(toolUse('a', 'Read', {}));
    r.messages[4] = user(toolResult('a', 'again'));
    expect(requestProblems(r)).toEqual(['message 3 block 0: tool_use id a is used twice']);
  });

  it('more than four cache breakpoints, counted over system, messages, tool-result parts and tools', () => {
    const r = base();
    r.tools = [{ name: 't', description: 'd', input_schema: {}, cache_control: mark }];
    r.messages[0] = user({ type: 'text', text: 'task', cache_control: mark });
    expect(requestProblems(r)).toEqual([]);
    r.messages[4] = user({ type: 'text', text: 'next', cache_control: mark });
    expect(requestProblems(r)).toEqual(['5 cache breakpoints; the API accepts at most 4']);
    const parts = base();
    parts.messages[2] = user({ type: 'tool_result', tool_use_id: 'a', content: [{ type: 'text', text: 'f', cache_control: mark }] }, toolResult('b', 'o'));
    parts.messages[0] = user({ type: 'text', text: 'task', cache_control: mark }, { type: 'text', text: 'more', cache_control: mark });
    expect(requestProblems(parts)).toEqual([]);
    parts.tools = [{ name: 't', description: 'd', input_schema: {}, cache_control: mark }];
    expect(requestProblems(parts)).toEqual(['5 cache breakpoints; the API accepts at most 4']);
  });

  it('blocks, parts and tools without a cache mark add no breakpoint (four marked ones stay valid)', () => {
    const r = base(); // system and message 2 carry the two marks
    r.system = [...r.system, { type: 'text', text: 'more rules' }, { type: 'text', text: 'and more' }];
    r.tools = [{ name: 't', description: 'd', input_schema: {} }, { name: 'u', description: 'e', input_schema: {}, cache_control: mark }];
    r.messages[0] = user({ type: 'text', text: 'task', cache_control: mark }, text('context'));
    r.messages[2] = user(
      { type: 'tool_result', tool_use_id: 'a', content: [{ type: 'text', text: 'f1' }, { type: 'text', text: 'f2' }, { type: 'text', text: 'f3' }] },
      toolResult('b', 'out'),
      { type: 'text', text: 'and then?', cache_control: mark },
    );
    expect(requestProblems(r)).toEqual([]);
  });

  it('thinking blocks: accepted in answers, refused in user messages and with a cache mark', () => {
    const ok = base();
    ok.messages[1] = assistant({ type: 'thinking', thinking: 'plan', signature: 's' }, ...ok.messages[1]!.content);
    expect(requestProblems(ok)).toEqual([]);
    const bad = base();
    bad.messages[4] = user({ type: 'redacted_thinking', data: 'x' }, text('next'));
    bad.messages[3] = assistant({ type: 'thinking', thinking: 'p', signature: 's', cache_control: mark }, text('done'));
    expect(requestProblems(bad)).toEqual([
      'message 3 block 0: a thinking block cannot carry cache_control',
      'message 4 block 0 is a redacted_thinking block in a user message',
    ]);
  });

  it('assertValidRequest throws a StrataError naming the turn and every problem', () => {
    expect(() => assertValidRequest(base(), 3)).not.toThrow();
    const bad = withMessage(4, [text('')]);
    expect(() => assertValidRequest(bad, 7)).toThrow(StrataError);
    expect(() => assertValidRequest(bad, 7)).toThrow(/e7 .*message 4 block 0 is an empty text block/);
    const two = withMessage(4, [text(''), toolUse('u', 'Bash', {})]);
    let thrown: unknown;
    try {
      assertValidRequest(two, 9);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(StrataError);
    expect((thrown as StrataError).code).toBe('invalid_request');
    expect((thrown as StrataError).message).toBe(
      'The request assembled for e9 would be rejected by the Messages API: message 4 block 0 is an empty text block; ' +
        'message 4 block 1 is a tool_use in a user message. This is a Strata bug: report it with the session file.',
    );
  });
});

describe('orphan tool results and unanswered calls are rendered valid, nothing lost', () => {
  const session = readSessionFile(join(__dirname, '..', 'fixtures', 'sessions', 'orphan-tool-results.jsonl'));

  async function replay(settings: Partial<EngineSettings>) {
    const temp = makeTempDir('strata-orphan-');
    const archive = openSqliteArchive(join(temp.dir, 'a.sqlite'));
    const turns: ReplayTurn[] = [];
    try {
      await replaySession(session, 'orphan', resolveEngineSettings(settings), { tokenizer: createTiktokenTokenizer(), archive, logger: silentLogger }, (t) => turns.push(t));
      const first = archive.get('orphan', 1)!;
      return { turns, archivedFirstInput: first.full[0]! };
    } finally {
      archive.close();
      temp.remove();
    }
  }

  it('the crafted session really holds what the API rejects (a first message with a tool_result, a call without result)', () => {
    const sent: MessagesRequest = { system: [{ type: 'text', text: 's' }], messages: session.messages.slice(0, 5), tools: [] };
    const problems = requestProblems(sent);
    expect(problems).toContain('message 0 block 0: tool_result toolu_before_cut has no tool_use in the assistant message just before it');
    expect(problems).toContain('message 2 does not answer tool_use toolu_2 of message 1');
    expect(problems).toContain('message 2 block 2: tool_result toolu_ghost has no tool_use in the assistant message just before it');
  });

  for (const [mode, settings] of [
    ['full mode', {}],
    // the 400-line output of e3 does not fit 2,000 tokens with the rest: turn 3 must re-layer
    ['layered mode (every exchange but the newest folded)', { promptBudgetTokens: 2_000, workingMemoryMax: 1, workingMemoryMin: 1 }],
  ] as const) {
    it(`${mode}: every request valid, orphan outputs kept as text, the missing result said, the archive verbatim`, async () => {
      const { turns, archivedFirstInput } = await replay(settings);
      expect(turns.length).toBe(3);
      for (const t of turns) expect(requestProblems(t.assembled.request), `turn ${t.turn}`).toEqual([]);
      const firstBody = JSON.stringify(turns[0]!.assembled.request.messages[0]);
      expect(firstBody).toContain('[result of tool call toolu_before_cut]\\nORPHAN OUTPUT: 3 tests failed in parser.test.ts');
      expect(firstBody).toContain('Continue fixing the parser.');
      const second = JSON.stringify(turns[1]!.assembled.request);
      expect(second).toContain('GHOST OUTPUT');
      expect(second).toContain(NO_RESULT_TEXT);
      expect(second).toContain('export function parse(s: string)');
      if (mode === 'full mode') expect(turns.every((t) => t.assembled.mode === 'full')).toBe(true);
      else {
        // e1 and e2 are folded: e1's input lives on as the task (its orphan as text), and e3's result lost its call, so it is text too
        const third = turns[2]!.assembled.request;
        expect(turns[2]!.assembled.mode).toBe('layered');
        expect(third.messages.length).toBe(1);
        expect(JSON.stringify(third.messages[0])).toContain('[result of tool call toolu_before_cut]');
        expect(JSON.stringify(third.messages[0])).toContain('[result of Bash npm test -- parser]\\nFAIL parser case 0');
      }
      // the archive keeps the input as it came, tool_result and all
      expect(archivedFirstInput.content[0]).toEqual({ type: 'tool_result', tool_use_id: 'toolu_before_cut', content: 'ORPHAN OUTPUT: 3 tests failed in parser.test.ts' });
    });
  }

  it('assemble() throws instead of handing out a request the API would reject (validation on in tests)', async () => {
    // an agent that reuses a tool_use id across answers: the engine does not rename ids, so the second request repeats it
    const session = [user(text('task')), assistant(toolUse('same', 'Bash', { command: 'ls' })), user(toolResult('same', 'a')), assistant(toolUse('same', 'Bash', { command: 'ls' })), user(toolResult('same', 'b')), assistant(text('ok'))];
    await expect(drive(makeEngine().engine, session)).rejects.toThrow(/tool_use id same is used twice/);
    const unchecked = makeEngine();
    (unchecked.engine as unknown as { options: { validateRequests: boolean } }).options.validateRequests = false;
    const turns = await drive(unchecked.engine, session);
    expect(requestProblems(turns[2]!.request)).toEqual(['message 3 block 0: tool_use id same is used twice']);
  });

  it('a tool definition carrying its own cache breakpoint is sent without it (end of system already caches the tools)', async () => {
    const tools = [{ name: 'Bash', description: 'run', input_schema: { type: 'object' }, cache_control: mark }];
    const { engine } = makeEngine({}, { tools });
    const turns = await drive(engine, [user(text('task')), assistant(text('a')), user(text('b')), assistant(text('c')), user(text('d')), assistant(text('e'))]);
    for (const t of turns) {
      expect(t.request.tools).toEqual([{ name: 'Bash', description: 'run', input_schema: { type: 'object' } }]);
      expect(requestProblems(t.request)).toEqual([]);
    }
  });
});
