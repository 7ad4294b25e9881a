import { describe, expect, it } from 'vitest';
import type { AssembledTurn } from '../../src/engine/contextEngine';
import { messageTokens } from '../../src/engine/blockTokens';
import { lowWatermark } from '../../src/engine/engineState';
import type { EngineSettings } from '../../src/shared/engineSettings';
import { resolveEngineSettings } from '../../src/shared/engineSettings';
import type { Message } from '../../src/shared/messages';
import { assistant, charTokenizer, drive, syntheticSession, text, user } from '../support/engineHarness';
import { engineOver, lastInput } from '../support/loggedEngine';
import { MemoryArchive } from '../support/memoryArchive';

/** The turn whose input is `chars` characters of one text block, after `history` (which ends with an answer). */
async function turnWith(settings: Partial<EngineSettings>, history: Message[], chars: number) {
  const { engine } = engineOver(new MemoryArchive(), settings);
  await drive(engine, history);
  engine.beginExchange(user(text('x'.repeat(chars))));
  return engine.assemble();
}

/** The input size (a multiple of 4 characters: one token each) that makes `probe` exactly `budget + over` tokens. */
const sizedFor = (probe: AssembledTurn, chars: number, over = 0) => chars + 4 * (probe.budget - probe.tokens + over);

describe('budget edges: a prompt of exactly the budget fits, one token more does not', () => {
  it('sends a prompt of exactly the budget as it is, and re-layers one token over it', async () => {
    const settings = { promptBudgetTokens: 4_000, contextWindow: 32_000 };
    const history = syntheticSession(5).concat(assistant(text('done')));
    const probe = await turnWith(settings, history, 400);
    expect(probe.events).toEqual([]);
    const exact = await turnWith(settings, history, sizedFor(probe, 400));
    expect([exact.tokens, exact.mode, exact.events]).toEqual([exact.budget, 'full', []]);
    const over = await turnWith(settings, history, sizedFor(probe, 400, 1));
    expect(over.events.map((e) => e.type)).toContain('relayer');
    expect(over.mode).toBe('layered');
    expect(over.tokens).toBeLessThanOrEqual(over.budget);
  });

  it('asks for housekeeping only when the ask itself fits: at exactly the budget yes, one token over no', async () => {
    // a working memory of at most 4, and summaries short enough that derived ones are cut (worth asking)
    const settings = { promptBudgetTokens: 4_000, contextWindow: 32_000, workingMemoryMax: 4, workingMemoryMin: 2, summaryMaxTokens: 20 };
    const history = syntheticSession(40, 10).slice(0, 48); // through e24's answer: working memory is full
    const probe = await turnWith(settings, history, 40);
    // the exchanges the next step hands down: working memory is full, the new one joins it, min stay
    const leaving = settings.workingMemoryMax + 1 - settings.workingMemoryMin;
    expect(probe.housekeepingDue).toEqual(Array.from({ length: leaving }, (_, i) => probe.turn - settings.workingMemoryMax + i));
    expect(probe.housekeepingTokens).toBeGreaterThan(0);
    const exact = await turnWith(settings, history, sizedFor(probe, 40));
    expect(exact.tokens).toBe(exact.budget);
    expect(exact.housekeepingDue).toEqual(probe.housekeepingDue);
    expect(JSON.stringify(lastInput(exact.request))).toContain(`Housekeeping due: summarise ${probe.housekeepingDue.map((d) => `e${d}`).join(', ')}`);
    const over = await turnWith(settings, history, sizedFor(probe, 40, 1));
    expect([over.housekeepingDue, over.housekeepingTokens, over.events]).toEqual([[], 0, []]);
    expect(over.tokens).toBeLessThan(over.budget);
    expect(JSON.stringify(over.request)).not.toContain('Housekeeping due');
    // no L3 summaries at all: nothing to ask for
    expect((await turnWith({ ...settings, summaryCount: 0 }, history, 40)).housekeepingDue).toEqual([]);
  });

  it('asks for housekeeping once the last exchange, repeated, would carry the next prompt over the budget', async () => {
    const settings = { promptBudgetTokens: 4_000, contextWindow: 32_000, summaryMaxTokens: 20 };
    const last = [user(text('q'.repeat(400))), assistant(text('a'.repeat(400)))];
    const history = syntheticSession(30, 10).concat(assistant(text('done')), ...last);
    const lastSize = last.reduce((sum, m) => sum + messageTokens(m, charTokenizer.count), 0);
    const probe = await turnWith(settings, history, 40);
    expect([probe.mode, probe.housekeepingDue]).toEqual(['layered', []]);
    const reaching = await turnWith(settings, history, sizedFor(probe, 40, -lastSize));
    expect(reaching.tokens + lastSize).toBe(reaching.budget);
    expect(reaching.housekeepingDue).toEqual([]);
    const passing = await turnWith(settings, history, sizedFor(probe, 40, 1 - lastSize));
    expect(passing.housekeepingDue.length).toBeGreaterThan(0);
    expect(passing.events).toEqual([]);
    expect(passing.tokens).toBeLessThanOrEqual(passing.budget);
  });
});

describe('re-layering steps', () => {
  it('squeeze harder only when the step at pressure 0 leaves the prompt above halfway between the watermarks', async () => {
    // a window whose 80% share is the 4k budget: no room for the budget to grow with the session
    const settings = resolveEngineSettings({ promptBudgetTokens: 4_000, contextWindow: 13_192 });
    const { engine } = engineOver(new MemoryArchive(), settings);
    const turns = await drive(engine, syntheticSession(30));
    const steps = turns.filter((t) => t.events.some((e) => e.type === 'relayer'));
    expect(steps.length).toBeGreaterThan(1);
    for (const t of steps) expect(t.tokens).toBeLessThanOrEqual(Math.floor((lowWatermark(settings) + t.budget) / 2));
    // the pressure rises one level at a time from 0, and the two exchanges working memory keeps at
    // pressure 0 are over that mark here: their tool outputs had to be masked (pressure 1) or more
    const pressures = steps.map((t) => t.events.flatMap((e) => (e.type === 'relayer' ? [e.pressure] : [])));
    for (const p of pressures) expect(p).toEqual(p.map((_, i) => i));
    expect(pressures.every((p) => p.length > 1)).toBe(true);
  });
  it('hand down more when the <strata_context> a step adds puts the prompt back over the low watermark, and say so in the step\'s event', async () => {
    const settings = resolveEngineSettings({ promptBudgetTokens: 4_000, contextWindow: 32_000, workingMemoryMin: 1 });
    const { engine } = engineOver(new MemoryArchive(), settings);
    const turns = await drive(engine, syntheticSession(40, 10));
    const steps = turns.filter((t) => t.events.some((e) => e.type === 'relayer'));
    expect(steps.length).toBeGreaterThan(0);
    for (const t of steps) {
      // working memory is what follows the first message: one answer per exchange kept
      const kept = t.request.messages.filter((m) => m.role === 'assistant').length;
      expect(t.tokens <= lowWatermark(settings) || kept === settings.workingMemoryMin).toBe(true);
      // the step's event says where it ended, the extra hand-downs included
      const events = t.events.flatMap((e) => (e.type === 'relayer' ? [e] : []));
      expect(events.at(-1)!.foldedThrough).toBe(t.turn - 1 - kept);
    }
  });
});

describe('last resorts for an input larger than the budget', () => {
  it('a condense that fails before calling the model records no call, nothing slides from an empty working memory, and the input is cut to fit', async () => {
    const failing = { summarize: () => Promise.reject(new Error('the model is unreachable')) };
    const { engine } = engineOver(new MemoryArchive(), { promptBudgetTokens: 4_000, contextWindow: 32_000 }, failing);
    await drive(engine, [user(text('the task')), assistant(text('ok'))]);
    const words = Array.from({ length: 3_000 }, (_, i) => `word${i}`).join(' ');
    engine.beginExchange(user(text(words)));
    const turn = await engine.assemble();
    expect(turn.condenseCalls).toEqual([]);
    const types = turn.events.map((e) => e.type);
    expect(types).toContain('condense_context_error');
    expect(types).not.toContain('sliding_window_truncation');
    expect(turn.tokens).toBeLessThanOrEqual(turn.budget);
    // working memory is empty, so the input shares the first message with the task and <strata_context>
    const blocks = lastInput(turn.request);
    const input = blocks[blocks.length - 1]!;
    const cut = input.type === 'text' ? input.text : '';
    expect(cut.endsWith('…')).toBe(true);
    expect(words.startsWith(cut.slice(0, -1).trimEnd())).toBe(true);
  });
});
