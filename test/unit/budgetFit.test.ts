import { describe, expect, it } from 'vitest';
import { blockTokens, contentTokens } from '../../src/engine/blockTokens';
import { capTask, housekeepingDue, layerToFit, shrinkPending } from '../../src/engine/budgetFit';
import type { EngineEvent } from '../../src/engine/engineEvents';
import type { EngineState } from '../../src/engine/engineState';
import { effectiveBudget, lowWatermark, newEngineState } from '../../src/engine/engineState';
import type { LiveExchange } from '../../src/engine/liveExchange';
import { emptyNarrative } from '../../src/engine/narrative';
import { buildTurn } from '../../src/engine/requestLayout';
import type { EngineSettings } from '../../src/shared/engineSettings';
import { resolveEngineSettings } from '../../src/shared/engineSettings';
import type { ContentBlock } from '../../src/shared/messages';
import { charTokenizer, text, toolResult } from '../support/engineHarness';

const count = charTokenizer.count;
/** `tokens` tokens of text for the char tokenizer (four characters a token). */
const words = (tokens: number, mark = 'w') => `${mark} ${'abc '.repeat(tokens)}`.slice(0, tokens * 4);

/** Exchange `seq` with a text input and answer of about the given sizes; sizes counted as the engine counts them. */
function textExchange(seq: number, inTokens: number, outTokens: number): LiveExchange {
  const input = [text(words(inTokens, `q${seq}`))];
  const output = [text(words(outTokens, `a${seq}`))];
  return { seq, createdAt: seq, input, output, calls: new Map(), originals: new Map(), inputTokens: contentTokens(input, count), outputTokens: contentTokens(output, count) };
}

/** Exchange `seq` whose input is the output of the previous answer's Bash run (`outTokens` of it). */
function bashExchange(seq: number, outTokens: number): LiveExchange {
  const id = `b${seq}`;
  const body = words(outTokens, `out${seq}`);
  const input = [toolResult(id, body)];
  const output = [text(`ran step ${seq}`)];
  return {
    seq,
    createdAt: seq,
    input,
    output,
    calls: new Map([[id, { name: 'Bash', input: { command: `make step${seq}` } }]]),
    originals: new Map([[id, body]]),
    inputTokens: contentTokens(input, count),
    outputTokens: contentTokens(output, count),
  };
}

/** Exchange `seq` whose input is a Read of its own file, `outTokens` of it. */
function readExchange(seq: number, outTokens: number): LiveExchange {
  const ex = bashExchange(seq, outTokens);
  ex.calls = new Map([[`b${seq}`, { name: 'Read', input: { file_path: `src/f${seq}.ts` } }]]);
  return ex;
}

function pendingWith(seq: number, input: ContentBlock[]): LiveExchange {
  return { seq, createdAt: seq, input, calls: new Map(), originals: new Map(), inputTokens: contentTokens(input, count), outputTokens: 0 };
}

/** A session's state as the engine leaves it: the task first, every completed exchange with its header, `pending` waiting. */
function stateOf(settings: Partial<EngineSettings>, tail: LiveExchange[], pending: LiveExchange): EngineState {
  const state = newEngineState(resolveEngineSettings(settings), charTokenizer, [{ type: 'text', text: 'You are a test agent.' }], [], emptyNarrative('Fix the build'));
  state.task = tail[0]?.input ?? pending.input;
  state.tail = tail;
  for (const ex of tail) {
    state.headers[ex.seq - 1] = { seq: ex.seq, line: `e${ex.seq} step`, tools: [], files: [] };
    state.fileViews.observe(ex);
  }
  state.pending = pending;
  return state;
}

const size = (ex: LiveExchange) => ex.inputTokens + ex.outputTokens;
const relayers = (events: EngineEvent[]) => events.flatMap((e) => (e.type === 'relayer' ? [e] : []));
const small = { promptBudgetTokens: 4_000, contextWindow: 32_000 };

describe('housekeepingDue: the exchanges the next step will hand down, when one is near', () => {
  /** Eight exchanges of 150 tokens (100 in, 50 out) in layered working memory; every derived summary was cut to its cap. */
  function layered(settings: Partial<EngineSettings>) {
    const tail = Array.from({ length: 8 }, (_, i) => textExchange(i + 1, 96, 46));
    const state = stateOf(settings, tail, pendingWith(9, [text('go on')]));
    state.mode = 'layered';
    for (const ex of tail) state.summaries.set(ex.seq, words(state.settings.summaryMaxTokens, `s${ex.seq}`));
    return state;
  }

  it('counts each exchange at its input plus its answer, stops once the prompt is down to the low watermark, and asks for the newest summaryCount of them', () => {
    const state = layered({ ...small, summaryMaxTokens: 20, summaryCount: 2 });
    const s = state.settings;
    const low = lowWatermark(s);
    const each = size(state.tail[0]!);
    expect(state.tail.every((ex) => size(ex) === each && ex.outputTokens < ex.inputTokens)).toBe(true);
    // three exchanges over the low watermark exactly: three leave (a prompt at the mark is under it), and with
    // this turn's exchange joining working memory next turn, one more: e1-e4; the newest two are asked for
    const tokens = low + 3 * each;
    const budget = tokens; // the last exchange repeated would pass it
    expect(housekeepingDue(state, tokens, budget)).toEqual([3, 4]);
    // one token more over the mark: a fourth leaves
    expect(housekeepingDue(state, tokens + 1, budget)).toEqual([4, 5]);
    // far over the mark: working memory goes down to its minimum, never below
    expect(housekeepingDue(state, tokens + 100 * each, budget)).toEqual([8 - s.workingMemoryMin, 8 + 1 - s.workingMemoryMin]);
  });

  it('with a summary band wider than the exchanges leaving, asks for every one of them, oldest first', () => {
    const state = layered({ ...small, summaryMaxTokens: 20, summaryCount: 5 });
    const tokens = lowWatermark(state.settings) + 2 * size(state.tail[0]!);
    expect(housekeepingDue(state, tokens, tokens)).toEqual([1, 2, 3]);
  });

  it('asks nothing while the last exchange, repeated, still fits the budget', () => {
    const state = layered({ ...small, summaryMaxTokens: 20 });
    const tokens = lowWatermark(state.settings) + 3 * size(state.tail[0]!);
    expect(housekeepingDue(state, tokens, tokens + size(state.tail[7]!))).toEqual([]);
  });
});

describe('layerToFit: re-layering alone brings the turn under the budget', () => {
  it('a step hands down only what it must: working memory keeps every exchange that fits under the low watermark, answers counted', () => {
    const settings = resolveEngineSettings(small);
    // short inputs, long answers: an exchange's size is mostly its answer
    const tail = Array.from({ length: 17 }, (_, i) => textExchange(i + 1, 20, 220));
    const state = stateOf(settings, tail, pendingWith(18, [text('go on')]));
    const budget = effectiveBudget(settings);
    expect(buildTurn(state).tokens).toBeGreaterThan(budget);
    const events: EngineEvent[] = [];
    const built = layerToFit(state, budget, 18, events);
    const low = lowWatermark(settings);
    expect(relayers(events).map((e) => e.pressure)).toEqual([0]);
    expect(built.tokens).toBeLessThanOrEqual(low);
    // the newest exchange handed down would not have fitted back
    const lastGone = tail.find((ex) => ex.seq === state.foldedThrough)!;
    expect(built.tokens + size(lastGone)).toBeGreaterThan(low);
    expect(state.tail.length).toBeGreaterThan(settings.workingMemoryMin);
  });

  /** 14 exchanges of about 200 tokens and a pending input of `chars` characters: over the budget, and working memory at its minimum leaves the prompt above the low watermark. */
  const squeezed = (chars: number) => {
    const settings = resolveEngineSettings(small);
    const tail = Array.from({ length: 14 }, (_, i) => bashExchange(i + 1, 200));
    const state = stateOf(settings, tail, pendingWith(15, [text('p'.repeat(chars))]));
    const events: EngineEvent[] = [];
    const built = layerToFit(state, effectiveBudget(settings), 15, events);
    return { settings, state, built, pressures: relayers(events).map((e) => e.pressure) };
  };

  it('stays at pressure 0 when the step leaves the prompt at most halfway between the watermarks, and squeezes harder one token above', () => {
    const probe = squeezed(4 * 1_200);
    const roomy = Math.floor((lowWatermark(probe.settings) + effectiveBudget(probe.settings)) / 2);
    expect(probe.pressures).toEqual([0]);
    expect(probe.state.tail.length).toBe(probe.settings.workingMemoryMin);
    expect(probe.built.tokens).toBeGreaterThan(lowWatermark(probe.settings));
    const at = squeezed(4 * (1_200 + roomy - probe.built.tokens));
    expect([at.built.tokens, at.pressures]).toEqual([roomy, [0]]);
    const above = squeezed(4 * (1_201 + roomy - probe.built.tokens));
    expect(above.pressures.slice(0, 2)).toEqual([0, 1]);
    // pressure 1 masks the outputs working memory keeps, all but the newest
    expect(JSON.stringify(above.state.tail[0]!.input)).toContain('[masked to fit the budget: Bash make step13');
    expect(above.built.tokens).toBeLessThan(roomy);
  });

  it('when each hand-down buys little back (the reads return as file views), tries a few at pressure 0, then masks instead of emptying working memory', () => {
    // file views may take 60% of the budget, and the low watermark is near the budget
    const settings = resolveEngineSettings({ ...small, lowWatermarkPercent: 90, fileViewPercent: 60 });
    const tail = Array.from({ length: 35 }, (_, i) => readExchange(i + 1, 100));
    const state = stateOf(settings, tail, pendingWith(36, [text('go on')]));
    const budget = effectiveBudget(settings);
    expect(buildTurn(state).tokens).toBeGreaterThan(budget);
    const events: EngineEvent[] = [];
    const built = layerToFit(state, budget, 36, events);
    const [calm, squeezed, ...rest] = relayers(events);
    expect([calm?.pressure, squeezed?.pressure, rest]).toEqual([0, 1, []]);
    // pressure 0 stopped (after the step's first hand-down and three more) with more than the minimum still in working memory...
    expect(calm!.foldedThrough).toBeLessThan(35 - settings.workingMemoryMin);
    // ...and pressure 1 masked the outputs of all the exchanges it kept but the newest
    expect(squeezed!.masked).toBe(state.tail.length - 1);
    expect(state.tail.length).toBeGreaterThan(settings.workingMemoryMin);
    expect(built.tokens).toBeLessThanOrEqual(lowWatermark(settings));
  });

  it('an input over the budget by itself: every exchange goes down, pressure rises to its highest, and the rest is left to the caller', () => {
    const settings = resolveEngineSettings(small);
    const budget = effectiveBudget(settings);
    const state = stateOf(settings, Array.from({ length: 6 }, (_, i) => bashExchange(i + 1, 100)), pendingWith(7, [text(words(budget + 500, 'huge'))]));
    const events: EngineEvent[] = [];
    const built = layerToFit(state, budget, 7, events);
    expect(relayers(events).map((e) => e.pressure)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(state.tail).toEqual([]);
    expect(state.foldedThrough).toBe(6);
    expect(built.tokens).toBeGreaterThan(budget);
  });

  /** Ten Bash exchanges of 100 tokens of output, and the output masking threshold at `threshold`. */
  const masking = (threshold: number) => {
    const tail = Array.from({ length: 10 }, (_, i) => bashExchange(i + 1, 100));
    const state = stateOf({ ...small, outputMaskTokens: threshold, outputMaskKeepRecent: 2 }, tail, pendingWith(11, [text('go on')]));
    const events: EngineEvent[] = [];
    layerToFit(state, effectiveBudget(state.settings), 11, events);
    return events;
  };

  it('masks older command output once exactly the threshold of it has piled up, not a token before', () => {
    // the outputs of all but the two newest exchanges are old enough
    const old = Array.from({ length: 8 }, (_, i) => bashExchange(i + 1, 100));
    const piled = old.reduce((sum, ex) => sum + blockTokens(ex.input[0]!, count), 0);
    expect(masking(piled)).toEqual([expect.objectContaining({ type: 'outputs_masked', masked: old.length })]);
    expect(masking(piled + 1)).toEqual([]);
  });
});

describe('shrinkPending: the pending input cut to what the budget leaves', () => {
  it('leaves an input that fits exactly as it is', () => {
    const tail = [textExchange(1, 50, 50)];
    const input = [text(words(300, 'long')), text(words(300, 'other'))];
    const state = stateOf(small, tail, pendingWith(2, input));
    const exact = buildTurn(state).tokens;
    const built = shrinkPending(state, exact);
    expect(built.tokens).toBe(exact);
    expect(state.pending!.input).toEqual(input);
    // one token less: cut
    const cut = shrinkPending(state, exact - 1);
    expect(cut.tokens).toBeLessThanOrEqual(exact - 1);
    expect(JSON.stringify(state.pending!.input)).toContain('…');
  });
});

describe('shrinkPending with many blocks', () => {
  it('an input of many blocks, each over its share, is cut to fit with room for every block', () => {
    // 130 blocks of 100 tokens, far over a 4,000-token budget (an answer that ran 130 tools at once)
    const input = Array.from({ length: 130 }, (_, i) => text(words(100, `file${i}`)));
    const state = stateOf(small, [], pendingWith(1, input));
    const budget = effectiveBudget(state.settings);
    const built = shrinkPending(state, budget);
    expect(built.tokens).toBeLessThanOrEqual(budget);
    // every block keeps its start: none was dropped to make room for the others
    expect(state.pending!.input).toHaveLength(130);
    state.pending!.input.forEach((b, i) => expect(b.type === 'text' && b.text.startsWith(`file${i} abc`)).toBe(true));
  });
});

describe('capTask: the task cut so that each block holds its share', () => {
  it('shares the cap among the blocks, never less than 50 tokens a block', () => {
    const blocks = [text(words(400, 'one')), text(words(400, 'two')), text(words(400, 'three'))];
    const capped = capTask(blocks, 600, count);
    expect(capped).toHaveLength(3);
    for (const b of capped) expect(blockTokens(b, count)).toBeLessThanOrEqual(200 + 3);
    expect(contentTokens(capped, count)).toBeLessThanOrEqual(600 + 4 + 3 * 3);
    const floor = capTask(blocks, 60, count);
    for (const b of floor) expect(count(b.type === 'text' ? b.text : '')).toBeLessThanOrEqual(50);
    for (const b of floor) expect(count(b.type === 'text' ? b.text : '')).toBeGreaterThan(20);
  });
});
