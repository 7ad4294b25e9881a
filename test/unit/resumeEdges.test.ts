import { describe, expect, it } from 'vitest';
import { newEngineState } from '../../src/engine/engineState';
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
    expect(state.foldedThrough).toBe(2);
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
  it('keeps exactly the newest summaryCount archived summaries', () => {
    const rows = [1, 2, 3, 4, 5, 6].map((seq) => turn(seq, [text(`step ${seq}`)]));
    const state = freshState({ summaryCount: 3 });
    resumeFromArchive(state, archiveOf(rows), 's1', new Supersessions());
    expect([...state.summaries.entries()].sort((a, b) => a[0] - b[0])).toEqual([
      [4, 'e4 summary of s1'],
      [5, 'e5 summary of s1'],
      [6, 'e6 summary of s1'],
    ]);
  });

  it('counts superseded rows out of that window and maps them to their replacement', () => {
    const rows = [1, 2, 3, 4, 5].map((seq) => turn(seq, [text(`step ${seq}`)]));
    rows[2]!.supersededBy = 5;
    rows[3]!.supersededBy = 5;
    const supersessions = new Supersessions();
    const state = freshState({ summaryCount: 2 });
    resumeFromArchive(state, archiveOf(rows), 's1', supersessions);
    expect(supersessions.aliases()).toEqual({ e3: 'e5', e4: 'e5' });
    expect(state.headers.filter((h) => h !== undefined).map((h) => h.seq)).toEqual([1, 2, 5]);
    expect([...state.summaries.keys()].sort()).toEqual([2, 5]);
  });
});

describe('foldFromArchive', () => {
  it('folds only the exchanges before the given seq', () => {
    const archive = archiveOf([1, 2, 3, 4].map((seq) => turn(seq, [text(`step ${seq}`)])));
    const state = freshState();
    foldFromArchive(state, archive, 's1', new Supersessions(), 3);
    expect(state.headers.map((h) => h?.seq)).toEqual([1, 2]);
    expect(state.foldedThrough).toBe(2);
  });
});

describe('a resumed engine', () => {
  it("shows the archived headers and recent summaries in its next request, and numbers on from the archive's last seq", async () => {
    const archive = archiveOf([turn(1, [text('Fix the parser')], [toolUse('a', 'Read', { file_path: 'src/p.ts' })]), turn(2, [toolResult('a', 'export {}')])]);
    const { engine } = engineOver(archive);
    expect(engine.beginExchange({ role: 'user', content: [text('Go on please')] })).toBe(3);
    const turn3 = await engine.assemble();
    const first = turn3.request.messages[0]!.content.map((b) => (b.type === 'text' ? b.text : '')).join('\n');
    expect(first).toContain('Fix the parser');
    const last = lastInput(turn3.request);
    const block = last.find((b) => b.type === 'text' && b.text.startsWith('<strata_context>'));
    expect(block?.type === 'text' && block.text).toMatch(
      /^<strata_context>\n## Earlier exchanges \(L2 headers\)\ne1 header of s1\ne2 header of s1\n## Recent summaries \(L3\)\ne1 summary of s1\ne2 summary of s1\n/,
    );
    expect(last[last.length - 1]).toMatchObject(text('Go on please'));
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
