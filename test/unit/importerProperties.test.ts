import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseClaudeCodeTranscript } from '../../src/shared/claudeCodeTranscript';
import { parseClineHistory } from '../../src/shared/clineHistory';
import type { ParsedSession } from '../../src/shared/sessionSchema';
import { StrataError } from '../../src/shared/strataError';

/**
 * The session importers on any input: 10,000 seeded cases per property, the same on every CI run
 * (SEED / RUNS override them to hunt wider). A failure prints its seed and the shrunk case.
 */
const RUNS = { seed: Number(process.env.SEED ?? 20_261_126), numRuns: Number(process.env.RUNS ?? 10_000) };

/** Content as the tools write it: a string, or blocks drawn from real and wrong types and fields. */
const contentLike = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.array(
    fc.record(
      {
        type: fc.constantFrom('text', 'tool_use', 'tool_result', 'image', 'thinking', 'document', 7),
        text: fc.oneof(fc.string({ maxLength: 12 }), fc.integer()),
        id: fc.oneof(fc.constantFrom('t1', 't2'), fc.integer()),
        name: fc.constantFrom('Read', 'Bash', ''),
        input: fc.jsonValue({ maxDepth: 2 }),
        tool_use_id: fc.oneof(fc.constantFrom('t1', 't2', 'zz'), fc.constant(null)),
        content: fc.oneof(fc.string({ maxLength: 12 }), fc.array(fc.record({ type: fc.constantFrom('text', 'image'), text: fc.string({ maxLength: 8 }) }), { maxLength: 2 })),
        thinking: fc.string({ maxLength: 8 }),
        signature: fc.string({ maxLength: 8 }),
      },
      { requiredKeys: [] },
    ),
    { maxLength: 3 },
  ),
  fc.constant(null),
  fc.integer(),
);

/** A Claude Code transcript line, often almost right: uuids from a small pool so chains, branches and cycles happen. */
const uuid = fc.constantFrom('u1', 'u2', 'u3', 'u4', 'u5');
/** A plausible message line (role matching its type, text content), so real chains form often. */
const plausibleClaudeLine = fc
  .record({ role: fc.constantFrom('user', 'assistant'), uuid, parentUuid: fc.oneof(uuid, fc.constant(null)), text: fc.string({ minLength: 1, maxLength: 12 }) })
  .map(({ role, uuid: id, parentUuid, text }) => JSON.stringify({ type: role, uuid: id, parentUuid, message: { role, content: [{ type: 'text', text }] } }));
const claudeLine = fc.oneof(
  { arbitrary: plausibleClaudeLine, weight: 3 },
  fc
    .record(
      {
        type: fc.constantFrom('user', 'assistant', 'summary', 'system', 'file-history-snapshot', ''),
        uuid,
        parentUuid: fc.oneof(uuid, fc.constant(null)),
        logicalParentUuid: uuid,
        isSidechain: fc.boolean(),
        isMeta: fc.boolean(),
        timestamp: fc.constantFrom('2026-01-01T00:00:00Z', 'yesterday'),
        message: fc.record({ role: fc.constantFrom('user', 'assistant', 'system'), id: fc.constantFrom('m1', 'm2'), content: contentLike }, { requiredKeys: [] }),
      },
      { requiredKeys: ['type'] },
    )
    .map((entry) => JSON.stringify(entry)),
  fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)),
  fc.string({ unit: 'binary', maxLength: 40 }),
);

/** A Cline history: usually an array of message-like values, sometimes not JSON at all. */
const clineMessage = fc.record({ role: fc.constantFrom('user', 'assistant', 'system'), content: contentLike, ts: fc.oneof(fc.integer(), fc.string({ maxLength: 4 })), modelInfo: fc.record({ modelId: fc.constantFrom('claude-x', '') }) }, { requiredKeys: [] });
const clineText = fc.oneof(
  fc.array(fc.oneof(clineMessage, fc.jsonValue({ maxDepth: 2 })), { maxLength: 6 }).map((items) => JSON.stringify(items)),
  fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)),
  fc.string({ unit: 'binary', maxLength: 40 }),
);

/** What every import must hold, whatever it read: the shape the engine replays, or a StrataError that names the file. */
function expectImportOrClearError(read: () => ParsedSession, source: string): 'imported' | 'refused' {
  let session: ParsedSession;
  try {
    session = read();
  } catch (error) {
    expect(error).toBeInstanceOf(StrataError);
    expect(['session_empty', 'session_format']).toContain((error as StrataError).code);
    expect((error as Error).message).toContain(source);
    return 'refused';
  }
  expect(session.messages.length).toBeGreaterThan(0);
  session.messages.forEach((m, i) => {
    expect(['user', 'assistant']).toContain(m.role);
    expect(m.content.length).toBeGreaterThan(0);
    if (i > 0) expect(m.role).not.toBe(session.messages[i - 1]!.role);
    for (const b of m.content) expect(['text', 'tool_use', 'tool_result', 'thinking']).toContain(b.type);
  });
  for (const problem of session.problems) expect(problem).toContain(source);
  return 'imported';
}

/** Counts outcomes, so a generator that never reaches one side of the property fails the test instead of passing vacuously. */
function outcomes() {
  const seen = { imported: 0, refused: 0 };
  return { seen, add: (outcome: 'imported' | 'refused') => void seen[outcome]++ };
}

describe('session importers on any input (fast-check, 10,000 seeded cases each)', () => {
  it('a Claude Code transcript of any lines imports as alternating, non-empty messages, or fails with a StrataError naming the file', () => {
    const { seen, add } = outcomes();
    fc.assert(
      fc.property(fc.array(claudeLine, { maxLength: 8 }), fc.constantFrom('\n', '\r\n'), (lines, eol) => {
        add(expectImportOrClearError(() => parseClaudeCodeTranscript(lines.join(eol), 'cc.jsonl'), 'cc.jsonl'));
      }),
      RUNS,
    );
    expect(seen.imported).toBeGreaterThan(RUNS.numRuns / 20);
    expect(seen.refused).toBeGreaterThan(RUNS.numRuns / 20);
  });

  it('a Claude Code chain of n alternating text messages imports as those n messages, in order, with no problem', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ minLength: 1, maxLength: 30 }).filter((t) => t.trim() !== ''), { minLength: 1, maxLength: 8 }), (texts) => {
        const lines = texts.map((text, i) => {
          const role = i % 2 === 0 ? 'user' : 'assistant';
          return JSON.stringify({ type: role, uuid: `u${i}`, parentUuid: i === 0 ? null : `u${i - 1}`, message: { role, id: `m${i}`, content: [{ type: 'text', text }] } });
        });
        const session = parseClaudeCodeTranscript(lines.join('\n'), 'chain.jsonl');
        expect(session.problems).toEqual([]);
        expect(session.messages.map((m) => m.content.map((b) => (b.type === 'text' ? b.text : b.type)).join(''))).toEqual(texts);
      }),
      RUNS,
    );
  });

  it("a Cline history of any text imports as alternating, non-empty messages, or fails with a StrataError naming the file", () => {
    const { seen, add } = outcomes();
    fc.assert(
      fc.property(clineText, (text) => {
        add(expectImportOrClearError(() => parseClineHistory(text, 'api_conversation_history.json'), 'api_conversation_history.json'));
      }),
      RUNS,
    );
    expect(seen.imported).toBeGreaterThan(RUNS.numRuns / 20);
    expect(seen.refused).toBeGreaterThan(RUNS.numRuns / 20);
  });

  it('a Cline history of n alternating string messages imports as those n messages, in order, with no problem', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ minLength: 1, maxLength: 30 }).filter((t) => t.trim() !== ''), { minLength: 1, maxLength: 8 }), (texts) => {
        const history = texts.map((content, i) => ({ role: i % 2 === 0 ? 'user' : 'assistant', content, ts: 1_700_000_000_000 + i }));
        const session = parseClineHistory(JSON.stringify(history), 'h.json');
        expect(session.problems).toEqual([]);
        expect(session.messages.map((m) => m.content.map((b) => (b.type === 'text' ? b.text : b.type)).join(''))).toEqual(texts);
      }),
      RUNS,
    );
  });
});
