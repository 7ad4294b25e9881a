import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ContentBlock, Message } from '../../src/shared/messages';
import type { EngineSettings } from '../../src/shared/engineSettings';
import { resolveEngineSettings } from '../../src/shared/engineSettings';
import { ContextEngine } from '../../src/engine/contextEngine';
import type { AssembledTurn } from '../../src/engine/contextEngine';
import { ExtractiveSummarizer } from '../../src/engine/extractiveSummarizer';
import { requestProblems } from '../../src/engine/requestValidity';
import { openSqliteArchive } from '../../src/adapters/sqliteArchiveStore';
import { steppingClock } from '../../src/adapters/systemClock';
import { makeTempDir } from '../../src/adapters/tempFiles';
import { charTokenizer, silentLogger } from '../support/engineHarness';

/**
 * Fixed seed and run count: CI sees the same cases every time (about 7 s). To hunt wider, run with
 * SEED=<n> RUNS=<n>; 250 runs of seed 7 passed when this was written. A failure prints its seed and path.
 */
const RUNS = { seed: Number(process.env.SEED ?? 20_251_010), numRuns: Number(process.env.RUNS ?? 25) };

const unicode = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 60 });
const words = fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 50 });

/** Tool output: empty, tiny, Unicode, thousands of lines, or one enormous line. */
const toolOutput = fc.oneof(
  fc.constant(''),
  unicode,
  fc.tuple(fc.integer({ min: 1, max: 3_000 }), words).map(([n, line]) => Array.from({ length: n }, (_, i) => `${line} ${i}`).join('\n')),
  fc.integer({ min: 1, max: 120_000 }).map((n) => 'x'.repeat(n)),
);

const call = fc.record({
  name: fc.constantFrom('Read', 'Bash', 'Grep', 'Edit'),
  target: fc.constantFrom('src/a.ts', 'src/b.ts', 'README.md', 'src/深い/ファイル.ts', 'npm test'),
  output: toolOutput,
  isError: fc.boolean(),
});

const exchangeSpec = fc.record({
  userText: fc.option(fc.oneof(unicode, fc.constantFrom(' ', '\n')), { nil: undefined }),
  answerText: fc.option(fc.oneof(unicode, words), { nil: undefined }),
  calls: fc.array(call, { maxLength: 3 }),
  /** How the next input answers this answer's calls. */
  answered: fc.constantFrom('all', 'all', 'all', 'first only', 'none'),
  strayResult: fc.boolean(),
  protocol: fc.constantFrom(undefined, undefined, undefined, 'housekeeping', 'context_request'),
});

const settingsSpec = fc
  .record({
    budget: fc.integer({ min: 2_000, max: 30_000 }),
    workingMemoryMax: fc.integer({ min: 1, max: 12 }),
    workingMemoryMin: fc.integer({ min: 1, max: 12 }),
    outputMaskTokens: fc.constantFrom(0, 0, 500),
    tightWindow: fc.boolean(),
  })
  .map(
    (s): Partial<EngineSettings> => ({
      promptBudgetTokens: s.budget,
      workingMemoryMax: Math.max(s.workingMemoryMax, s.workingMemoryMin),
      workingMemoryMin: Math.min(s.workingMemoryMax, s.workingMemoryMin),
      outputMaskTokens: s.outputMaskTokens,
      // a window just above the budget makes the condenser and the sliding window run too
      ...(s.tightWindow ? { contextWindow: s.budget + 1_000, reservedOutputTokens: 1_000, promptBudgetPercent: 100 } : {}),
    }),
  );

type ExchangeSpec = typeof exchangeSpec extends fc.Arbitrary<infer T> ? T : never;

/** The session the specs describe: inputs answer the previous answer's calls as the spec says. */
function messagesOf(specs: ExchangeSpec[], orphanFirst: boolean): Message[] {
  const messages: Message[] = [];
  let previous: { id: string; output: string; isError: boolean }[] = [];
  specs.forEach((spec, i) => {
    const input: ContentBlock[] = [];
    const answered = spec.answered === 'none' ? [] : spec.answered === 'first only' ? previous.slice(0, 1) : previous;
    for (const c of answered) input.push(c.isError ? { type: 'tool_result', tool_use_id: c.id, content: c.output, is_error: true } : { type: 'tool_result', tool_use_id: c.id, content: c.output });
    if (spec.strayResult || (i === 0 && orphanFirst)) input.push({ type: 'tool_result', tool_use_id: `stray${i}`, content: `stray output ${i}` });
    if (spec.userText !== undefined || input.length === 0) input.push({ type: 'text', text: spec.userText ?? `step ${i}` });
    messages.push({ role: 'user', content: input });
    const output: ContentBlock[] = [];
    if (spec.answerText !== undefined) output.push({ type: 'text', text: spec.answerText });
    if (spec.protocol === 'housekeeping') output.push({ type: 'text', text: `<housekeeping>{"summaries":{"e${i + 1}":"did step ${i}"}}</housekeeping>` });
    if (spec.protocol === 'context_request') output.push({ type: 'text', text: `<context_request>{"ids":["e1","e${i + 1}"],"format":"full"}</context_request>` });
    previous = spec.calls.map((c, j) => ({ id: `c${i}_${j}`, output: c.output, isError: c.isError }));
    spec.calls.forEach((c, j) => {
      const input = c.name === 'Bash' ? { command: c.target } : c.name === 'Grep' ? { pattern: c.target } : { file_path: c.target };
      output.push({ type: 'tool_use', id: `c${i}_${j}`, name: c.name, input });
    });
    if (output.length === 0) output.push({ type: 'text', text: 'ok' });
    messages.push({ role: 'assistant', content: output });
  });
  return messages;
}

/** Drives a fresh engine over `messages` with a real SQLite archive in its own temp folder. */
async function replay(messages: Message[], settings: Partial<EngineSettings>) {
  const temp = makeTempDir('strata-prop-');
  const archive = openSqliteArchive(join(temp.dir, 'archive.sqlite'));
  try {
    const engine = new ContextEngine({
      sessionId: 'prop',
      settings: resolveEngineSettings(settings),
      tokenizer: charTokenizer,
      archive,
      summarizer: new ExtractiveSummarizer(charTokenizer),
      clock: steppingClock(Date.UTC(2025, 0, 1), 60_000),
      logger: silentLogger,
      systemPrompt: 'Property-test agent.',
      validateRequests: true,
    });
    const turns: AssembledTurn[] = [];
    for (const m of messages) {
      if (m.role === 'user') engine.beginExchange(m);
      else {
        turns.push(await engine.assemble());
        engine.completeExchange(m);
      }
    }
    const archived = Array.from({ length: archive.lastSeq('prop') }, (_, i) => archive.get('prop', i + 1));
    return { turns, archived };
  } finally {
    archive.close();
    temp.remove();
  }
}

describe('the engine on any session (fast-check, seeded)', () => {
  it('every request is valid, within budget, deterministic, and every exchange is archived verbatim', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(exchangeSpec, { minLength: 1, maxLength: 18 }), fc.boolean(), settingsSpec, async (specs, orphanFirst, settings) => {
        const messages = messagesOf(specs, orphanFirst);
        const a = await replay(messages, settings);
        const b = await replay(messages, settings);
        expect(a.turns.length).toBe(specs.length);
        for (const t of a.turns) {
          expect(requestProblems(t.request), `turn ${t.turn}`).toEqual([]);
          expect(t.tokens, `turn ${t.turn}`).toBeLessThanOrEqual(t.budget);
          expect(t.budget).toBeGreaterThanOrEqual(1_900);
        }
        expect(JSON.stringify(b.turns.map((t) => t.request))).toBe(JSON.stringify(a.turns.map((t) => t.request)));
        expect(a.archived.length).toBe(specs.length);
        a.archived.forEach((row, i) => {
          expect(row?.seq).toBe(i + 1);
          const [input, output] = row!.full;
          // the input as it came (a retrieval asked by the previous answer is appended after it), the answer verbatim
          expect(input!.content.slice(0, messages[2 * i]!.content.length)).toEqual(messages[2 * i]!.content);
          expect(output).toEqual(messages[2 * i + 1]);
        });
      }),
      RUNS,
    );
  });
});
