import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseSessionText } from '../../src/shared/sessionSchema';
import { parseProtocolBlocks } from '../../src/shared/protocolSchema';
import { StrataError } from '../../src/shared/strataError';

/** Seeded: the same 10,000 cases per property on every CI run (SEED / RUNS override them to hunt wider). */
const RUNS = { seed: Number(process.env.SEED ?? 1_010), numRuns: Number(process.env.RUNS ?? 10_000) };

/** Something shaped like a session line, often almost right: roles, block types and fields drawn from the real ones and wrong ones. */
const blockLike = fc.record(
  {
    type: fc.constantFrom('text', 'tool_use', 'tool_result', 'image', 'thinking', 42),
    text: fc.oneof(fc.string(), fc.constant(''), fc.integer()),
    id: fc.oneof(fc.string({ maxLength: 8 }), fc.integer()),
    name: fc.string({ maxLength: 8 }),
    input: fc.jsonValue({ maxDepth: 2 }),
    tool_use_id: fc.oneof(fc.string({ maxLength: 8 }), fc.constant(null)),
    content: fc.oneof(fc.string(), fc.array(fc.record({ type: fc.constantFrom('text', 'image'), text: fc.oneof(fc.string(), fc.integer()) }), { maxLength: 3 }), fc.integer()),
    is_error: fc.oneof(fc.boolean(), fc.string({ maxLength: 3 })),
  },
  { requiredKeys: [] },
);
const messageLike = fc.record(
  { role: fc.constantFrom('user', 'assistant', 'system', ''), content: fc.oneof(fc.string(), fc.array(blockLike, { maxLength: 4 }), fc.constant(null)) },
  { requiredKeys: [] },
);
const line = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
  messageLike.map((m) => JSON.stringify(m)),
  fc.record({ meta: fc.jsonValue({ maxDepth: 2 }) }).map((m) => JSON.stringify(m)),
  fc.string({ unit: 'binary', maxLength: 80 }),
);

describe('session parser on any input (fast-check, seeded)', () => {
  it('never crashes: a session of alternating, non-empty messages, or a StrataError that names the file and the format', () => {
    fc.assert(
      fc.property(fc.array(line, { maxLength: 8 }), fc.constantFrom('\n', '\r\n'), (lines, eol) => {
        let parsed;
        try {
          parsed = parseSessionText(lines.join(eol), 'prop.jsonl');
        } catch (error) {
          expect(error).toBeInstanceOf(StrataError);
          expect(['session_empty', 'session_format']).toContain((error as StrataError).code);
          expect((error as Error).message).toContain('prop.jsonl');
          expect((error as Error).message).toContain('Expected JSON Lines');
          return;
        }
        parsed.messages.forEach((m, i) => {
          expect(['user', 'assistant']).toContain(m.role);
          expect(m.content.length).toBeGreaterThan(0);
          if (i > 0) expect(m.role).not.toBe(parsed.messages[i - 1]!.role);
          for (const b of m.content) expect(['text', 'tool_use', 'tool_result']).toContain(b.type);
        });
        for (const p of parsed.problems) expect(p).toMatch(/prop\.jsonl/);
      }),
      RUNS,
    );
  });

  it('keeps every well-formed message line: n alternating text messages give n messages and no problem', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ minLength: 1 }), { minLength: 1, maxLength: 10 }), (texts) => {
        const lines = texts.map((t, i) => JSON.stringify({ role: i % 2 === 0 ? 'user' : 'assistant', content: [{ type: 'text', text: t }] }));
        const parsed = parseSessionText(lines.join('\n'), 'ok.jsonl');
        expect(parsed.problems).toEqual([]);
        expect(parsed.messages.map((m) => (m.content[0] as { text: string }).text)).toEqual(texts);
      }),
      RUNS,
    );
  });
});

describe('protocol parser on any answer text (fast-check, seeded)', () => {
  const tagged = fc.tuple(fc.constantFrom('housekeeping', 'context_request'), fc.oneof(fc.string(), fc.jsonValue().map((v) => JSON.stringify(v)))).map(([tag, body]) => `<${tag}>${body}</${tag}>`);

  it('never throws, on any string or any tagged body, and every problem is one sentence about a block', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.string({ unit: 'grapheme' }), tagged), { maxLength: 5 }), (parts) => {
        const result = parseProtocolBlocks(parts.join(' '));
        expect(Array.isArray(result.contextRequests)).toBe(true);
        for (const p of result.problems) expect(p).toMatch(/^<(housekeeping|context_request)> block /);
      }),
      RUNS,
    );
  });

  it('reads back every valid context request it is given, in order, among any text', () => {
    const request = fc.record({ ids: fc.array(fc.nat({ max: 999 }).map((n) => `e${n}`), { minLength: 1, maxLength: 5 }), format: fc.constantFrom('header', 'summary', 'full', 'mixed') });
    fc.assert(
      fc.property(fc.array(request, { maxLength: 3 }), fc.string().filter((s) => !s.includes('<')), (requests, filler) => {
        const text = requests.map((r) => `${filler}<context_request>${JSON.stringify(r)}</context_request>`).join('\n');
        const result = parseProtocolBlocks(text);
        expect(result.contextRequests).toEqual(requests);
        expect(result.problems).toEqual([]);
      }),
      RUNS,
    );
  });
});
