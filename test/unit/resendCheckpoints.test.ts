import { describe, expect, it } from 'vitest';
import type { ContextEngine } from '../../src/engine/contextEngine';
import { MAX_CHECKPOINTS } from '../../src/engine/checkpoints';
import type { MessagesRequest } from '../../src/shared/messages';
import { text, user } from '../support/engineHarness';
import { engineOver, exchange } from '../support/loggedEngine';
import { MemoryArchive } from '../support/memoryArchive';
import { thrown } from '../support/thrown';

/** `n` user messages, each answered at once: a checkpoint per message, seqs 1..n. */
async function messages(engine: ContextEngine, n: number, from = 1) {
  for (let i = from; i < from + n; i++) await exchange(engine, [text(`message ${i}: please change module ${i}`)], [text(`module ${i} changed`)]);
}

/** The request with id `e${from}` written as `e${to}`: the only difference a resend may leave. */
function renumbered(request: MessagesRequest, from: number, to: number): string {
  return JSON.stringify(request).replace(/\be(\d+)\b/g, (whole, n: string) => (Number(n) === from ? `e${to}` : whole));
}

describe('resend checkpoints: the newest MAX_CHECKPOINTS user messages restore exactly, older ones rebuild as a resume would', () => {
  const edited = user(text('edited message: please change module 99 instead'));

  it(`restores the state at each of the newest ${MAX_CHECKPOINTS} messages; the oldest are evicted`, async () => {
    const n = MAX_CHECKPOINTS + 2;
    for (const from of [3, n]) {
      const { engine } = engineOver(new MemoryArchive());
      await messages(engine, n);
      expect(engine.supersedeFrom(from)).toEqual({ superseded: Array.from({ length: n - from + 1 }, (_, i) => from + i), by: n + 1 });
      engine.beginExchange(edited, { userMessage: true });
      const turn = await engine.assemble();
      // a checkpoint puts back working memory as it was: nothing is folded
      expect(turn.mode).toBe('full');
      expect(turn.request.messages.length).toBe(2 * from - 1);
    }
  });

  it('rebuilds from the archive for a message older than the checkpoints: the request a resumed session without the superseded turns sends', async () => {
    const n = MAX_CHECKPOINTS + 2;
    const { engine } = engineOver(new MemoryArchive());
    await messages(engine, n);
    engine.supersedeFrom(2);
    engine.beginExchange(edited, { userMessage: true });
    const rebuilt = await engine.assemble();
    expect(rebuilt.mode).toBe('full'); // the one turn left fits working memory: rebuilt verbatim, nothing folded

    const cleanArchive = new MemoryArchive();
    const clean = engineOver(cleanArchive).engine;
    await messages(clean, 1);
    clean.close();
    const resumed = engineOver(cleanArchive).engine;
    resumed.beginExchange(edited, { userMessage: true });
    const reference = await resumed.assemble();
    expect(renumbered(rebuilt.request, n + 1, 2)).toBe(JSON.stringify(reference.request));
    expect(JSON.stringify(rebuilt.request)).not.toMatch(/module (?:[2-9]|1\d) /);
  });

  it('drops the checkpoints of superseded messages: they neither restore nor crowd out older ones', async () => {
    const n = MAX_CHECKPOINTS + 2; // checkpoints at 3..n
    const { engine } = engineOver(new MemoryArchive());
    await messages(engine, n);
    engine.supersedeFrom(n);
    const again = thrown(() => engine.supersedeFrom(n));
    expect([again.code, again.message]).toEqual(['bad_resend', `Cannot resend from e${n}: it was already superseded by e${n + 1}. Pick one of your messages still in the conversation.`]);
    // the replacement's own checkpoint takes the freed place: 3 is still restorable
    await exchange(engine, [edited.content[0]!], [text('module 99 changed')]);
    expect(engine.supersedeFrom(3).by).toBe(n + 2);
    engine.beginExchange(edited, { userMessage: true });
    expect((await engine.assemble()).mode).toBe('full');
  });
});

