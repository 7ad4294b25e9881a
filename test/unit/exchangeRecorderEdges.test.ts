import { describe, expect, it } from 'vitest';
import { messageTokens } from '../../src/engine/blockTokens';
import { exchangeEntities } from '../../src/engine/derive/entities';
import { newEngineState } from '../../src/engine/engineState';
import type { Exchange } from '../../src/engine/exchange';
import { ExchangeRecorder } from '../../src/engine/exchangeRecorder';
import { emptyNarrative } from '../../src/engine/narrative';
import type { ArchivedExchange } from '../../src/engine/ports';
import { resolveEngineSettings } from '../../src/shared/engineSettings';
import type { ContentBlock } from '../../src/shared/messages';
import { assistant, charTokenizer, silentLogger, text, toolResult, toolUse, user } from '../support/engineHarness';
import { MemoryArchive } from '../support/memoryArchive';

const T0 = Date.UTC(2025, 0, 1, 9, 0, 0);

/** A recorder over a fresh state and an in-memory archive, with the warnings its logger got. */
function recorder(archive = new MemoryArchive()) {
  const state = newEngineState(resolveEngineSettings({}), charTokenizer, [], [], emptyNarrative(''));
  const warnings: string[] = [];
  const rec = new ExchangeRecorder({ sessionId: 's1', archive, logger: { ...silentLogger, warn: (m: string) => warnings.push(m) } }, state);
  return { rec, state, archive, warnings };
}

const ex = (seq: number, input: ContentBlock[], output: ContentBlock[]): Exchange => ({ seq, createdAt: T0 + seq * 60_000, input: user(...input), output: assistant(...output) });
const plain = (seq: number, words = `Question ${seq}`) => ex(seq, [text(words)], [text(`Answer ${seq}.`)]);
const row = (archive: MemoryArchive, seq: number): ArchivedExchange => archive.get('s1', seq)!;

describe('ExchangeRecorder: the header record of an exchange', () => {
  it('lists each tool the answer called once, in first-call order', () => {
    const { rec, state } = recorder();
    rec.record(
      ex(1, [text('Look around')], [text('Reading.'), toolUse('a', 'Read', { file_path: 'src/a.ts' }), toolUse('b', 'Bash', { command: 'ls' }), toolUse('c', 'Read', { file_path: 'src/b.ts' })]),
      undefined,
    );
    expect(state.headers[0]!.tools).toEqual(['Read', 'Bash']);
  });

  it('names an answer without tool calls "text"', () => {
    const { rec, state } = recorder();
    rec.record(plain(1), undefined);
    expect(state.headers[0]!.tools).toEqual(['text']);
  });

  it('keeps the first three files the exchange touched', () => {
    const { rec, state } = recorder();
    const reads = ['src/one.ts', 'src/two.ts', 'src/three.ts', 'src/four.ts'].map((f, i) => toolUse(`t${i}`, 'Read', { file_path: f }));
    const exchange = ex(1, [text('Read them all')], reads);
    rec.record(exchange, undefined);
    expect(exchangeEntities(exchange).files.length).toBeGreaterThan(3);
    expect(state.headers[0]!.files).toEqual(['src/one.ts', 'src/two.ts', 'src/three.ts']);
  });

  it('indexes the exchange under its files, symbols and errors, each by its own kind', () => {
    const { rec, state } = recorder();
    const exchange = ex(
      2,
      [toolResult('t1', 'TypeError: Cannot read properties of undefined (reading parseHeader)\n    at parseHeader (src/parser.ts:12:5)', true)],
      [text('The crash is in `parseHeader` of src/parser.ts; I will guard `parseHeader` against undefined input.')],
    );
    const entities = exchangeEntities(exchange);
    expect(entities.symbols.length).toBeGreaterThan(0);
    expect(entities.errors.length).toBeGreaterThan(0);
    rec.record(exchange, undefined);
    for (const f of entities.files) expect(state.index.lookup('file', f)).toEqual([2]);
    for (const s of entities.symbols) expect(state.index.lookup('symbol', s)).toEqual([2]);
    for (const e of entities.errors) expect(state.index.lookup('error', e)).toEqual([2]);
  });
});

describe('ExchangeRecorder: the archived row', () => {
  it('stores the input and answer verbatim with their summed token count', () => {
    const { rec, archive } = recorder();
    const exchange = ex(1, [text('Explain the parser in detail, please.')], [text('It reads a header, then the body, then the trailer.')]);
    rec.record(exchange, undefined);
    const count = (s: string) => charTokenizer.count(s);
    const stored = row(archive, 1);
    expect(stored.full).toEqual([exchange.input, exchange.output]);
    expect(stored.createdAt).toBe(exchange.createdAt);
    expect(stored.tokens).toBe(messageTokens(exchange.input, count) + messageTokens(exchange.output, count));
    expect(stored.supersedes).toBeUndefined();
  });

  it('marks on the resend row every exchange superseded for it, across several calls with the same seq', () => {
    const { rec, archive } = recorder();
    for (const seq of [1, 2, 3]) rec.record(plain(seq), undefined);
    rec.supersede([2], 4);
    rec.supersede([3], 4);
    rec.record(plain(4, 'Question 2, edited'), undefined);
    expect(row(archive, 4).supersedes).toEqual([2, 3]);
    expect(row(archive, 2).supersededBy).toBe(4);
    expect(row(archive, 3).supersededBy).toBe(4);
    rec.record(plain(5), undefined);
    expect(row(archive, 5).supersedes).toBeUndefined();
  });

  it('starts a new list when a later resend names another seq', () => {
    const { rec, archive } = recorder();
    for (const seq of [1, 2]) rec.record(plain(seq), undefined);
    rec.supersede([2], 3);
    rec.supersede([1], 4);
    rec.record(plain(4), undefined);
    expect(row(archive, 4).supersedes).toEqual([1]);
  });
  it('marks a row whose write is still waiting as superseded, readable before and stored after the retry', () => {
    const { rec, archive } = recorder();
    rec.record(plain(1), undefined);
    archive.failWrites = true;
    rec.record(plain(2), undefined);
    expect(rec.pendingWrites).toBe(1);
    rec.supersede([2], 3);
    expect(rec.reader.get('s1', 2)).toMatchObject({ seq: 2, supersededBy: 3 });
    archive.failWrites = false;
    expect(rec.flush().pending).toEqual([]);
    expect(row(archive, 2).supersededBy).toBe(3);
    expect(row(archive, 1).supersededBy).toBeUndefined();
  });
});

describe("ExchangeRecorder: the model's housekeeping", () => {
  it('applies a summary and header for the exchange being recorded itself', () => {
    const { rec, state, archive } = recorder();
    const problems = rec.record(plain(1), { summaries: { e1: 'asked a question' }, headers: { e1: 'e1 the question' } });
    expect(problems).toEqual([]);
    expect(state.summaries.get(1)).toBe('e1: asked a question');
    expect(state.headers[0]!.line).toBe('e1 the question');
    expect(row(archive, 1)).toMatchObject({ header: 'e1 the question', summary: 'e1: asked a question' });
  });

  it('replaces only the line of an older exchange, keeping its seq, tools and files', () => {
    const { rec, state, archive } = recorder();
    rec.record(ex(1, [text('Read it')], [toolUse('a', 'Read', { file_path: 'src/first.ts' })]), undefined);
    rec.record(ex(2, [toolResult('a', 'export const x = 1;')], [toolUse('b', 'Bash', { command: 'npm test' })]), undefined);
    const before = { ...state.headers[0]!, tools: [...state.headers[0]!.tools], files: [...state.headers[0]!.files] };
    const second = state.headers[1];
    const problems = rec.record(plain(3), { summaries: { e1: 'read the first file' }, headers: { e1: 'e1 read first.ts' } });
    expect(problems).toEqual([]);
    expect(state.headers[0]).toEqual({ ...before, line: 'e1 read first.ts' });
    expect(before).toMatchObject({ seq: 1, tools: ['Read'], files: ['src/first.ts'] });
    expect(state.headers[1]).toBe(second);
    expect(row(archive, 1)).toMatchObject({ header: 'e1 read first.ts', summary: 'e1: read the first file' });
  });

  it('keeps the derived header line when the model gives only a summary', () => {
    const { rec, state, archive } = recorder();
    rec.record(plain(1), undefined);
    const line = state.headers[0]!.line;
    rec.record(plain(2), { summaries: { e1: 'only a summary' } });
    expect(state.headers[0]!.line).toBe(line);
    expect(row(archive, 1)).toMatchObject({ header: line, summary: 'e1: only a summary' });
  });

  it('ignores, and says so, a summary for an id that is no exchange of the session', () => {
    const { rec, state } = recorder();
    rec.record(plain(1), undefined);
    const problems = rec.record(plain(2), { summaries: { e9: 'not there', notAnId: 'nor this' } });
    expect(problems).toEqual([
      'Housekeeping named e9, which is not an exchange of this session; ignored.',
      'Housekeeping named notAnId, which is not an exchange of this session; ignored.',
    ]);
    expect(state.summaries.has(9)).toBe(false);
    expect(state.headers).toHaveLength(2);
  });
});

describe('ExchangeRecorder: housekeeping tokens and reads', () => {
  it('counts the housekeeping block the protocol asks for, keyed by exchange id', () => {
    const { rec, state } = recorder();
    rec.record(plain(1), undefined);
    rec.record(plain(2), undefined);
    const narrative = { ...emptyNarrative('task'), state: 'reading', nextSteps: ['fix it'] };
    const body = JSON.stringify({ summaries: { e1: state.summaries.get(1), e2: state.summaries.get(2), e7: '' }, narrative: { state: 'reading', nextSteps: ['fix it'] } });
    expect(rec.housekeepingTokens([1, 2, 7], narrative)).toBe(charTokenizer.count(`<housekeeping>${body}</housekeeping>`));
  });

  it('reads a row the archive cannot give as missing, and logs why', () => {
    const archive = new MemoryArchive();
    archive.get = () => {
      throw new Error('disk I/O error while reading e1');
    };
    const { rec, warnings } = recorder(archive);
    expect(rec.reader.get('s1', 1)).toBeUndefined();
    expect(warnings).toEqual(['disk I/O error while reading e1']);
  });

  it('reads a thrown non-Error as its text', () => {
    const archive = new MemoryArchive();
    archive.get = () => {
      throw 'database is locked';
    };
    const { rec, warnings } = recorder(archive);
    expect(rec.reader.get('s1', 3)).toBeUndefined();
    expect(warnings).toEqual(['database is locked']);
  });
});
