import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readSessionFile } from '../../src/adapters/sessionFileReader';
import { parseClaudeCodeTranscript } from '../../src/shared/claudeCodeTranscript';
import { parseClineHistory } from '../../src/shared/clineHistory';
import type { ContentBlock, Message } from '../../src/shared/messages';
import { sessionTitle, TITLE_CHARS, titleFromText } from '../../src/shared/sessionTitle';
import { sharedSessionFiles } from '../support/sharedSessions';
import { thrown } from '../support/thrown';

const FIXTURES = join(__dirname, '..', 'fixtures', 'import');
const CLAUDE_FILE = join(FIXTURES, 'claude-code', '-home-dev-calc', '0b6c4a52-7a1e-4c39-9d7e-1f2a3b4c5d6e.jsonl');
const CLINE_FILE = join(FIXTURES, 'cline', 'tasks', '1732280000000', 'api_conversation_history.json');
const claudeText = readFileSync(CLAUDE_FILE, 'utf8');
const clineText = readFileSync(CLINE_FILE, 'utf8');

const texts = (m: Message | undefined) => (m?.content ?? []).flatMap((b) => (b.type === 'text' ? [b.text] : []));
const allText = (messages: Message[]) => JSON.stringify(messages);
const kinds = (m: Message | undefined) => (m?.content ?? []).map((b: ContentBlock) => b.type);
/** The fixture's lines as objects, to build variants of it. */
const claudeLines = () => claudeText.split('\n').filter((l) => l.trim() !== '');
const lineOf = (uuid: string) => claudeLines().findIndex((l) => l.includes(`"uuid": "${uuid}"`));

describe('parseClaudeCodeTranscript: the fixture', () => {
  const session = parseClaudeCodeTranscript(claudeText, 'cc.jsonl');

  it('follows the main chain: input, answer, results, answer, results + next input, answer', () => {
    expect(session.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user', 'assistant']);
  });

  it('merges an answer split over lines of one message.id, in order, thinking kept with its signature', () => {
    const answer = session.messages[1]!;
    expect(kinds(answer)).toEqual(['thinking', 'text', 'tool_use', 'tool_use']);
    expect(answer.content[0]).toEqual({ type: 'thinking', thinking: 'The test probably divides by zero.', signature: 'c2lnbmF0dXJlLWZpeHR1cmU=' });
    expect(answer.content.flatMap((b) => (b.type === 'tool_use' ? [b.id] : []))).toEqual(['toolu_read1', 'toolu_bash1']);
  });

  it('keeps both results of parallel calls, though each hangs off a different line of the answer', () => {
    const results = session.messages[2]!.content;
    expect(results.map((b) => (b.type === 'tool_result' ? [b.tool_use_id, b.is_error ?? false] : b.type))).toEqual([
      ['toolu_read1', false],
      ['toolu_bash1', true],
    ]);
  });

  it('leaves out the sidechain, the meta line and the abandoned branch, and says so with line numbers', () => {
    const all = allText(session.messages);
    expect(all).not.toContain('Only src/math.test.ts calls divide');
    expect(all).not.toContain('Caveat:');
    expect(all).not.toContain('Running the linter');
    expect(texts(session.messages[4])).toEqual(['Now run the tests']);
    expect(texts(session.messages[5])).toEqual(['All 12 tests pass.']);
    const problems = session.problems.join('\n');
    expect(problems).toContain(`cc.jsonl: 2 sidechain (subagent) lines not imported (lines ${lineOf('s1') + 1}, ${lineOf('s2') + 1})`);
    expect(problems).toContain(`cc.jsonl: 1 meta line not imported (line ${lineOf('m1') + 1})`);
    expect(problems).toContain(`cc.jsonl: 2 message lines on abandoned branches (an edited or rewound message) not imported (lines ${lineOf('u2') + 1}, ${lineOf('a6') + 1})`);
    expect(problems).toMatch(/1 summary line not imported/);
    expect(problems).toMatch(/1 queue-operation line not imported \(line 1\)/);
  });

  it('reports the malformed line by number and goes on', () => {
    const bad = claudeLines().findIndex((l) => l.startsWith('{"type":"progress"')) + 1;
    expect(session.problems).toContainEqual(expect.stringMatching(new RegExp(`^cc\\.jsonl:${bad}: not valid JSON \\(.+\\); line skipped$`)));
  });

  it('turns an image into a reported placeholder', () => {
    expect(texts(session.messages[0])).toEqual(['Fix the failing test in src/math.test.ts', '[image: image/png, not imported]']);
    expect(session.problems).toContain(`cc.jsonl:${lineOf('u1') + 1}: block 2: image (image/png) replaced by a placeholder`);
  });

  it('reads title, project folder, session id and model, and each input time', () => {
    expect(session.meta).toMatchObject({ source: 'claude-code', title: 'Fix the failing test in src/math.test.ts', cwd: '/home/dev/calc', session_id: '0b6c4a52-7a1e-4c39-9d7e-1f2a3b4c5d6e', model: 'claude-sonnet-4-5-20250929' });
    expect(session.notes.get(0)?.at).toBe(Date.parse('2026-11-20T10:00:01.000Z'));
    expect(session.notes.get(4)?.at).toBe(Date.parse('2026-11-20T10:00:13.000Z'));
    expect(session.notes.has(1)).toBe(false);
  });
});

describe('parseClaudeCodeTranscript: damaged and odd transcripts', () => {
  it('a parent missing from the file keeps every main-chain line in file order, and says so', () => {
    const lines = claudeLines();
    lines.splice(lineOf('a2'), 1);
    const session = parseClaudeCodeTranscript(lines.join('\n'), 'cut.jsonl');
    expect(session.problems.join('\n')).toContain('cut.jsonl: the parentUuid chain breaks at a2 (not in the file)');
    expect(allText(session.messages)).toContain('Running the linter');
    expect(allText(session.messages)).not.toContain('Let me read the test');
  });

  it('after a rewind and a /compact: the rewound branch is dropped, the history before the compact boundary kept', () => {
    const u = (uuid: string, parent: string | null, text: string) => JSON.stringify({ type: 'user', uuid, parentUuid: parent, message: { role: 'user', content: [{ type: 'text', text }] } });
    const a = (uuid: string, parent: string, text: string) => JSON.stringify({ type: 'assistant', uuid, parentUuid: parent, message: { id: `msg_${uuid}`, role: 'assistant', content: [{ type: 'text', text }] } });
    const text = [
      u('u1', null, 'Start'),
      a('a1', 'u1', 'Ready'),
      u('b1u', 'a1', 'First attempt'),
      a('b1a', 'b1u', 'First answer'),
      u('b2u', 'a1', 'Second attempt'),
      a('b2a', 'b2u', 'Second answer'),
      JSON.stringify({ type: 'system', subtype: 'compact_boundary', uuid: 'cb', parentUuid: null, logicalParentUuid: 'b2a', content: 'Conversation compacted' }),
      JSON.stringify({ type: 'user', uuid: 'cs', parentUuid: 'cb', isCompactSummary: true, message: { role: 'user', content: 'This session is being continued. Summary: a plan.' } }),
      u('p1u', 'cs', 'After compaction'),
      a('p1a', 'p1u', 'Final answer'),
    ].join('\n');
    const session = parseClaudeCodeTranscript(text, 'dag.jsonl');
    expect(session.messages.map((m) => texts(m))).toEqual([['Start'], ['Ready'], ['Second attempt'], ['Second answer'], ['This session is being continued. Summary: a plan.', 'After compaction'], ['Final answer']]);
    expect(session.problems).toEqual(['dag.jsonl: 1 system line not imported (line 7)', 'dag.jsonl: 2 message lines on abandoned branches (an edited or rewound message) not imported (lines 3, 4)']);
  });

  it('a block repeated on two lines of one answer is kept once; a different answer in a row is merged and reported', () => {
    const lines = claudeLines();
    const a2 = lines[lineOf('a2')]!;
    lines.splice(lineOf('a2') + 1, 0, a2.replace('"uuid": "a2"', '"uuid": "a2x"'));
    const session = parseClaudeCodeTranscript(lines.join('\n'), 'rep.jsonl');
    expect(texts(session.messages[1])).toEqual(['Let me read the test and run it.']);
    const other = [
      '{"type":"user","uuid":"x1","parentUuid":null,"message":{"role":"user","content":"hi"}}',
      '{"type":"assistant","uuid":"x2","parentUuid":"x1","message":{"id":"m1","role":"assistant","content":[{"type":"text","text":"API Error"}]}}',
      '{"type":"assistant","uuid":"x3","parentUuid":"x2","message":{"id":"m2","role":"assistant","content":[{"type":"text","text":"Hello"}]}}',
    ].join('\n');
    const merged = parseClaudeCodeTranscript(other, 'two.jsonl');
    expect(texts(merged.messages[1])).toEqual(['API Error', 'Hello']);
    expect(merged.problems).toContain('two.jsonl:3: second answer in a row (previous on line 2); merged into it');
  });

  it('reads the nulls Claude Code writes (isMeta, is_error, citations) as absent', () => {
    const text = [
      '{"type":"user","uuid":"x1","parentUuid":null,"isMeta":null,"message":{"role":"user","content":"hi"}}',
      '{"type":"assistant","uuid":"x2","parentUuid":"x1","isMeta":null,"message":{"id":"m1","role":"assistant","content":[{"citations":null,"text":"Reading.","type":"text"},{"id":"t1","input":{},"name":"Read","type":"tool_use"}]}}',
      '{"type":"user","uuid":"x3","parentUuid":"x2","isMeta":null,"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":[{"type":"text","text":"ok"}],"is_error":null,"agentId":null}]}}',
      '{"type":"assistant","uuid":"x4","parentUuid":"x3","message":{"id":"m2","role":"assistant","content":"Done."}}',
    ].join('\n');
    const session = parseClaudeCodeTranscript(text, 'n.jsonl');
    expect(session.problems).toEqual([]);
    expect(session.messages[1]!.content[0]).toEqual({ type: 'text', text: 'Reading.' });
    expect(session.messages[2]!.content).toEqual([{ type: 'tool_result', tool_use_id: 't1', content: [{ type: 'text', text: 'ok' }] }]);
  });

  it('a thinking block without a signature and an unknown block become reported placeholders', () => {
    const text = [
      '{"type":"user","uuid":"x1","parentUuid":null,"message":{"role":"user","content":"hi"}}',
      '{"type":"assistant","uuid":"x2","parentUuid":"x1","message":{"id":"m1","role":"assistant","content":[{"type":"thinking","thinking":"hmm"},{"type":"server_tool_use","id":"s"},{"type":"text","text":"Hello"}]}}',
    ].join('\n');
    const session = parseClaudeCodeTranscript(text, 't.jsonl');
    expect(texts(session.messages[1])).toEqual(['[unsupported block: thinking]', '[unsupported block: server_tool_use]', 'Hello']);
    expect(session.problems).toEqual(["t.jsonl:2: block 1: thinking without a signature replaced by a placeholder", "t.jsonl:2: block 2: unsupported block type 'server_tool_use' replaced by a placeholder"]);
  });

  it('a line whose role contradicts its type, or without a message, is skipped with its number', () => {
    const text = [
      '{"type":"user","uuid":"x1","parentUuid":null,"message":{"role":"user","content":"hi"}}',
      '{"type":"assistant","uuid":"x2","parentUuid":"x1","message":{"role":"user","content":"odd"}}',
      '{"type":"assistant","uuid":"x3","parentUuid":"x1"}',
      '{"type":"assistant","uuid":"x4","parentUuid":"x1","message":{"id":"m","role":"assistant","content":"Hello"}}',
    ].join('\n');
    const session = parseClaudeCodeTranscript(text, 'r.jsonl');
    expect(session.messages.map((m) => texts(m))).toEqual([['hi'], ['Hello']]);
    expect(session.problems).toEqual(["r.jsonl:2: a assistant line whose message has role 'user'; line skipped", 'r.jsonl:3: assistant line without a message; line skipped']);
  });

  it('an empty transcript is session_empty; one with no main-chain message is session_format, naming what was skipped', () => {
    expect(thrown(() => parseClaudeCodeTranscript('\n \n', 'e.jsonl')).code).toBe('session_empty');
    const sidechainOnly = claudeLines().filter((l) => l.includes('"isSidechain": true') || l.includes('"type": "summary"')).join('\n');
    const error = thrown(() => parseClaudeCodeTranscript(sidechainOnly, 'agent.jsonl'));
    expect(error.code).toBe('session_format');
    expect(error.message).toContain('2 sidechain (subagent) lines not imported');
    expect(error.message).toContain('agent.jsonl');
  });
});

describe('parseClineHistory', () => {
  const session = parseClineHistory(clineText, 'api.json');

  it('reads string and block content, tool calls and results, and thinking with its signature', () => {
    expect(session.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user', 'assistant']);
    expect(kinds(session.messages[1])).toEqual(['thinking', 'text', 'tool_use']);
    expect(session.messages[1]!.content[0]).toEqual({ type: 'thinking', thinking: 'I should read src/cli.ts first.', signature: 'Y2xpbmUtc2lnbmF0dXJl' });
    expect(session.messages[2]!.content[0]).toEqual({ type: 'tool_result', tool_use_id: 'toolu_c1', content: [{ type: 'text', text: 'export function main(argv: string[]) {}' }] });
    expect(texts(session.messages[3])).toEqual(['Added the flag in src/cli.ts: --verbose now prints each step.']);
    expect(texts(session.messages[4])).toEqual(['Thanks, also update the README']);
  });

  it('reports a message that is not one and an unknown block by array index, keeping the rest', () => {
    expect(session.problems).toEqual([
      'api.json#5: not a message (role: Invalid option: expected one of "user"|"assistant"); skipped',
      "api.json#7: block 2: unsupported block type 'document' replaced by a placeholder",
    ]);
    expect(texts(session.messages[5])).toEqual(['README updated.', '[unsupported block: document]']);
  });

  it("takes the title from the <task>, the model from modelInfo and each input's time from ts", () => {
    expect(session.meta).toEqual({ source: 'cline', agent: 'Cline', model: 'claude-sonnet-4-5', title: 'Add a --verbose flag to the CLI' });
    expect([...session.notes]).toEqual([
      [0, { at: 1732280000100 }],
      [2, { at: 1732280004000 }],
      [4, { at: 1732280060000 }],
    ]);
  });

  it('merges two messages of one role in a row and says so', () => {
    const merged = parseClineHistory(JSON.stringify([{ role: 'user', content: 'a' }, { role: 'user', content: 'b' }, { role: 'assistant', content: 'c' }]), 'm.json');
    expect(merged.messages.map((m) => texts(m))).toEqual([['a', 'b'], ['c']]);
    expect(merged.problems).toEqual(['m.json#2: second user message in a row (previous #1); merged into it']);
  });

  it('an empty file, bad JSON, a non-array or an array without messages is an error naming the file', () => {
    expect(thrown(() => parseClineHistory(' ', 'e.json')).code).toBe('session_empty');
    for (const text of ['[{"role":', '{"role": "user"}', '[]', '[1, 2]']) {
      const error = thrown(() => parseClineHistory(text, 'bad.json'));
      expect(error.code).toBe('session_format');
      expect(error.message).toContain('bad.json');
      expect(error.message).toContain('api_conversation_history.json');
    }
  });
});

describe('sessionTitle', () => {
  const user = (...texts: string[]): Message => ({ role: 'user', content: texts.map((text) => ({ type: 'text' as const, text })) });
  it('prefers the first typed query to a local command before it; a command only when nothing else', () => {
    const caveat = 'Caveat: The messages below were generated by the user while running local commands. DO NOT respond.';
    const context = '<command-name>/context</command-name>\n<command-message>context</command-message>\n<command-args></command-args>';
    const stdout = '<local-command-stdout>Context Usage 12k</local-command-stdout>';
    expect(sessionTitle([user(caveat, context, stdout), { role: 'assistant', content: [{ type: 'text', text: 'ok' }] }, user('<ide_selection>line 5</ide_selection>\nWhy does the diff fail?')])).toBe('Why does the diff fail?');
    expect(sessionTitle([user(caveat, context, stdout)])).toBe('/context');
    expect(sessionTitle([{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: 'x' }] }])).toBeUndefined();
  });
});

describe('titleFromText', () => {
  it("unwraps Cline's task, keeps a Claude Code command, drops tagged context, cuts long queries", () => {
    expect(titleFromText('<task>\nAdd  a flag\n</task>\n<environment_details>x</environment_details>')).toBe('Add a flag');
    expect(titleFromText('<command-message>init is analyzing</command-message>\n<command-name>/init</command-name>\n<command-args></command-args>')).toBe('/init');
    expect(titleFromText('<system-reminder>ctx</system-reminder>\nWhy does it fail?')).toBe('Why does it fail?');
    expect(titleFromText('<environment_details>only context</environment_details>')).toBeUndefined();
    expect(titleFromText('Caveat: The messages below were generated by the user while running local commands. DO NOT respond.')).toBeUndefined();
    const long = titleFromText('word '.repeat(40))!;
    expect(long.length).toBe(TITLE_CHARS);
    expect(long.endsWith('…')).toBe(true);
  });
});

describe('real sessions written out in each native format read back unchanged', () => {
  /** Claude Code's way: one line per user message, one line per block of an answer (same message.id), chained by parentUuid. */
  function asClaudeCode(messages: Message[]): string {
    const lines: string[] = [];
    let parent: string | null = null;
    messages.forEach((message, m) => {
      const blocks = message.role === 'assistant' ? message.content.map((b) => [b]) : [message.content];
      blocks.forEach((content, b) => {
        const uuid = `${m}-${b}`;
        const body = message.role === 'assistant' ? { id: `msg_${m}`, role: 'assistant', content } : { role: 'user', content };
        lines.push(JSON.stringify({ type: message.role, uuid, parentUuid: parent, isSidechain: false, timestamp: new Date(Date.UTC(2026, 0, 1) + lines.length * 1000).toISOString(), message: body }));
        parent = uuid;
      });
    });
    return lines.join('\n');
  }

  for (const file of sharedSessionFiles()) {
    it(`${basename(file)}: as a Claude Code transcript and as a Cline history`, () => {
      const original = readSessionFile(file).messages;
      const fromClaude = parseClaudeCodeTranscript(asClaudeCode(original), 'cc.jsonl');
      expect(fromClaude.messages).toEqual(original);
      expect(fromClaude.problems).toEqual([]);
      const fromCline = parseClineHistory(JSON.stringify(original.map((m, i) => ({ ...m, ts: 1_700_000_000_000 + i }))), 'api.json');
      expect(fromCline.messages).toEqual(original);
      expect(fromCline.problems).toEqual([]);
    });
  }
});
