import { describe, expect, it } from 'vitest';
import { ContextEngine } from '../../src/engine/contextEngine';
import { ExtractiveSummarizer } from '../../src/engine/extractiveSummarizer';
import { resolveEngineSettings } from '../../src/shared/engineSettings';
import type { EngineSettings } from '../../src/shared/engineSettings';
import type { Message, MessagesRequest } from '../../src/shared/messages';
import { StrataError } from '../../src/engine/ports';
import { assistant, charTokenizer, silentLogger, text, toolResult, toolUse, user } from '../support/engineHarness';
import { MemoryArchive } from '../support/memoryArchive';

/** One user turn: the user's words, then answers with tool calls (each followed by its result), then a final answer. */
function userTurn(tag: string, steps: number, lines = 40): Message[] {
  const out: Message[] = [user(text(`${tag}: please look at module ${tag} and fix it`))];
  for (let i = 0; i < steps; i++) {
    const id = `${tag}-t${i}`;
    out.push(assistant(text(`${tag} step ${i}`), toolUse(id, 'read_file', { path: `src/${tag}${i % 2}.ts` })));
    out.push(user(toolResult(id, Array.from({ length: lines }, (_, l) => `${tag} line ${l}: export const v${l} = ${i};`).join('\n'))));
  }
  out.push(assistant(text(`${tag} is fixed.`)));
  return out;
}

/** A constant clock: headers carry times, and a superseded span must not shift them. */
function engine(archive: MemoryArchive, settings: Partial<EngineSettings> = {}): ContextEngine {
  return new ContextEngine({
    sessionId: 's1',
    settings: resolveEngineSettings(settings),
    tokenizer: charTokenizer,
    archive,
    summarizer: new ExtractiveSummarizer(charTokenizer),
    clock: { now: () => Date.UTC(2025, 0, 1, 9, 0, 0) },
    logger: silentLogger,
    systemPrompt: 'You are a test agent.',
    validateRequests: true,
  });
}

/** Drives whole user turns; the first input of each is the user's message (a resend checkpoint). */
async function play(e: ContextEngine, turns: Message[][]): Promise<number[]> {
  const foldedAtSteps: number[] = [];
  for (const turn of turns) {
    for (const [i, m] of turn.entries()) {
      if (m.role === 'user') e.beginExchange(m, { userMessage: i === 0 });
      else {
        for (const event of (await e.assemble()).events) if (event.type === 'relayer') foldedAtSteps.push(event.foldedThrough);
        e.completeExchange(m);
      }
    }
  }
  return foldedAtSteps;
}

/** The request with exchange id `e${from}` written as `e${to}` in its messages: the only difference a resend may leave. */
function renumbered(request: MessagesRequest, from: number, to: number): string {
  const messages = JSON.parse(JSON.stringify(request.messages, (_key, value: unknown) => (typeof value === 'string' ? value.replace(/\be(\d+)\b/g, (whole, n: string) => (Number(n) === from ? `e${to}` : whole)) : value))) as unknown;
  return JSON.stringify({ ...request, messages });
}

const edited = user(text('B2: please look at module B2 instead, and fix that'));

describe('edit and resend: superseded exchanges leave every layer', () => {
  for (const [mode, settings] of [
    ['full mode', {}],
    ['layered mode, with steps before and inside the superseded span', { promptBudgetTokens: 2_400, contextWindow: 32_000, workingMemoryMin: 2, workingMemoryMax: 6 }],
  ] as const) {
    it(`${mode}: the request after a resend equals the request of a session where the superseded turns never happened (ids aside)`, async () => {
      const before = [userTurn('A', 5), userTurn('B', 5)];
      const superseded = [userTurn('C', 4), userTurn('D', 3)];
      const resent = engine(new MemoryArchive(), settings);
      const steps = await play(resent, [...before, ...superseded]);
      const from = 1 + before.flat().filter((m) => m.role === 'assistant').length;
      if (mode !== 'full mode') {
        // the restore matters: steps folded exchanges before the resent one, and then some of the superseded ones
        expect(steps.some((folded) => folded > 0 && folded < from)).toBe(true);
        expect(steps.some((folded) => folded >= from)).toBe(true);
      }
      const last = from - 1 + superseded.flat().filter((m) => m.role === 'assistant').length;
      const { superseded: gone, by } = resent.supersedeFrom(from);
      expect(gone).toEqual(Array.from({ length: last - from + 1 }, (_, i) => from + i));
      expect(by).toBe(last + 1);
      expect(resent.beginExchange(edited, { userMessage: true })).toBe(by);
      const after = await resent.assemble();

      const clean = engine(new MemoryArchive(), settings);
      await play(clean, before);
      clean.beginExchange(edited, { userMessage: true });
      const reference = await clean.assemble();

      expect(renumbered(after.request, by, from)).toBe(JSON.stringify(reference.request));
      expect(JSON.stringify(after.request)).not.toMatch(/\b[CD] (line|step|is fixed)|module [CD]\b/);
      if (mode !== 'full mode') expect(after.mode).toBe('layered');
    });
  }

  it('keeps superseded exchanges in the archive, marked with the new id once it is archived, fetchable with a note, and aliased', async () => {
    const archive = new MemoryArchive();
    const e = engine(archive);
    await play(e, [userTurn('A', 1), userTurn('B', 1), userTurn('C', 1)]);
    // A = e1-e2, B = e3-e4, C = e5-e6
    e.supersedeFrom(3);
    expect(archive.get('s1', 3)?.supersededBy).toBeUndefined(); // marked with the exchange that replaces it, atomically
    e.beginExchange(edited, { userMessage: true });
    await e.assemble();
    e.completeExchange(assistant(text('B2 done.')));
    expect([1, 2, 3, 4, 5, 6, 7].map((seq) => archive.get('s1', seq)?.supersededBy)).toEqual([undefined, undefined, 7, 7, 7, 7, undefined]);
    expect(archive.get('s1', 7)?.supersedes).toEqual([3, 4, 5, 6]);
    expect(e.aliases()).toEqual({ e3: 'e7', e4: 'e7', e5: 'e7', e6: 'e7' });

    const got = e.retrieve(['e5', 'e1'], 'full');
    expect(got).toContain('[e5 is superseded: the user edited an earlier message and resent it as e7');
    expect(got).toContain('C: please look at module C');
    expect(got).not.toContain('[e1 is superseded');

    // the next request knows nothing of B or C
    e.beginExchange(user(text('and now?')), { userMessage: true });
    const next = JSON.stringify((await e.assemble()).request);
    expect(next).toContain('B2 done.');
    expect(next).not.toMatch(/module [BC]\b/);

    // a second resend from the new message chains the alias
    e.completeExchange(assistant(text('ok')));
    e.supersedeFrom(7);
    expect(e.aliases()).toMatchObject({ e5: 'e7', e7: 'e9', e8: 'e9' });
    expect(e.retrieve(['e5'], 'header')).toContain('(itself superseded, now e9)');
  });

  it('resume rebuilds the same state as a resumed session where the superseded turns never happened', async () => {
    const settings = { promptBudgetTokens: 2_400, contextWindow: 32_000, workingMemoryMin: 2, workingMemoryMax: 6 };
    const answer = assistant(text('B2 done.'));
    const archive = new MemoryArchive();
    const live = engine(archive, settings);
    await play(live, [userTurn('A', 3), userTurn('B', 2), userTurn('C', 3)]);
    // A = e1-e4, B = e5-e7, C = e8-e11
    live.supersedeFrom(8);
    live.beginExchange(edited, { userMessage: true });
    await live.assemble();
    live.completeExchange(answer);
    live.close();
    const resumed = engine(archive, settings);
    expect(resumed.aliases()).toEqual(live.aliases());
    resumed.beginExchange(user(text('go on')));
    const request = (await resumed.assemble()).request;

    const cleanArchive = new MemoryArchive();
    const clean = engine(cleanArchive, settings);
    await play(clean, [userTurn('A', 3), userTurn('B', 2)]);
    clean.beginExchange(edited, { userMessage: true });
    await clean.assemble();
    clean.completeExchange(answer);
    clean.close();
    const cleanResumed = engine(cleanArchive, settings);
    cleanResumed.beginExchange(user(text('go on')));
    const reference = (await cleanResumed.assemble()).request;

    const by = Number(Object.values(live.aliases())[0]!.slice(1));
    expect(by).toBe(12);
    expect(renumbered(request, by, 8)).toBe(JSON.stringify(reference));
    expect(JSON.stringify(request)).not.toMatch(/C is fixed|\bC\d\.ts/);
    expect(resumed.retrieve(['e9'], 'summary')).toContain(`superseded: the user edited an earlier message and resent it as e${by}`);
  });

  it('resends from a message with no checkpoint (before a resume) by rebuilding from the archive', async () => {
    const archive = new MemoryArchive();
    const first = engine(archive);
    await play(first, [userTurn('A', 1), userTurn('B', 1), userTurn('C', 1)]);
    first.close();
    const e = engine(archive);
    e.supersedeFrom(3);
    e.beginExchange(edited, { userMessage: true });
    const request = JSON.stringify((await e.assemble()).request);
    expect(request).toContain('A is fixed.'); // e2, back in working memory from the archive
    expect(request).not.toMatch(/module [BC]\b|\be[3-6] /);
    expect(request).toContain('module B2');
  });

  it('refuses a resend from an unknown or superseded id, or while an exchange waits for its answer, and changes nothing', async () => {
    const e = engine(new MemoryArchive());
    await play(e, [userTurn('A', 1), userTurn('B', 1)]);
    expect(() => e.supersedeFrom(9)).toThrow(/Cannot resend from e9: it is not an exchange of this session/);
    e.supersedeFrom(3);
    expect(() => e.supersedeFrom(4)).toThrow(/already superseded by e5/);
    e.beginExchange(edited, { userMessage: true });
    try {
      e.supersedeFrom(1);
      expect.unreachable();
    } catch (error) {
      expect((error as StrataError).code).toBe('exchange_open');
    }
    expect(e.aliases()).toEqual({ e3: 'e5', e4: 'e5' });
  });
});
