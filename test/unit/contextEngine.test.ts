import { describe, expect, it } from 'vitest';
import type { Message, MessagesRequest } from '../../src/shared/messages';
import { StrataError } from '../../src/engine/ports';
import { assistant, drive, makeEngine, syntheticSession, text, toolResult, toolUse, user } from '../support/engineHarness';

function breakpoints(request: MessagesRequest): number {
  const blocks = [...request.system, ...request.messages.flatMap((m) => m.content)];
  return blocks.filter((b) => b.cache_control).length;
}

/** The request with cache marks and the trailing per-turn notes removed: what a later turn must extend. */
function stablePart(request: MessagesRequest): string[] {
  const out: string[] = [];
  for (const m of request.messages) {
    for (const b of m.content) {
      const { cache_control: _c, ...rest } = b;
      const json = JSON.stringify(rest);
      if (json.includes('Housekeeping due')) continue;
      out.push(`${m.role}:${json}`);
    }
  }
  return out;
}

function isPrefix(a: string[], b: string[]): boolean {
  return a.length <= b.length && a.every((x, i) => x === b[i]);
}

describe('ContextEngine in full mode (history fits the budget)', () => {
  it('sends the history as it is, append-only, with breakpoints at system, previous input and this input', async () => {
    const { engine } = makeEngine();
    const turns = await drive(engine, syntheticSession(6));
    expect(turns.every((t) => t.mode === 'full')).toBe(true);
    const last = turns[turns.length - 1]!.request;
    expect(last.messages.length).toBe(11);
    expect(last.messages[0]!.content[0]).toMatchObject({ type: 'text', text: expect.stringContaining('Fix the failing parser') });
    expect(breakpoints(last)).toBe(3);
    expect(last.system[0]!.cache_control).toEqual({ type: 'ephemeral' });
    for (let i = 1; i < turns.length; i++) expect(isPrefix(stablePart(turns[i - 1]!.request), stablePart(turns[i]!.request))).toBe(true);
    expect(turns.every((t) => t.housekeepingTokens === 0)).toBe(true);
    expect(JSON.stringify(last.messages)).not.toContain('<strata_narrative>');
  });

  it('is deterministic: the same inputs give byte-identical requests', async () => {
    const a = await drive(makeEngine({ promptBudgetTokens: 3_000 }).engine, syntheticSession(30));
    const b = await drive(makeEngine({ promptBudgetTokens: 3_000 }).engine, syntheticSession(30));
    expect(JSON.stringify(a.map((t) => t.request))).toBe(JSON.stringify(b.map((t) => t.request)));
  });
});

describe('ContextEngine in layered mode', () => {
  it('re-layers in steps: working memory grows to 10 then hands its oldest down, leaving 5', async () => {
    const { engine } = makeEngine({ promptBudgetTokens: 6_000, workingMemoryMax: 10, workingMemoryMin: 5 });
    const turns = await drive(engine, syntheticSession(40));
    const layered = turns.filter((t) => t.mode === 'layered');
    expect(layered.length).toBeGreaterThan(20);
    const steps = turns.filter((t) => t.events.some((e) => e.type === 'relayer'));
    // between two steps the request only grows at its end
    for (let i = 1; i < turns.length; i++) {
      if (turns[i]!.events.length === 0) expect(isPrefix(stablePart(turns[i - 1]!.request), stablePart(turns[i]!.request))).toBe(true);
    }
    // steps are rare: roughly one per (max - min) exchanges, not one per turn
    expect(steps.length).toBeLessThan(turns.length / 4);
    for (const t of layered) {
      const assistants = t.request.messages.filter((m) => m.role === 'assistant').length;
      expect(assistants).toBeGreaterThanOrEqual(1);
      expect(assistants).toBeLessThanOrEqual(10);
      expect(breakpoints(t.request)).toBeLessThanOrEqual(4);
      expect(t.tokens).toBeLessThanOrEqual(t.budget);
    }
  });

  it('steps between watermarks: past the budget, the oldest exchanges go down until the prompt is under the low mark', async () => {
    // economy: the base budget's steps throughout (under balanced this session grows past 2.5x the base)
    const { engine } = makeEngine({ promptBudgetTokens: 6_000, lowWatermarkPercent: 40, contextPreset: 'economy' });
    const turns = await drive(engine, syntheticSession(60));
    const steps = turns.filter((t) => t.events.some((e) => e.type === 'relayer'));
    expect(steps.length).toBeGreaterThan(1);
    expect(steps.length).toBeLessThan(turns.length / 6);
    for (const t of steps) {
      // the step's own request: working memory cut to the low mark, plus <strata_context> and the input
      expect(t.events.every((e) => e.type !== 'relayer' || e.pressure === 0)).toBe(true);
      expect(t.tokens).toBeLessThanOrEqual(0.4 * 6_000 + 1_500);
    }
    // between steps the prompt only grows, up to the budget, and working memory keeps many exchanges
    for (let i = 1; i < turns.length; i++) {
      if (turns[i]!.events.length === 0) expect(isPrefix(stablePart(turns[i - 1]!.request), stablePart(turns[i]!.request))).toBe(true);
    }
    const before = turns.find((t, i) => turns[i + 1] && steps.includes(turns[i + 1]!) && t.mode === 'layered')!;
    expect(before.tokens).toBeGreaterThan(0.8 * 6_000);
    expect(before.request.messages.filter((m) => m.role === 'assistant').length).toBeGreaterThan(5);
  });

  it('lets pressure fall back: a step after a squeezed one is taken at pressure 0 and sends L3 again', async () => {
    // economy: the base budget holds however long the session grows, so steps follow one another
    const { engine } = makeEngine({ promptBudgetTokens: 8_000, contextPreset: 'economy' });
    const messages = syntheticSession(60);
    // one huge output (200 long lines after the head+tail cut) forces a squeeze; ordinary exchanges follow
    const long = (i: number) => `noise line ${i} ${'with some words that fill the line '.repeat(4)}`;
    messages[40] = user(toolResult('tu20', Array.from({ length: 400 }, (_, i) => long(i)).join('\n')));
    const turns = await drive(engine, messages.concat(assistant(text('done'))));
    for (const t of turns) expect(t.tokens).toBeLessThanOrEqual(t.budget);
    const isSqueezed = (t: (typeof turns)[number]) => t.events.some((e) => e.type === 'relayer' && e.pressure >= 3);
    expect(turns.some(isSqueezed)).toBe(true);
    // the squeeze lasts while the huge exchange is in working memory, then the next step is roomy again
    const squeezed = turns.length - 1 - [...turns].reverse().findIndex(isSqueezed);
    const later = turns.slice(squeezed + 1).find((t) => t.events.some((e) => e.type === 'relayer'));
    expect(later).toBeDefined();
    expect(later!.events.filter((e) => e.type === 'relayer').every((e) => e.type === 'relayer' && e.pressure === 0)).toBe(true);
    expect(JSON.stringify(later!.request)).toContain('## Recent summaries (L3)');
  });

  it('sends headers of folded exchanges, summaries of the five just below working memory, an index, and L0 at the end of <strata_context>', async () => {
    const { engine } = makeEngine({ promptBudgetTokens: 6_000 });
    const turns = await drive(engine, syntheticSession(24));
    const t = turns[turns.length - 1]!;
    const first = t.request.messages[0]!;
    const context = first.content.find((b) => b.type === 'text' && b.text.startsWith('<strata_context>'));
    expect(context).toBeDefined();
    const body = (context as { text: string }).text;
    expect(body).toContain('## Earlier exchanges (L2 headers)');
    expect(body).toMatch(/^e1 /m);
    expect(body).toContain('## Recent summaries (L3)');
    expect(body.match(/retrievable: e\d+/g)?.length).toBe(5);
    expect(body).toContain('## Reference index (L4)');
    expect(body).toContain('src/module1.ts');
    // L0 closes <strata_context>: cached with it, refreshed at each step, never plain input every turn
    expect(body).toMatch(/<strata_narrative>\nObjective: Fix the failing parser test[\s\S]*<\/strata_narrative>\n<\/strata_context>$/);
    expect(JSON.stringify(t.request.messages.slice(1))).not.toContain('<strata_narrative>');
  });

  it('keeps tool results paired with their tool_use, and turns orphaned ones into text', async () => {
    const { engine } = makeEngine({ promptBudgetTokens: 6_000 });
    const turns = await drive(engine, syntheticSession(30));
    for (const t of turns) {
      const msgs = t.request.messages;
      expect(msgs[0]!.role).toBe('user');
      for (let i = 0; i < msgs.length; i++) {
        if (i > 0) expect(msgs[i]!.role).not.toBe(msgs[i - 1]!.role);
        const ids = new Set((msgs[i - 1]?.content ?? []).flatMap((b) => (b.type === 'tool_use' ? [b.id] : [])));
        for (const b of msgs[i]!.content) if (b.type === 'tool_result') expect(ids.has(b.tool_use_id)).toBe(true);
      }
    }
  });

  it('asks nothing when every derived summary fits whole: the model summary would cost 5x for no gain', async () => {
    const { engine } = makeEngine({ promptBudgetTokens: 6_000, workingMemoryMax: 10 });
    const turns = await drive(engine, syntheticSession(40));
    expect(turns.some((t) => t.events.some((e) => e.type === 'relayer'))).toBe(true);
    expect(turns.every((t) => t.housekeepingTokens === 0 && t.housekeepingDue.length === 0)).toBe(true);
  });

  it('asks for housekeeping only on the turn before a step, for the exchanges about to become summaries whose derived one was cut', async () => {
    // summaries capped at 20 tokens: every derived one is cut to fit
    const { engine } = makeEngine({ promptBudgetTokens: 6_000, workingMemoryMax: 10, summaryMaxTokens: 20, contextPreset: 'economy' });
    const turns = await drive(engine, syntheticSession(40));
    const asked = turns.filter((t) => t.housekeepingTokens > 0);
    expect(asked.length).toBeGreaterThan(0);
    expect(asked.length).toBeLessThan(turns.length / 4);
    for (const t of asked) {
      expect(t.housekeepingDue.length).toBeGreaterThan(0);
      expect(JSON.stringify(t.request)).toContain(`Housekeeping due: summarise e${t.housekeepingDue[0]}`);
      const next = turns.find((n) => n.turn === t.turn + 1);
      if (next) expect(next.events.some((e) => e.type === 'relayer')).toBe(true);
    }
  });
});

describe('tool output: supersession, masking, huge outputs', () => {
  it('supersedes an older read of a file read again in working memory, with a pointer to get it back', async () => {
    // a step that keeps most of working memory (high low watermark) comes right after e12
    const { engine } = makeEngine({ promptBudgetTokens: 4_000, lowWatermarkPercent: 90 });
    const messages = syntheticSession(12);
    // answers 9 and 11 read the same file; their outputs arrive as the inputs of e10 and e12
    messages[17] = assistant(text('Read it.'), toolUse('tu9', 'Read', { file_path: 'src/same.ts' }));
    messages[21] = assistant(text('Read it again.'), toolUse('tu11', 'Read', { file_path: 'src/same.ts' }));
    const turns = await drive(engine, [...messages, assistant(text('done'))]);
    const last = JSON.stringify(turns[turns.length - 1]!.request);
    expect(last).toContain('[superseded, src/same.ts was read again in e12: Read src/same.ts');
    expect(last).toContain('request e10 full to see it]');
  });

  it('never exceeds the budget, even with a 5 MB tool output and a tiny budget', async () => {
    const { engine } = makeEngine({ promptBudgetTokens: 3_000 });
    const huge = 'x'.repeat(5_000_000);
    const turns = await drive(engine, [
      user(text('Investigate the log.')),
      assistant(toolUse('a', 'Bash', { command: 'cat big.log' })),
      user(toolResult('a', huge)),
      assistant(toolUse('b', 'Bash', { command: 'cat big.log' })),
      user(toolResult('b', `${'line\n'.repeat(100_000)}`)),
      assistant(text('ok')),
    ]);
    for (const t of turns) expect(t.tokens).toBeLessThanOrEqual(t.budget);
  });
});

describe('context requests and housekeeping from the model', () => {
  it('brings archived exchanges back in the next input, and says when an id does not exist', async () => {
    const { engine } = makeEngine();
    const messages = syntheticSession(3);
    messages[5] = assistant(text('Let me look again. <context_request>{"ids":["e1","e999"],"format":"full"}</context_request>'), toolUse('tu3', 'Bash', { command: 'ls' }));
    const turns = await drive(engine, [...messages, assistant(text('ok'))]);
    const last = JSON.stringify(turns[turns.length - 1]!.request);
    expect(last).toContain('<retrieved format=\\"full\\">');
    expect(last).toContain('Fix the failing parser test');
    expect(last).toContain('e999: no such exchange (this session has e1-e3)');
    // the protocol block itself is not re-sent
    expect(JSON.stringify(turns[turns.length - 1]!.request.messages)).not.toContain('<context_request>');
  });

  it('uses the model\'s own summaries when it writes housekeeping', async () => {
    const { engine, archive } = makeEngine({ promptBudgetTokens: 6_000 });
    const messages = syntheticSession(40);
    messages[39] = assistant(text('<housekeeping>{"summaries":{"e2":"MODEL SUMMARY of e2"},"narrative":{"objective":"MODEL OBJECTIVE"}}</housekeeping>'), toolUse('tu20', 'Read', { file_path: 'src/x.ts' }));
    const turns = await drive(engine, [...messages, assistant(text('ok'))]);
    expect(archive.get('s1', 2)!.summary).toContain('MODEL SUMMARY of e2');
    // L0 is refreshed at the next step after the answer that updated it
    const nextStep = turns.find((t) => t.turn > 20 && t.events.some((e) => e.type === 'relayer'));
    expect(JSON.stringify(nextStep!.request)).toContain('Objective: MODEL OBJECTIVE');
    expect(JSON.stringify(turns[19]!.request)).not.toContain('MODEL OBJECTIVE');
  });
});

describe('condensing and the sliding window (fallbacks near the window)', () => {
  it('condenses when the prompt passes the threshold and records the event with tokens and cost', async () => {
    const { engine } = makeEngine({ contextWindow: 12_000, reservedOutputTokens: 1_000, promptBudgetTokens: 11_000, autoCondensePercent: 50 });
    const turns = await drive(engine, syntheticSession(30));
    const events = turns.flatMap((t) => t.events).filter((e) => e.type === 'condense_context');
    expect(events.length).toBeGreaterThan(0);
    for (const e of events) if (e.type === 'condense_context') expect(e.tokensAfter).toBeLessThan(e.tokensBefore);
    expect(turns.some((t) => t.condenseCalls.length > 0)).toBe(true);
    expect(JSON.stringify(turns[turns.length - 1]!.request)).toContain('## Condensed summary of e1-e');
    for (const t of turns) expect(t.tokens).toBeLessThanOrEqual(t.budget);
  });

  it('discards a summary that is not smaller, reports the error, and slides the window keeping the task', async () => {
    const bloated = { summarize: async () => ({ text: 'x'.repeat(400_000), inputTokens: 10, outputTokens: 100_000 }) };
    const { engine } = makeEngine({ contextWindow: 12_000, reservedOutputTokens: 1_000, promptBudgetTokens: 11_000, autoCondensePercent: 50 }, { summarizer: bloated });
    const turns = await drive(engine, syntheticSession(30));
    const events = turns.flatMap((t) => t.events);
    expect(events.some((e) => e.type === 'condense_context_error')).toBe(true);
    expect(events.some((e) => e.type === 'sliding_window_truncation')).toBe(true);
    const last = turns[turns.length - 1]!.request;
    expect(JSON.stringify(last.messages[0])).toContain('Fix the failing parser test');
    expect(JSON.stringify(last)).not.toContain('xxxxxxxxxx');
  });
});

describe('bad use and archive trouble', () => {
  it('explains misuse with StrataError instead of crashing', async () => {
    const { engine } = makeEngine();
    expect(() => engine.completeExchange(assistant(text('hi')))).toThrow(StrataError);
    engine.beginExchange(user(text('task')));
    expect(() => engine.beginExchange(user(text('again')))).toThrow(/already waiting/);
    await expect(makeEngine().engine.assemble()).rejects.toThrow(/beginExchange/);
  });

  it('keeps exchanges in memory while the archive is locked and writes them once it is free', async () => {
    const { engine, archive } = makeEngine();
    archive.failWrites = true;
    engine.beginExchange(user(text('task')));
    await engine.assemble();
    const { problems } = engine.completeExchange(assistant(text('first answer')));
    expect(problems.join()).toMatch(/locked/);
    expect(engine.retrieve(['e1'], 'full')).toContain('first answer');
    archive.failWrites = false;
    engine.beginExchange(user(text('next')));
    await engine.assemble();
    engine.completeExchange(assistant(text('second answer')));
    expect(archive.get('s1', 1)!.full[1]!.content).toEqual([{ type: 'text', text: 'first answer' }]);
    expect(archive.get('s1', 2)).toBeDefined();
  });
});

describe('usageNow (the meter between turns, after a condense)', () => {
  it('reports the budget in force, as the turns do: grown with a long session, not the base', async () => {
    const { engine } = makeEngine({ promptBudgetTokens: 2_000, contextWindow: 200_000 });
    const turns = await drive(engine, [...syntheticSession(30), assistant(text('paused here'))]);
    const grown = turns.at(-1)!.usage.budget!;
    expect(grown).toBeGreaterThan(2_000);
    const now = await engine.usageNow();
    expect(now.budget).toBeGreaterThanOrEqual(grown); // the last answer only added to the history
    expect(now.layers.find((l) => l.layer === 'L1')!.budget).toBeGreaterThan(turns[0]!.usage.layers.find((l) => l.layer === 'L1')!.budget);
  });
});

describe('resuming a session from its archive', () => {
  it('brings the recent past back verbatim and folds the older exchanges into headers, keeps the task first, and continues the ids', async () => {
    const first = makeEngine();
    await drive(first.engine, [...syntheticSession(20), assistant(text('paused here'))]);
    // a budget whose low watermark holds the last exchanges but not the session
    const second = makeEngine({ promptBudgetTokens: 2_000 }, { archive: first.archive });
    second.engine.beginExchange(user(text('continue please')));
    const turn = await second.engine.assemble();
    expect(turn.turn).toBe(22);
    expect(turn.mode).toBe('layered');
    const body = JSON.stringify(turn.request);
    expect(body).toContain('Fix the failing parser test');
    expect(body).toMatch(/e1 \d\d:\d\d/);
    expect(body).not.toMatch(/e21 \d\d:\d\d/); // e21 is in working memory, not a header
    expect(body).toContain('paused here');
    expect(body).toContain('continue please');
    // with the default budget the whole session fits working memory again: nothing folded
    const roomy = makeEngine({}, { archive: first.archive });
    roomy.engine.beginExchange(user(text('continue please')));
    expect((await roomy.engine.assemble()).mode).toBe('full');
    second.engine.completeExchange(assistant(text('resumed')));
    expect(first.archive.get('s1', 22)).toBeDefined();
    expect(first.archive.get('s1', 1)!.full[0]!.content[0]).toMatchObject({ text: expect.stringContaining('Fix the failing parser') });
  });
});

describe('file views: recently used files stay visible after their exchange leaves working memory', () => {
  it('keeps the latest read of a file in <strata_context>, once, and drops it when the file goes unused', async () => {
    const { engine } = makeEngine({ promptBudgetTokens: 4_000, workingMemoryMax: 6, workingMemoryMin: 2, fileViewPercent: 25, fileViewHorizon: 12 });
    const messages: Message[] = [user(text('Refactor src/keep.ts.'))];
    const read = (i: number, path: string, body: string) => {
      messages.push(assistant(toolUse(`r${i}`, 'Read', { file_path: path })));
      messages.push(user(toolResult(`r${i}`, body)));
    };
    read(1, 'src/keep.ts', 'OLD VERSION of keep');
    read(2, 'src/keep.ts', 'export const keepMe = 42; // NEW VERSION');
    for (let i = 3; i <= 12; i++) read(i, `src/other${i}.ts`, `other ${i} `.repeat(200));
    const turns = await drive(engine, [...messages, assistant(text('ok'))]);
    const withFiles = turns.filter((t) => JSON.stringify(t.request).includes('## Files as last shown'));
    expect(withFiles.length).toBeGreaterThan(0);
    const body = JSON.stringify(withFiles[0]!.request);
    expect(body).toContain('### src/keep.ts (as shown in e3)');
    expect(body).toContain('NEW VERSION');
    expect(body).not.toContain('OLD VERSION of keep');
    for (const t of turns) expect(t.tokens).toBeLessThanOrEqual(t.budget);
    // 20 unrelated exchanges later the file is past the horizon and leaves the section
    const later: Message[] = [user(text('carry on'))];
    for (let i = 13; i <= 32; i++) {
      later.push(assistant(toolUse(`r${i}`, 'Bash', { command: `echo ${i}` })));
      later.push(user(toolResult(`r${i}`, `out ${i}`)));
    }
    const rest = await drive(engine, [...later, assistant(text('done'))]);
    expect(JSON.stringify(rest[rest.length - 1]!.request)).not.toContain('### src/keep.ts');
  });
});

describe('step-wise output masking (outputMaskTokens)', () => {
  it('masks older command output in one step, keeps file reads and the latest outputs, then appends again', async () => {
    const { engine } = makeEngine({ outputMaskTokens: 600, outputMaskKeepRecent: 2 });
    const turns = await drive(engine, syntheticSession(12));
    const steps = turns.filter((t) => t.events.some((e) => e.type === 'outputs_masked'));
    expect(steps.length).toBeGreaterThan(0);
    expect(steps.length).toBeLessThan(turns.length / 2);
    const last = JSON.stringify(turns[turns.length - 1]!.request);
    expect(last).toContain('[output masked: Bash npm test -- parser 3');
    expect(last).toContain('line 0 of output 1:');
    expect(last).toContain('line 0 of output 11:');
    for (let i = 1; i < turns.length; i++) {
      if (turns[i]!.events.length === 0) expect(isPrefix(stablePart(turns[i - 1]!.request), stablePart(turns[i]!.request))).toBe(true);
    }
  });

  it('masks at the first turn with enough command output older than the recent exchanges, and says how much', async () => {
    // Bash runs in answers 3, 6, 9, 12: its output is the input of e4, e7, e10, e13. With the
    // last 2 exchanges kept, e4 and e7 are both old enough first at turn 10 (tail e1-e9).
    const { engine } = makeEngine({ outputMaskTokens: 600, outputMaskKeepRecent: 2 });
    const turns = await drive(engine, syntheticSession(14));
    const masking = turns.flatMap((t) => t.events.filter((e) => e.type === 'outputs_masked'));
    expect(masking[0]).toMatchObject({ type: 'outputs_masked', turn: 10, masked: 2 });
    const first = masking[0]!;
    if (first.type !== 'outputs_masked') throw new Error('unreachable');
    expect(first.tokensAfter).toBe(turns.find((t) => t.turn === 10)!.tokens);
    expect(first.tokensBefore - first.tokensAfter).toBeGreaterThan(600);
    // e10's output is masked on its own at turn 13 only once it also counts 600 tokens: one
    // output is not enough, so nothing more happens before the session ends
    expect(masking).toHaveLength(1);
    const last = JSON.stringify(turns[turns.length - 1]!.request);
    expect(last).toContain('[output masked: Bash npm test -- parser 3');
    expect(last).toContain('[output masked: Bash npm test -- parser 6');
    expect(last).toContain('line 0 of output 9:');
  });

  it('masks only command output old enough, once: notes, recent outputs and pointers already there do not count', async () => {
    // Every answer runs Bash, and every input also carries a long note from the user.
    const note = 'A long note from the user about what to try next. '.repeat(40);
    const messages: Message[] = [user(text('Fix the build.'))];
    for (let i = 1; i <= 24; i++) {
      messages.push(assistant(toolUse(`b${i}`, 'Bash', { command: `make step${i}` })));
      const body = Array.from({ length: 30 }, (_, l) => `line ${l} of output ${i}: compiling unit ${l}`).join('\n');
      messages.push(user(toolResult(`b${i}`, body), text(`${note}${i}`)));
    }
    const turns = await drive(makeEngine({ outputMaskTokens: 500, outputMaskKeepRecent: 2 }).engine, [...messages, assistant(text('done'))]);
    const masking = turns.flatMap((t) => t.events.filter((e) => e.type === 'outputs_masked'));
    // One output (about 300 tokens) is under the 500-token threshold, two are over it: a step
    // every second turn from turn 6 (tail e1-e5: e2 and e3 are old enough), two outputs each.
    // The notes and the pointers left by earlier steps never count.
    expect(masking.map((e) => (e.type === 'outputs_masked' ? [e.turn, e.masked] : []))).toEqual(
      Array.from({ length: 10 }, (_, k) => [6 + 2 * k, 2]),
    );
    const first = turns.find((t) => t.events.some((e) => e.type === 'outputs_masked'))!;
    const request = JSON.stringify(first.request);
    // the two most recent exchanges keep their output
    expect(request).toContain(`line 0 of output ${first.turn - 1}:`);
    expect(request).toContain(`line 0 of output ${first.turn - 2}:`);
    expect(request).toContain('[output masked: Bash make step1,');
    expect(request).not.toContain('line 0 of output 1:');
  });

  it('never masks with the threshold at 0 (off)', async () => {
    const turns = await drive(makeEngine({ outputMaskTokens: 0, outputMaskKeepRecent: 2 }).engine, syntheticSession(14));
    expect(turns.some((t) => t.events.some((e) => e.type === 'outputs_masked'))).toBe(false);
    expect(JSON.stringify(turns[turns.length - 1]!.request)).not.toContain('[output masked');
  });
});

describe('condenseNow between turns (the Condense button)', () => {
  it('condenses with nothing pending, reports sizes, and the next turn goes on', async () => {
    const { engine } = makeEngine({ condenseMinSavingTokens: 0 }); // the call, not the saving gate (condenseSaving.test.ts)
    expect(await engine.condenseNow()).toEqual([{ type: 'warning', turn: 1, message: 'Nothing to condense yet: the session has no exchanges.' }]);
    // Ends with an answer: nothing is pending when the button is pressed.
    await drive(engine, syntheticSession(8).slice(0, -1));
    const events = await engine.condenseNow();
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'condense_context', tokensBefore: expect.any(Number) });
    engine.beginExchange(user(toolResult('tu8', 'ok'), text('and now?')));
    const turn = await engine.assemble();
    expect(turn.tokens).toBeLessThanOrEqual(turn.budget);
    expect(JSON.stringify(turn.request.messages)).toContain('and now?');
  });

  it('discards a summary that would make the prompt of a short history larger, and leaves the state as it was', async () => {
    // A summarizer that answers with a few words: smaller than the one exchange it replaces, but
    // leaving full mode adds headers and the narrative, so the prompt as a whole would grow.
    const terse = { summarize: async () => ({ text: 'Looked at one file.', inputTokens: 50, outputTokens: 5 }) };
    const { engine } = makeEngine({ condenseMinSavingTokens: 0 }, { summarizer: terse }); // past the saving gate: the discard itself
    await drive(engine, syntheticSession(3).slice(0, -1));
    engine.beginExchange(user(text('next?')));
    const before = await engine.assemble();
    engine.completeExchange(assistant(text('ok')));
    const events = await engine.condenseNow();
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'condense_context_error', error: expect.stringMatching(/^Condensing would have made the prompt \d+ tokens instead of \d+ .*kept as it was\.$/) });
    engine.beginExchange(user(text('next?')));
    const after = await engine.assemble();
    expect(after.mode).toBe(before.mode);
    expect(JSON.stringify(after.request)).not.toContain('Looked at one file.');
  });
});

describe('budget edges: tools count, and a request that cannot fit is refused', () => {
  const bigTool = (tokens: number) => ({
    name: 'Huge',
    description: 'x'.repeat(tokens * 4),
    input_schema: { type: 'object' as const, properties: {} },
  });

  it('counts the tool definitions in the request tokens the budget is held to', async () => {
    const session = syntheticSession(2);
    const bare = await drive(makeEngine({ promptBudgetTokens: 4_000 }).engine, session);
    const withTool = await drive(makeEngine({ promptBudgetTokens: 4_000 }, { tools: [bigTool(1_000)] }).engine, session);
    // The same history: only the tool (1,000 tokens of description, its JSON and the tool-use system text) differs.
    expect(withTool[0]!.tokens - bare[0]!.tokens).toBeGreaterThan(1_000);
    expect(withTool[0]!.usage.layers.find((l) => l.layer === 'system')!.used - bare[0]!.usage.layers.find((l) => l.layer === 'system')!.used).toBe(
      withTool[0]!.tokens - bare[0]!.tokens,
    );
  });

  it('throws budget_too_small, naming the turn, the budget and the minimum, when even the minimum does not fit', async () => {
    const { engine: fits } = makeEngine({ promptBudgetTokens: 2_000 });
    fits.beginExchange(user(text('Hello.')));
    const budget = (await fits.assemble()).budget;

    // The tool definitions alone are over the budget: no layering can help.
    const { engine } = makeEngine({ promptBudgetTokens: 2_000 }, { tools: [bigTool(3_000)] });
    engine.beginExchange(user(text('Hello.')));
    const error = await engine.assemble().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(StrataError);
    expect((error as StrataError).code).toBe('budget_too_small');
    const message = (error as StrataError).message;
    expect(message).toMatch(
      new RegExp(`^Turn e1 cannot fit the prompt budget \\(${budget} tokens\\) even with every layer at its minimum \\((\\d+) tokens\\)\\. Raise strata\\.promptBudgetTokens\\.$`),
    );
    expect(Number(/minimum \((\d+) tokens\)/.exec(message)![1])).toBeGreaterThan(3_000);
  });
});

describe('housekeeping asks for exactly the exchanges the next step hands down', () => {
  it('names the newest exchanges leaving working memory next turn, and the next turn folds through the last of them', async () => {
    // summaries capped at 20 tokens: every derived one is cut, so every leaving exchange is worth asking for
    const { engine } = makeEngine({ promptBudgetTokens: 6_000, workingMemoryMax: 10, summaryMaxTokens: 20, contextPreset: 'economy' });
    const turns = await drive(engine, syntheticSession(40));
    let foldedThrough = 0;
    let asked = 0;
    for (let i = 0; i < turns.length; i++) {
      const t = turns[i]!;
      for (const e of t.events) if (e.type === 'relayer') foldedThrough = e.foldedThrough;
      if (t.housekeepingDue.length === 0) continue;
      asked += 1;
      const next = turns[i + 1]!;
      const step = next.events.find((e) => e.type === 'relayer');
      expect(step?.type).toBe('relayer');
      const nextFolded = step!.type === 'relayer' ? step!.foldedThrough : 0;
      // the last `summaryCount` of the exchanges (foldedThrough, nextFolded], in order
      const due = t.housekeepingDue;
      expect(due).toEqual(Array.from({ length: due.length }, (_, k) => nextFolded - due.length + 1 + k));
      expect(due[0]!).toBeGreaterThan(foldedThrough);
      expect(JSON.stringify(t.request)).toContain(`Housekeeping due: summarise ${due.map((d) => `e${d}`).join(', ')} and update the narrative.`);
      expect(t.housekeepingTokens).toBeGreaterThan(0);
    }
    expect(asked).toBeGreaterThan(1);
  });
});
