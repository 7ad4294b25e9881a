import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Message } from '../../src/shared/messages';
import type { ParsedSession } from '../../src/shared/sessionSchema';
import { readSessionFile } from '../../src/adapters/sessionFileReader';
import { buildDays, DAY_RECIPES, joinSessions, RUN_ENDED_RESULT } from '../../src/cli/bench/daySessions';
import { SHARED_SESSIONS_DIR } from '../support/sharedSessions';
import { assistant, text, toolResult, toolUse, user } from '../support/engineHarness';

function session(messages: Message[], system?: string): ParsedSession {
  return { meta: system ? { system } : {}, messages, notes: new Map(), problems: [] };
}

/** Roles alternate and every tool call but the conversation's last answer's has exactly one result in the next message. */
function checkPairs(messages: readonly Message[]): void {
  messages.forEach((m, i) => {
    if (i > 0) expect(m.role).not.toBe(messages[i - 1]!.role);
    if (m.role !== 'assistant' || i === messages.length - 1) return;
    const calls = m.content.flatMap((b) => (b.type === 'tool_use' ? [b.id] : []));
    const results = messages[i + 1]!.content.flatMap((b) => (b.type === 'tool_result' ? [b.tool_use_id] : []));
    expect(results).toEqual(calls);
  });
}

describe('day sessions: one project\'s sessions joined into one conversation', () => {
  it('answers a run\'s last tool call and puts the next task in that same user message', () => {
    const a = session([user(text('task A')), assistant(toolUse('a1', 'bash', { command: 'ls' }), toolUse('a2', 'bash', { command: 'pwd' }))], 'sys A');
    const b = session([user(text('task B')), assistant(text('done B'))], 'sys B');
    const day = joinSessions('day', [{ name: 'a', session: a }, { name: 'b', session: b }]);
    expect(day.messages).toHaveLength(4);
    expect(day.messages[2]).toEqual(user(toolResult('a1', RUN_ENDED_RESULT), toolResult('a2', RUN_ENDED_RESULT), text('task B')));
    expect(day.meta.system).toBe('sys A');
    checkPairs(day.messages);
  });

  it('appends the next task to a run that ended on a user message, and starts a new one after a plain answer', () => {
    const endsOnUser = session([user(text('task A')), assistant(toolUse('a1', 'bash', {})), user(toolResult('a1', 'out'))]);
    const endsOnAnswer = session([user(text('task B')), assistant(text('done B'))]);
    const c = session([user(text('task C')), assistant(text('done C'))]);
    const day = joinSessions('day', [{ name: 'a', session: endsOnUser }, { name: 'b', session: endsOnAnswer }, { name: 'c', session: c }]);
    expect(day.messages.map((m) => m.content.map((x) => (x.type === 'text' ? x.text : x.type)).join('+'))).toEqual(['task A', 'tool_use', 'tool_result+task B', 'done B', 'task C', 'done C']);
    checkPairs(day.messages);
  });

  it('builds each shipped recipe from bench/sessions: every message of its parts once, in order, and the same messages every time', () => {
    const available = DAY_RECIPES.flatMap((r) => r.parts).map((name) => ({ name, session: readSessionFile(join(SHARED_SESSIONS_DIR, `${name}.jsonl`)) }));
    const { days, missing } = buildDays(available);
    expect(missing).toEqual([]);
    expect(days.map((d) => d.name)).toEqual(DAY_RECIPES.map((r) => r.name));
    for (const [k, day] of days.entries()) {
      const parts = DAY_RECIPES[k]!.parts.map((p) => available.find((s) => s.name === p)!.session);
      const blocks = (ms: readonly Message[]) => ms.flatMap((m) => m.content).filter((b) => b.type !== 'tool_result' || b.content !== RUN_ENDED_RESULT);
      expect(blocks(day.session.messages)).toEqual(parts.flatMap((p) => blocks(p.messages)));
      checkPairs(day.session.messages);
      expect(buildDays(available).days[k]!.session.messages).toEqual(day.session.messages);
    }
  });

  it('leaves out a recipe whose parts are not all there, and says which', () => {
    const { days, missing } = buildDays([{ name: 'x', session: session([user(text('t'))]) }], [{ name: 'day-x', parts: ['x', 'y'] }]);
    expect(days).toEqual([]);
    expect(missing).toEqual(['day-x (no y)']);
  });
});
