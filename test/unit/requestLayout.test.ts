import { describe, expect, it } from 'vitest';
import { requestTokens } from '../../src/engine/blockTokens';
import { layerBudgets, newEngineState } from '../../src/engine/engineState';
import type { LiveExchange } from '../../src/engine/liveExchange';
import { emptyNarrative } from '../../src/engine/narrative';
import { layerUsage, layoutRequest } from '../../src/engine/requestLayout';
import { resolveEngineSettings } from '../../src/shared/engineSettings';
import { charTokenizer, drive, makeEngine, syntheticSession } from '../support/engineHarness';

const count = (s: string) => charTokenizer.count(s);
const settings = { promptBudgetTokens: 6_000, workingMemoryMax: 10, summaryMaxTokens: 20 };

describe('layerUsage: what each layer may use and uses, in an assembled request', () => {
  it('gives every layer its budget from the settings, and the used figures add up to the request', async () => {
    const { engine } = makeEngine(settings);
    const turns = await drive(engine, syntheticSession(30));
    const b = layerBudgets(resolveEngineSettings(settings));
    const layered = turns.filter((t) => t.mode === 'layered' && t.usage.layers.find((l) => l.layer === 'L2')!.used > 0);
    expect(layered.length).toBeGreaterThan(5);
    for (const t of turns) {
      const layers = Object.fromEntries(t.usage.layers.map((l) => [l.layer, l]));
      expect(t.usage.layers.map((l) => l.layer)).toEqual(['system', 'L0', 'L1', 'L2', 'L3', 'L4', 'input']);
      const system = requestTokens({ system: t.request.system, messages: [], tools: t.request.tools }, count);
      expect(layers.system).toEqual({ layer: 'system', budget: system, used: system });
      expect(layers.L0!.budget).toBe(b.narrativeTokens);
      expect(layers.L2!.budget).toBe(b.headerTokens);
      expect(layers.L3!.budget).toBe(b.summaryCount * 20);
      expect(layers.L4!.budget).toBe(b.indexTokens + b.fileViewTokens);
      const archiveBudget = b.headerTokens + b.summaryCount * 20 + b.indexTokens + b.fileViewTokens;
      expect(layers.L1!.budget).toBe(Math.max(0, t.budget - system - archiveBudget - b.narrativeTokens));
      expect(layers.input!.budget).toBe(t.budget);
      expect(layers.input!.used).toBeGreaterThan(0);
      // L1 is what is left: the layers' uses sum to the request's tokens
      expect(t.usage.layers.reduce((sum, l) => sum + l.used, 0)).toBe(t.tokens);
      expect(layers.L1!.used > 0).toBe(t.turn > 1); // working memory is empty on the first turn
    }
    for (const t of layered) {
      const text = JSON.stringify(t.request.messages[0]);
      // the archive block (L2-L4, L0) is in the first message once layers exist
      expect(text).toContain('<strata_context');
      const layers = Object.fromEntries(t.usage.layers.map((l) => [l.layer, l]));
      expect(layers.L3!.used).toBeGreaterThan(0);
      expect(layers.L4!.used).toBeGreaterThanOrEqual(0);
    }
    // full-mode turns: no archive layer is used
    for (const t of turns.filter((x) => x.mode === 'full')) {
      for (const name of ['L0', 'L2', 'L3', 'L4']) expect(t.usage.layers.find((l) => l.layer === name)!.used).toBe(0);
    }
  });

  it('puts the breakpoints at the end of system, of the previous input and of this input; tools carry none', async () => {
    const tool = { name: 'Read', description: 'Reads a file.', input_schema: { type: 'object' as const, properties: {} }, cache_control: { type: 'ephemeral' as const } };
    const { engine } = makeEngine({}, { tools: [tool] });
    const turns = await drive(engine, syntheticSession(3));
    const last = turns[turns.length - 1]!.request;
    expect(last.tools).toEqual([{ name: 'Read', description: 'Reads a file.', input_schema: { type: 'object', properties: {} } }]);
    expect(last.system.map((b) => Boolean(b.cache_control))).toEqual([...last.system.slice(1).map(() => false), true]);
    const marked = last.messages.map((m) => m.content.map((b) => Boolean(b.cache_control)));
    const n = last.messages.length;
    // user messages at n-1 (this input) and n-3 (the previous one) end with a mark; nothing else has one
    expect(marked[n - 1]!.at(-1)).toBe(true);
    expect(marked[n - 3]!.at(-1)).toBe(true);
    expect(marked.flat().filter(Boolean).length).toBe(2);
    // the first turn has no previous input: system and this input only
    const first = turns[0]!.request;
    expect(first.messages.flatMap((m) => m.content).filter((b) => b.cache_control).length).toBe(1);
  });
});

describe('layoutRequest on a built state', () => {
  /** Exchange `seq`: its input answers the previous answer's Bash call; it asks for the next. */
  const live = (seq: number): LiveExchange => ({
    seq,
    createdAt: seq,
    input: [{ type: 'tool_result', tool_use_id: `t${seq}`, content: `ran ${seq}` }],
    output: [{ type: 'tool_use', id: `t${seq + 1}`, name: 'Bash', input: { command: `make ${seq + 1}` } }],
    calls: new Map([[`t${seq}`, { name: 'Bash', input: { command: `make ${seq}` } }]]),
    originals: new Map(),
    inputTokens: 10,
    outputTokens: 5,
  });
  const built = (foldedThrough: number) => {
    const state = newEngineState(resolveEngineSettings({}), charTokenizer, [{ type: 'text', text: 'sys' }], [], emptyNarrative('Goal'));
    state.task = [{ type: 'text', text: 'Goal' }];
    state.tail = [live(foldedThrough + 1), live(foldedThrough + 2)];
    state.pending = { ...live(foldedThrough + 3), output: undefined };
    state.foldedThrough = foldedThrough;
    state.archiveText = '<strata_context>\nL2\n</strata_context>';
    return state;
  };

  it('refuses without a pending exchange or a task, saying so', () => {
    const noPending = built(0);
    delete noPending.pending;
    expect(() => layoutRequest(noPending, {})).toThrow('layoutRequest needs a pending exchange');
    const noTask = built(0);
    delete noTask.task;
    expect(() => layoutRequest(noTask, {})).toThrow('layoutRequest needs a pending exchange');
  });

  it('once layered, opens with the task, the marked archive block and the first input as text (its call left the prompt)', () => {
    const request = layoutRequest(built(4), {});
    expect(request.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user']);
    expect(request.messages[0]!.content).toEqual([
      { type: 'text', text: 'Goal' },
      { type: 'text', text: '<strata_context>\nL2\n</strata_context>', cache_control: { type: 'ephemeral' } },
      { type: 'text', text: '[result of Bash make 5]\nran 5' },
    ]);
    // in full mode the first input is sent as it is (its call is the task's answer, still there)
    expect(layoutRequest(built(0), {}).messages[0]!.content).toEqual([{ type: 'tool_result', tool_use_id: 't1', content: 'ran 1' }]);
  });

  it('appends the housekeeping ask after this input, whose breakpoint stays on the input', () => {
    const request = layoutRequest(built(0), { housekeepingAsk: 'Also summarise e1.' });
    const last = request.messages.at(-1)!.content;
    expect(last).toEqual([
      { type: 'tool_result', tool_use_id: 't3', content: 'ran 3', cache_control: { type: 'ephemeral' } },
      { type: 'text', text: 'Also summarise e1.' },
    ]);
    expect(layoutRequest(built(0), {}).messages.at(-1)!.content).toHaveLength(1);
  });

  it('leaves a breakpoint already on an input as it is, adding none', () => {
    const state = built(0);
    state.pending!.input = [{ type: 'text', text: 'go on', cache_control: { type: 'ephemeral' } }];
    const request = layoutRequest(state, {});
    expect(request.messages.at(-1)!.content).toEqual([{ type: 'text', text: 'go on', cache_control: { type: 'ephemeral' } }]);
    expect(request.messages.flatMap((m) => m.content).filter((b) => b.cache_control)).toHaveLength(2);
  });

  it('marks only the last system block, however many there are', () => {
    const state = built(0);
    state.system = [{ type: 'text', text: 'sys one' }, { type: 'text', text: 'sys two' }, { type: 'text', text: 'sys three' }];
    expect(layoutRequest(state, {}).system.map((b) => Boolean(b.cache_control))).toEqual([false, false, true]);
  });

  it('refuses a folded state without its archive block instead of sending an empty text block', () => {
    const state = built(4);
    delete state.archiveText;
    expect(() => layoutRequest(state, {})).toThrow('the <strata_context> block is missing');
  });
});

describe('layerUsage on a built state', () => {
  const parts = { narrative: 'story so far', index: 'a.ts: e1', files: 'file view', headers: ['e1 header', 'e2 header'], summaries: ['e1 summary'] };
  const state = (foldedThrough: number, withParts: boolean) => {
    const s = newEngineState(resolveEngineSettings({}), charTokenizer, [{ type: 'text', text: 'sys' }], [], emptyNarrative('Goal'));
    s.task = [{ type: 'text', text: 'Goal' }];
    s.foldedThrough = foldedThrough;
    s.pending = { seq: foldedThrough + 1, createdAt: 0, input: [{ type: 'text', text: 'go' }], calls: new Map(), originals: new Map(), inputTokens: 7, outputTokens: 0 };
    if (withParts) s.archiveParts = parts;
    return s;
  };
  const request = { system: [{ type: 'text' as const, text: 'sys' }], messages: [], tools: [] };
  const used = (s: ReturnType<typeof state>) => Object.fromEntries(layerUsage(s, request, 500, 4_000).map((l) => [l.layer, l.used]));

  it('counts the archive layers only once exchanges were folded', () => {
    expect(used(state(3, true))).toMatchObject({ L0: count('story so far'), L2: count('e1 header\ne2 header'), L3: count('e1 summary'), L4: count('a.ts: e1') + count('file view'), input: 7 });
    // parts left from an earlier step count nothing in full mode; a fold without parts counts nothing either
    for (const s of [state(0, true), state(3, false)]) expect(used(s)).toMatchObject({ L0: 0, L2: 0, L3: 0, L4: 0 });
  });

  it('counts no input when no exchange is pending', () => {
    const s = state(0, false);
    delete s.pending;
    const layers = used(s);
    expect(layers.input).toBe(0);
    expect(layers.L1).toBe(500 - layers.system!);
  });
});

