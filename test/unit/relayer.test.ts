import { describe, expect, it } from 'vitest';
import { condense, slideWindow } from '../../src/engine/condenser';
import type { EngineState, Pressure } from '../../src/engine/engineState';
import { activeHeaders, layerBudgets, newEngineState } from '../../src/engine/engineState';
import type { LiveExchange } from '../../src/engine/liveExchange';
import { NO_RESULT_TEXT } from '../../src/engine/liveExchange';
import { emptyNarrative } from '../../src/engine/narrative';
import type { Summarizer } from '../../src/engine/ports';
import { relayer } from '../../src/engine/relayer';
import { resolveEngineSettings } from '../../src/shared/engineSettings';
import { charTokenizer } from '../support/engineHarness';

/** Exchange `seq`: its input answers the previous answer's call (a Bash run, or a Read of `reads`). */
function live(seq: number, reads?: string): LiveExchange {
  const id = `t${seq}`;
  const call = reads ? { name: 'Read', input: { file_path: reads } } : { name: 'Bash', input: { command: `make ${seq}` } };
  const output = `output of call ${seq}\n`.repeat(20);
  return {
    seq,
    createdAt: seq,
    input: [{ type: 'tool_result', tool_use_id: id, content: output }],
    output: [{ type: 'text', text: `answer ${seq}` }],
    calls: new Map([[id, call]]),
    originals: new Map([[id, output]]),
    inputTokens: 100,
    outputTokens: 5,
  };
}

function stateWith(tail: LiveExchange[], pressure: Pressure = 0, settings = {}): EngineState {
  const state = newEngineState(resolveEngineSettings(settings), charTokenizer, [{ type: 'text', text: 'sys' }], [], emptyNarrative('Goal'));
  state.task = [{ type: 'text', text: 'Goal' }];
  state.tail = tail;
  // every exchange has its L2 header (index = seq - 1), as the recorder leaves it
  for (const ex of tail) state.headers[ex.seq - 1] = { seq: ex.seq, line: `e${ex.seq} step`, tools: [], files: [] };
  state.pressure = pressure;
  return state;
}

const outputText = (ex: LiveExchange) => JSON.stringify(ex.input);

describe('relayer: one step down, then pointers', () => {
  it('at pressure 0 hands the oldest down and masks nothing but superseded reads', () => {
    const state = stateWith([live(1), live(2, 'a.ts'), live(3), live(4, 'a.ts'), live(5)]);
    expect(relayer(state, 3)).toBe(0); // e2's read of a.ts leaves with e1 and e2
    expect(state.tail.map((e) => e.seq)).toEqual([3, 4, 5]);
    expect(state.foldedThrough).toBe(2);
    expect(state.mode).toBe('layered');
    expect(state.archiveText).toMatch(/^<strata_context>\n[\s\S]*<\/strata_context>$/);
  });

  it('supersedes an older read of a file read again later, counting it, and leaves other reads', () => {
    const state = stateWith([live(1, 'a.ts'), live(2, 'b.ts'), live(3, 'a.ts'), live(4)]);
    expect(relayer(state, 4)).toBe(1);
    expect(outputText(state.tail[0]!)).toContain('[superseded, a.ts was read again in e3: Read a.ts, 21 lines');
    expect(outputText(state.tail[1]!)).toContain('output of call 2');
    expect(outputText(state.tail[2]!)).toContain('output of call 3');
  });

  it('a read in the pending input supersedes one in working memory too', () => {
    const state = stateWith([live(1, 'a.ts'), live(2)]);
    state.pending = live(3, 'a.ts');
    expect(relayer(state, 2)).toBe(1);
    expect(outputText(state.tail[0]!)).toContain('superseded, a.ts was read again in e3');
  });

  it('a partial read supersedes an earlier read only when its text holds that read\'s text', () => {
    const part = (seq: number, offset: number, output: string): LiveExchange => {
      const ex = live(seq);
      ex.calls = new Map([[`t${seq}`, { name: 'Read', input: { file_path: 'a.ts', offset, limit: 50 } }]]);
      ex.input = [{ type: 'tool_result', tool_use_id: `t${seq}`, content: output }];
      ex.originals = new Map([[`t${seq}`, output]]);
      return ex;
    };
    const otherRanges = stateWith([part(1, 1, 'lines 1-50'), part(2, 200, 'lines 200-250'), live(3)]);
    expect(relayer(otherRanges, 3)).toBe(0);
    expect(outputText(otherRanges.tail[0]!)).toContain('lines 1-50');
    const wider = stateWith([part(1, 10, 'lines 10-20'), part(2, 1, 'lines 1-9\nlines 10-20\nlines 21-50'), live(3)]);
    expect(relayer(wider, 3)).toBe(1);
    expect(outputText(wider.tail[0]!)).toContain('[superseded, a.ts was read again in e2');
    const whole = stateWith([part(1, 1, 'lines 1-50'), live(2, 'a.ts'), live(3)]);
    expect(relayer(whole, 3)).toBe(1);
    expect(outputText(whole.tail[0]!)).toContain('[superseded, a.ts was read again in e2');
  });

  it('a change after a read supersedes it, unless a read after the change shows the file again', () => {
    const edit = (seq: number, path: string): LiveExchange => {
      const ex = live(seq);
      ex.calls = new Map([[`t${seq}`, { name: 'Edit', input: { file_path: path, old_string: 'a', new_string: 'b' } }]]);
      return ex;
    };
    const readThenEdit = stateWith([live(1, 'a.ts'), live(2, 'a.ts'), edit(3, 'a.ts'), live(4)]);
    expect(relayer(readThenEdit, 4)).toBe(2);
    for (const ex of readThenEdit.tail.slice(0, 2)) expect(outputText(ex)).toContain('[superseded, a.ts edited in e3 (this read shows it before that)');
    const editThenRead = stateWith([live(1, 'a.ts'), edit(2, 'a.ts'), live(3, 'a.ts'), live(4)]);
    expect(relayer(editThenRead, 4)).toBe(1);
    expect(outputText(editThenRead.tail[0]!)).toContain('[superseded, a.ts was read again in e3');
    expect(outputText(editThenRead.tail[2]!)).toContain('output of call 3');
    // a change seen in the same exchange as a read: that read already shows it
    const sameExchange = stateWith([live(1, 'a.ts'), { ...live(2, 'a.ts'), changedFiles: ['a.ts'] }, live(3)]);
    expect(relayer(sameExchange, 3)).toBe(1);
    expect(outputText(sameExchange.tail[0]!)).toContain('[superseded, a.ts was read again in e2');
    expect(outputText(sameExchange.tail[1]!)).toContain('output of call 2');
  });

  it('from pressure 1 masks every output but the newest exchange, and says so', () => {
    for (const pressure of [1, 2] as const) {
      const state = stateWith([live(1), live(2), live(3), live(4)], pressure);
      expect(relayer(state, 4)).toBe(3);
      for (const ex of state.tail.slice(0, 3)) expect(outputText(ex)).toContain(`[masked to fit the budget: Bash make ${ex.seq}, 21 lines`);
      expect(outputText(state.tail[3]!)).toContain('output of call 4');
      // the masked exchanges are counted at their new size
      expect(state.tail[0]!.inputTokens).toBeLessThan(100);
    }
    const calm = stateWith([live(1), live(2)], 0);
    expect(relayer(calm, 2)).toBe(0);
    expect(outputText(calm.tail[0]!)).toContain('output of call 1');
  });

  it('counts an output once: a pointer masked again (here under a new reason) is not counted again', () => {
    const state = stateWith([live(1, 'a.ts'), live(2), live(3, 'a.ts'), live(4)], 0);
    expect(relayer(state, 4)).toBe(1); // e1's read, superseded by e3's
    expect(relayer(state, 4)).toBe(0);
    state.pressure = 1;
    expect(relayer(state, 4)).toBe(2); // e2 and e3; e1 was a pointer already
    expect(outputText(state.tail[0]!)).toContain('[masked to fit the budget: Read a.ts, 21 lines');
    expect(relayer(state, 4)).toBe(0);
  });

  it("leaves a call's no-result placeholder as it is: a pointer to it would be longer, and a pointer again a pointer to that", () => {
    const unanswered: LiveExchange = { ...live(1), input: [{ type: 'tool_result', tool_use_id: 't1', content: NO_RESULT_TEXT }], originals: new Map() };
    const state = stateWith([unanswered, live(2), live(3)], 1);
    expect(relayer(state, 3)).toBe(1); // e2 only
    expect(relayer(state, 3)).toBe(0);
    expect(state.tail[0]!.input).toEqual([{ type: 'tool_result', tool_use_id: 't1', content: NO_RESULT_TEXT }]);
  });

  it('sends L3 summaries (with their id) below pressure 3 only, and forgets summaries older than the band', () => {
    const make = (pressure: Pressure) => {
      const state = stateWith(Array.from({ length: 12 }, (_, i) => live(i + 1)), pressure, { summaryCount: 2 });
      for (let seq = 1; seq <= 12; seq++) state.summaries.set(seq, seq === 9 ? 'e9 already named' : `did step ${seq}`);
      state.summaries.delete(8);
      relayer(state, 2);
      return state;
    };
    const calm = make(2);
    expect(calm.foldedThrough).toBe(10);
    // the last 2 folded (e9, e10); e8 has none: nothing invented for it
    expect(calm.archiveParts!.summaries).toEqual(['e9 already named', 'e10: did step 10']);
    // summaries at or below 10 - 2 are dropped from the state; the newer stay
    expect([...calm.summaries.keys()].sort((a, b) => a - b)).toEqual([9, 10, 11, 12]);
    const squeezed = make(3);
    expect(squeezed.archiveParts!.summaries).toEqual([]);
    expect(squeezed.archiveParts!.index).toBe('');
    expect(squeezed.archiveText).not.toContain('## Recent summaries (L3)');
  });
});

describe('rebuildArchive under pressure: what each layer keeps', () => {
  const settings = resolveEngineSettings({});
  /** 122 exchanges with L2 header lines of `lineChars` characters; a step keeping 2 folds 120. */
  const folded120 = (pressure: Pressure, lineChars: number) => {
    const state = stateWith(Array.from({ length: 122 }, (_, i) => live(i + 1)), pressure);
    for (const h of activeHeaders(state)) h.line = `e${h.seq} ${'x'.repeat(lineChars)}`;
    relayer(state, 2);
    return state.archiveParts!.headers;
  };
  const headerTokens = (lines: string[]) => charTokenizer.count(lines.join('\n'));
  const squeezedHeaders = Math.floor(layerBudgets(settings).maxHeaders / 4);

  it('at pressure 4 keeps a quarter of the header lines (at least 10), below that every one', () => {
    expect(folded120(3, 8)).toHaveLength(120);
    const squeezed = folded120(4, 8);
    expect(squeezed.length).toBeLessThanOrEqual(squeezedHeaders);
    expect(squeezed.length).toBeGreaterThan(10);
    // the oldest are folded into range lines, the newest keep their own line
    expect(squeezed[0]).toMatch(/^e1-e25 \(25\)/);
    expect(squeezed.at(-1)).toBe(folded120(3, 8).at(-1));
  });

  it('at pressure 4 the header tokens are capped by that quarter too', () => {
    const cap = squeezedHeaders * settings.headerMaxTokens;
    const calm = folded120(3, 60);
    expect(calm).toHaveLength(120);
    // the lines would fit in a quarter of the lines, but not in the quarter's tokens
    expect(headerTokens(calm.slice(-squeezedHeaders))).toBeGreaterThan(cap);
    const squeezed = folded120(4, 60);
    expect(headerTokens(squeezed)).toBeLessThanOrEqual(cap);
    expect(squeezed.length).toBeGreaterThan(1);
  });

  it('from pressure 3 sends no index and no file views, below it sends both', () => {
    const make = (pressure: Pressure) => {
      const state = stateWith([live(1, 'src/a.ts'), live(2), live(3)], pressure);
      state.fileViews.observe(state.tail[0]!);
      state.index.add(1, 'file', 'src/a.ts');
      relayer(state, 1);
      return state.archiveParts!;
    };
    const calm = make(2);
    expect(calm.index).toContain('src/a.ts');
    expect(calm.files).toContain('### src/a.ts (as shown in e1)');
    const squeezed = make(3);
    expect(squeezed.index).toBe('');
    expect(squeezed.files).toBeUndefined();
  });

  it('summarises nothing a condensed summary already covers, from the exchange right after it', () => {
    const state = stateWith(Array.from({ length: 12 }, (_, i) => live(i + 1)), 0, { summaryCount: 3 });
    for (let seq = 1; seq <= 12; seq++) state.summaries.set(seq, `did step ${seq}`);
    state.condensed = { throughSeq: 8, text: 'e1-e8 condensed' };
    relayer(state, 2);
    expect(state.archiveParts!.summaries).toEqual(['e9: did step 9', 'e10: did step 10']);
  });

  it('with no summary band forgets every folded summary and keeps the working-memory ones', () => {
    const state = stateWith(Array.from({ length: 6 }, (_, i) => live(i + 1)), 0, { summaryCount: 0 });
    for (let seq = 1; seq <= 6; seq++) state.summaries.set(seq, `did step ${seq}`);
    relayer(state, 2);
    expect(state.archiveParts!.summaries).toEqual([]);
    expect([...state.summaries.keys()].sort((a, b) => a - b)).toEqual([5, 6]);
  });

  it('keeps the summaries of the configured band in the state while pressure 3 sends none', () => {
    const state = stateWith(Array.from({ length: 12 }, (_, i) => live(i + 1)), 3, { summaryCount: 2 });
    for (let seq = 1; seq <= 12; seq++) state.summaries.set(seq, `did step ${seq}`);
    relayer(state, 2);
    expect(state.archiveParts!.summaries).toEqual([]);
    // pressure may fall back: the last 2 folded (e9, e10) and the tail's stay ready to send
    expect([...state.summaries.keys()].sort((a, b) => a - b)).toEqual([9, 10, 11, 12]);
  });
});

describe('slideWindow: the older half of working memory leaves the prompt', () => {
  it('drops half (at least one), folds through the last dropped, and does nothing when empty', () => {
    const state = stateWith([live(1), live(2), live(3), live(4), live(5)]);
    expect(slideWindow(state)).toBe(2);
    expect(state.tail.map((e) => e.seq)).toEqual([3, 4, 5]);
    expect(state.foldedThrough).toBe(2);
    expect(state.mode).toBe('layered');
    expect(state.archiveText).toContain('<strata_context>');
    const one = stateWith([live(6)]);
    expect(slideWindow(one)).toBe(1);
    expect(one.tail).toEqual([]);
    expect(one.foldedThrough).toBe(6);
    const empty = stateWith([]);
    expect(slideWindow(empty)).toBe(0);
    expect(empty.foldedThrough).toBe(0);
    expect(empty.mode).toBe('full');
  });
});

describe('condense on a state already layered and condensed', () => {
  const asking = () => {
    const asked: string[] = [];
    const summarizer: Summarizer = {
      summarize: async ({ request }) => {
        const block = request.messages[0]!.content[0]!;
        asked.push(block.type === 'text' ? block.text : '');
        return { text: 'tiny', inputTokens: 1, outputTokens: 1 };
      },
    };
    return { asked, summarizer };
  };

  it('sends the earlier summary, then the folded summaries after it in order, then the leaving exchanges', async () => {
    const state = stateWith([live(5), live(6), live(7)]);
    state.foldedThrough = 4;
    state.condensed = { throughSeq: 2, text: 'old summary' };
    state.archiveText = '<strata_context>\n</strata_context>';
    for (const seq of [4, 1, 3, 2, 6]) state.summaries.set(seq, `s${seq}`);
    const { asked, summarizer } = asking();
    const tokens = [500, 100];
    const outcome = await condense(state, summarizer, () => tokens.shift()!);
    expect(asked[0]!.split('\n\nWrite the summary')[0]).toBe(
      `Earlier summary (e1-e2):\nold summary\n\ns3\n\ns4\n\ne5:\n${JSON.parse(outputText(live(5)))[0].content}\nanswer 5`,
    );
    expect(outcome).toMatchObject({ ok: true, throughSeq: 5 });
    expect(state.condensed).toEqual({ throughSeq: 5, text: 'tiny' });
    expect(state.tail.map((e) => e.seq)).toEqual([6, 7]);
  });

  it('refuses when there is nothing to condense, and when the prompt would not shrink (equal counts as not)', async () => {
    const { summarizer } = asking();
    expect(await condense(stateWith([live(1), live(2)]), summarizer, () => 0)).toEqual({
      ok: false,
      error: 'Nothing to condense yet: the conversation is all in working memory.',
    });
    const state = stateWith([live(1), live(2), live(3)]);
    const outcome = await condense(state, summarizer, () => 300);
    expect(outcome).toMatchObject({ ok: false, error: 'Condensing would have made the prompt 300 tokens instead of 300 (too little history to condense yet); the summary was discarded and the conversation kept as it was.' });
    expect(state.tail.map((e) => e.seq)).toEqual([1, 2, 3]);
    expect(state.condensed).toBeUndefined();
    expect(state.foldedThrough).toBe(0);
  });
});
