import { describe, expect, it } from 'vitest';
import { effectiveBudget, newEngineState, sessionBudget } from '../../src/engine/engineState';
import { emptyNarrative } from '../../src/engine/narrative';
import type { ArchivedExchange } from '../../src/engine/ports';
import { foldFromArchive, resumeFromArchive } from '../../src/engine/resume';
import { Supersessions } from '../../src/engine/supersessions';
import type { EngineSettings } from '../../src/shared/engineSettings';
import { resolveEngineSettings } from '../../src/shared/engineSettings';
import type { ContentBlock } from '../../src/shared/messages';
import { archivedTurn } from '../support/archivedTurn';
import { charTokenizer, text, toolResult, toolUse } from '../support/engineHarness';
import { MemoryArchive } from '../support/memoryArchive';
import { engineOver, exchange, lastInput } from '../support/loggedEngine';

const freshState = (settings: Partial<EngineSettings> = {}) => newEngineState(resolveEngineSettings(settings), charTokenizer, [], [], emptyNarrative(''));

/** Row `seq` of session s1 whose answer is `answer` blocks (after the archivedTurn text). */
function turn(seq: number, input: ContentBlock[], answer: ContentBlock[] = []): ArchivedExchange {
  const row = archivedTurn('s1', seq, seq, input, `answer ${seq}`);
  row.full[1]!.content.push(...answer);
  return row;
}

function archiveOf(rows: ArchivedExchange[]): MemoryArchive {
  const archive = new MemoryArchive();
  for (const row of rows) archive.put(row);
  return archive;
}

/** Six turns of about 5,000 tokens each (the char tokenizer counts 4 characters a token), archived with their size: 30,000 in all. */
function bigTurns(): ArchivedExchange[] {
  return [1, 2, 3, 4, 5, 6].map((seq) => {
    const row = turn(seq, [text(`step ${seq}: ${'x'.repeat(19_900)}`)]);
    row.tokens = 5_000;
    return row;
  });
}

describe('resumeFromArchive: the headers it rebuilds', () => {
  it('keeps each archived header line and the tools the answer called, once each, in first-call order', () => {
    const archive = archiveOf([
      turn(1, [text('Fix the parser')], [toolUse('a', 'Read', { file_path: 'src/p.ts' }), toolUse('b', 'Bash', { command: 'npm test' }), toolUse('c', 'Read', { file_path: 'src/q.ts' })]),
      turn(2, [toolResult('c', 'export {}')]),
    ]);
    const state = freshState();
    expect(resumeFromArchive(state, archive, 's1', new Supersessions())).toBe(3);
    expect(state.headers).toEqual([
      { seq: 1, line: 'e1 header of s1', tools: ['Read', 'Bash'], files: [] },
      { seq: 2, line: 'e2 header of s1', tools: ['text'], files: [] },
    ]);
    // two small turns: both back in working memory, nothing folded
    expect(state.tail.map((e) => e.seq)).toEqual([1, 2]);
    expect(state.foldedThrough).toBe(0);
  });

  it('stands in for a row missing from the archive, and goes on past it', () => {
    const archive = archiveOf([turn(1, [text('Start here')]), turn(3, [text('Carry on')], [toolUse('x', 'Grep', { pattern: 'todo' })])]);
    const state = freshState();
    expect(resumeFromArchive(state, archive, 's1', new Supersessions())).toBe(4);
    expect(state.headers).toEqual([
      { seq: 1, line: 'e1 header of s1', tools: ['text'], files: [] },
      { seq: 2, line: 'e2 (missing from the archive)', tools: ['text'], files: [] },
      { seq: 3, line: 'e3 header of s1', tools: ['Grep'], files: [] },
    ]);
    expect([...state.summaries.keys()].sort()).toEqual([1, 3]);
  });

  it('takes the task from the first row, and leaves it unset when that row is missing', () => {
    const state = freshState();
    resumeFromArchive(state, archiveOf([turn(1, [text('Fix the parser in src/p.ts')]), turn(2, [text('more')])]), 's1', new Supersessions());
    expect(state.task).toEqual([text('Fix the parser in src/p.ts')]);
    const orphan = freshState();
    resumeFromArchive(orphan, archiveOf([turn(2, [text('second only')])]), 's1', new Supersessions());
    expect(orphan.task).toBeUndefined();
    expect(orphan.headers[0]!.line).toBe('e1 (missing from the archive)');
  });
});

describe('resumeFromArchive: the summaries it keeps', () => {
  it('keeps the summaryCount summaries just below working memory, and working memory\'s own', () => {
    const state = freshState({ summaryCount: 3 });
    resumeFromArchive(state, archiveOf(bigTurns()), 's1', new Supersessions());
    expect(state.tail.map((e) => e.seq)).toEqual([5, 6]);
    expect([...state.summaries.entries()].sort((a, b) => a[0] - b[0])).toEqual([
      [2, 'e2 summary of s1'],
      [3, 'e3 summary of s1'],
      [4, 'e4 summary of s1'],
      [5, 'e5 summary of s1'],
      [6, 'e6 summary of s1'],
    ]);
  });

  it('counts superseded rows out of that window and maps them to their replacement', () => {
    const rows = bigTurns();
    rows[2]!.supersededBy = 6;
    rows[3]!.supersededBy = 6;
    const supersessions = new Supersessions();
    const state = freshState({ summaryCount: 1 });
    resumeFromArchive(state, archiveOf(rows), 's1', supersessions);
    expect(supersessions.aliases()).toEqual({ e3: 'e6', e4: 'e6' });
    expect(state.headers.filter((h) => h !== undefined).map((h) => h.seq)).toEqual([1, 2, 5, 6]);
    expect(state.tail.map((e) => e.seq)).toEqual([5, 6]);
    expect([...state.summaries.keys()].sort()).toEqual([2, 5, 6]);
  });
});

describe('foldFromArchive', () => {
  it('folds only the exchanges before the given seq', () => {
    const archive = archiveOf([1, 2, 3, 4].map((seq) => turn(seq, [text(`step ${seq}`)])));
    const state = freshState();
    foldFromArchive(state, archive, 's1', new Supersessions(), 3);
    expect(state.headers.map((h) => h?.seq)).toEqual([1, 2]);
    expect(state.tail.map((e) => e.seq)).toEqual([1, 2]);
    expect(state.foldedThrough).toBe(0);
  });
});

describe('resumeFromArchive: the working memory it restores', () => {
  it('puts the newest exchanges back verbatim, as many as the low watermark holds (30% of 40,000 = 12,000: two), and folds the rest', () => {
    const state = freshState();
    resumeFromArchive(state, archiveOf(bigTurns()), 's1', new Supersessions());
    expect(state.tail.map((e) => e.seq)).toEqual([5, 6]);
    expect(state.tail[0]!.input).toEqual([text(`step 5: ${'x'.repeat(19_900)}`)]);
    expect(state.tail[1]!.output).toEqual([text('answer 6')]);
    expect(state.foldedThrough).toBe(4);
    expect(state.historyTokens).toBe(30_000);
    // L3 is the band below working memory (e1-e4, summaryCount 5) plus working memory's own
    expect([...state.summaries.keys()].sort()).toEqual([1, 2, 3, 4, 5, 6]);
    expect(state.archiveText).toContain('e4 summary of s1');
    expect(state.archiveText).not.toContain('e5 summary of s1');
  });

  it('holds more once the session had grown: its archived length sets the budget (balanced grows past 2.5 x 40,000)', () => {
    const rows = Array.from({ length: 30 }, (_, i) => {
      const row = turn(i + 1, [text(`step ${i + 1}: ${'y'.repeat(19_900)}`)]);
      row.tokens = 5_000; // 150,000 in all
      return row;
    });
    const grown = freshState({ contextWindow: 200_000 });
    resumeFromArchive(grown, archiveOf(rows), 's1', new Supersessions());
    const base = freshState({ contextWindow: 200_000, contextPreset: 'economy' });
    resumeFromArchive(base, archiveOf(rows), 's1', new Supersessions());
    expect(base.tail.length).toBe(2);
    expect(grown.tail.length).toBeGreaterThan(base.tail.length);
    expect(grown.historyTokens).toBe(150_000);
  });

  it('sizes the base by the largest file the archived exchanges read, as the session had it', () => {
    const big = Array.from({ length: 2_400 }, (_, l) => `const large${l} = ${l};`).join('\n');
    const rows = [turn(1, [text('Read the renderer.')], [toolUse('r', 'Read', { file_path: 'src/large.ts' })]), turn(2, [toolResult('r', big)])];
    const state = freshState({ contextWindow: 200_000 });
    resumeFromArchive(state, archiveOf(rows), 's1', new Supersessions());
    expect(state.largestFileRead).toBe(charTokenizer.count(big));
    expect(sessionBudget(state)).toBe(Math.ceil(charTokenizer.count(big) / 0.25));
    expect(sessionBudget(state)).toBeGreaterThan(effectiveBudget(state.settings));
  });

  it('stops at a row without an answer or missing from the archive: what is older is folded', () => {
    const rows = bigTurns().slice(0, 4).map((row) => ({ ...row, tokens: 100, full: [row.full[0]!, { role: 'assistant' as const, content: [text(`answer ${row.seq}`)] }] }));
    rows[2] = { ...rows[2]!, full: [rows[2]!.full[0]!] }; // e3: the turn the window went away in, no answer archived
    const state = freshState();
    resumeFromArchive(state, archiveOf(rows.map((r) => ({ ...r, full: r.full.map((m) => ({ ...m, content: [text(`${m.role} ${r.seq}`)] })) }))), 's1', new Supersessions());
    expect(state.tail.map((e) => e.seq)).toEqual([4]);
    expect(state.foldedThrough).toBe(3);
    const gap = freshState();
    resumeFromArchive(gap, archiveOf([turn(1, [text('a')]), turn(3, [text('c')])]), 's1', new Supersessions());
    expect(gap.tail.map((e) => e.seq)).toEqual([3]);
    expect(gap.foldedThrough).toBe(2);
  });

  it('keeps at most workingMemoryMax exchanges once something is folded', () => {
    // about 62 tokens a turn, 300 tokens of low watermark: four would fit
    const rows = [1, 2, 3, 4, 5, 6].map((seq) => turn(seq, [text(`step ${seq} ${'w'.repeat(230)}`)]));
    const state = freshState({ promptBudgetTokens: 2_000, lowWatermarkPercent: 15, workingMemoryMax: 2, workingMemoryMin: 1 });
    resumeFromArchive(state, archiveOf(rows), 's1', new Supersessions());
    expect(state.tail.map((e) => e.seq)).toEqual([5, 6]);
    const roomy = freshState({ promptBudgetTokens: 2_000, lowWatermarkPercent: 15, workingMemoryMax: 3, workingMemoryMin: 1 });
    resumeFromArchive(roomy, archiveOf(rows), 's1', new Supersessions());
    expect(roomy.tail.map((e) => e.seq)).toEqual([4, 5, 6]);
    expect(state.foldedThrough).toBe(4);
  });

  it('answers a tool result in working memory with the call of the answer before it, and renders an orphan as text in the first input', async () => {
    const rows = bigTurns();
    rows[3]!.full[1]!.content.push(toolUse('r', 'Read', { file_path: 'src/p.ts' }));
    rows[4] = { ...rows[4]!, full: [{ role: 'user', content: [toolResult('r', `export const p = 1;\n${'z'.repeat(19_800)}`)] }, rows[4]!.full[1]!] };
    rows[4]!.full[1]!.content.push(toolUse('s', 'Read', { file_path: 'src/q.ts' }));
    rows[5] = { ...rows[5]!, full: [{ role: 'user', content: [toolResult('s', `export const q = 2;\n${'q'.repeat(19_800)}`)] }, rows[5]!.full[1]!] };
    const { engine, errors } = engineOver(archiveOf(rows));
    engine.beginExchange({ role: 'user', content: [text('Go on please')] });
    const turn7 = await engine.assemble(); // validateRequests: the API's shape rules hold
    expect(errors).toEqual([]);
    const messages = turn7.request.messages;
    // e5's result answers a call of the folded e4: shown as text after <strata_context>; e6's answers e5's call
    expect(JSON.stringify(messages[0]!.content)).toContain('export const p = 1;');
    expect(messages[2]!.content).toMatchObject([{ type: 'tool_result', tool_use_id: 's' }]);
    expect(JSON.stringify(messages[2]!.content)).toContain('export const q = 2;');
  });
});

describe('a resumed engine', () => {
  it('answers the calls of the last answer it took back (a turn killed mid-tool) so the next request is valid', async () => {
    const archive = archiveOf([turn(1, [text('Fix the parser')], [toolUse('a', 'Read', { file_path: 'src/p.ts' })])]);
    const { engine, errors } = engineOver(archive);
    engine.beginExchange({ role: 'user', content: [text('Go on please')] });
    const turn2 = await engine.assemble(); // validateRequests: every tool_use must be answered
    expect(errors).toEqual([]);
    expect(turn2.request.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(turn2.request.messages[2]!.content[0]).toMatchObject({ type: 'tool_result', tool_use_id: 'a' });
    // the same after an edited resend rebuilt from the archive (no checkpoint: the engine was reopened)
    engine.completeExchange({ role: 'assistant', content: [text('done')] });
    const again = engineOver(archive).engine;
    again.supersedeFrom(2);
    again.beginExchange({ role: 'user', content: [text('Go on, differently')] }, { userMessage: true });
    expect((await again.assemble()).request.messages[2]!.content[0]).toMatchObject({ type: 'tool_result', tool_use_id: 'a' });
  });

  it("shows the archived headers and recent summaries in its next request, its recent past verbatim, and numbers on from the archive's last seq", async () => {
    const { engine } = engineOver(archiveOf(bigTurns()));
    expect(engine.beginExchange({ role: 'user', content: [text('Go on please')] })).toBe(7);
    const turn7 = await engine.assemble();
    const first = turn7.request.messages[0]!.content.map((b) => (b.type === 'text' ? b.text : '')).join('\n');
    expect(first).toContain('step 1:');
    expect(first).toMatch(
      /<strata_context>\n## Earlier exchanges \(L2 headers\)\ne1 header of s1\ne2 header of s1\ne3 header of s1\ne4 header of s1\n## Recent summaries \(L3\)\ne1 summary of s1\ne2 summary of s1\ne3 summary of s1\ne4 summary of s1\n/,
    );
    expect(first).toContain('step 5:');
    const texts = turn7.request.messages.map((m) => m.content.map((b) => (b.type === 'text' ? b.text.slice(0, 8) : b.type)).join('|'));
    expect(texts.slice(1)).toEqual(['answer 5', 'step 6: ', 'answer 6', expect.stringContaining('Go on p')]);
  });
});

describe('Supersessions', () => {
  it('lists aliases by ascending old id, whatever order they were added in', () => {
    const supersessions = new Supersessions();
    supersessions.add([7], 9);
    supersessions.add([3, 4], 5);
    expect(Object.entries(supersessions.aliases())).toEqual([
      ['e3', 'e5'],
      ['e4', 'e5'],
      ['e7', 'e9'],
    ]);
  });

  it('notes a superseded exchange, following the chain when its replacement was itself replaced', () => {
    const supersessions = new Supersessions();
    supersessions.add([2], 5);
    supersessions.add([5], 8);
    supersessions.add([8], 11);
    supersessions.add([20], 21);
    const tail = 'is no longer part of the conversation and is shown for reference only]';
    expect(supersessions.note(20)).toBe(`[e20 is superseded: the user edited an earlier message and resent it as e21; e20 ${tail}`);
    expect(supersessions.note(2)).toBe(`[e2 is superseded: the user edited an earlier message and resent it as e5 (itself superseded, now e8 -> e11); e2 ${tail}`);
    expect(supersessions.note(21)).toBeUndefined();
  });
});

describe('a resend from a checkpoint', () => {
  it('gives the resent message the retrieval its original carried', async () => {
    const { engine } = engineOver(new MemoryArchive());
    await exchange(engine, [text('Fix the parser')], [text('Reading the parser first.')]);
    await exchange(engine, [text('Also the lexer')], [text('I need e1 again.\n<context_request>{"ids":["e1"],"format":"header"}</context_request>')]);
    const original = await exchange(engine, [text('Now the tests')], [text('Done.')]);
    const retrievals = (blocks: ContentBlock[]) => blocks.flatMap((b) => (b.type === 'text' && b.text.startsWith('<retrieved') ? [b.text] : []));
    const retrieved = retrievals(lastInput(original.request));
    expect(retrieved).toHaveLength(1);
    expect(retrieved[0]).toContain('e1 ');
    expect(engine.supersedeFrom(3)).toEqual({ superseded: [3], by: 4 });
    engine.beginExchange({ role: 'user', content: [text('Now the tests, edited')] }, { userMessage: true });
    const resent = await engine.assemble();
    expect(retrievals(lastInput(resent.request))).toEqual(retrieved);
  });
});
