import { describe, expect, it } from 'vitest';
import { blockText } from '../../src/engine/blockTokens';
import type { SummarizeRequest, Summarizer } from '../../src/engine/ports';
import { DEFAULT_CONDENSE_PROMPT } from '../../src/engine/protocolText';
import type { Message } from '../../src/shared/messages';
import { charTokenizer, drive, makeEngine, syntheticSession, text, toolResult, user } from '../support/engineHarness';

const count = (s: string) => charTokenizer.count(s);

/** A summarizer that records what it was asked and answers `answer`. */
function recording(answer: string | (() => never)) {
  const asked: SummarizeRequest[] = [];
  const summarizer: Summarizer = {
    summarize: async (request) => {
      asked.push(request);
      if (typeof answer === 'function') answer();
      return { text: answer as string, inputTokens: 123, outputTokens: 45 };
    },
  };
  return { summarizer, asked };
}

/** The text the condenser sends for exchanges `from`..`to` of a synthetic session (input then answer). */
function exchangesText(messages: Message[], from: number, to: number): string {
  const parts: string[] = [];
  for (let seq = from; seq <= to; seq++) {
    const input = messages[2 * (seq - 1)]!;
    const output = messages[2 * (seq - 1) + 1]!;
    parts.push(`e${seq}:\n${[...input.content, ...output.content].map(blockText).join('\n')}`);
  }
  return parts.join('\n\n');
}

/** A session of `n` exchanges ending with an answer: nothing pending, as when the Condense button is pressed. */
async function session(n: number, outputLines: number, summarizer: Summarizer, settings = {}) {
  const messages = syntheticSession(n, outputLines).slice(0, -1);
  // The call itself is tested here: no minimum saving (condenseSaving.test.ts tests that gate).
  const { engine } = makeEngine({ condenseMinSavingTokens: 0, ...settings }, { summarizer });
  await drive(engine, messages);
  return { engine, messages };
}

describe('condense: one summary replaces all but the last two exchanges', () => {
  it('sends the leaving exchanges verbatim with the condense prompt and a length cap of a quarter (at least 200)', async () => {
    const { summarizer, asked } = recording('Short.');
    const { engine, messages } = await session(4, 5, summarizer);
    await engine.condenseNow();
    expect(asked).toHaveLength(1);
    const body = exchangesText(messages, 1, 2);
    expect(count(body) / 4).toBeLessThan(200);
    expect(asked[0]!.maxOutputTokens).toBe(200);
    expect(asked[0]!.request).toEqual({
      system: [{ type: 'text', text: DEFAULT_CONDENSE_PROMPT }],
      messages: [{ role: 'user', content: [{ type: 'text', text: `${body}\n\nWrite the summary in at most 200 tokens.` }] }],
      tools: [],
    });
  });

  it('puts the trimmed summary in place of the leaving exchanges and keeps the last two as they were', async () => {
    const { summarizer } = recording('  Short summary of e1-e8.  ');
    const { engine } = await session(10, 40, summarizer);
    const events = await engine.condenseNow();
    expect(events).toEqual([expect.objectContaining({ type: 'condense_context', turn: 11, inputTokens: 123, outputTokens: 45 })]);
    engine.beginExchange(user(toolResult('tu10', 'ok'), text('go on')));
    const next = JSON.stringify((await engine.assemble()).request.messages);
    expect(next).toContain('## Condensed summary of e1-e8\\nShort summary of e1-e8.\\n');
    expect(next).not.toContain("Step 1: I'll look");
    expect(next).not.toContain("Step 8: I'll look");
    expect(next).toContain("Step 9: I'll look");
    expect(next).toContain("Step 10: I'll look");
  });

  it('caps the summary at a quarter of what it replaces, and at 4,000 tokens', async () => {
    const medium = recording('short');
    const a = await session(4, 60, medium.summarizer);
    await a.engine.condenseNow();
    const quarter = Math.floor(count(exchangesText(a.messages, 1, 2)) / 4);
    expect(quarter).toBeGreaterThan(200);
    expect(quarter).toBeLessThan(4_000);
    expect(medium.asked[0]!.maxOutputTokens).toBe(quarter);
    expect(medium.asked[0]!.request.messages[0]!.content[0]).toMatchObject({ text: expect.stringMatching(new RegExp(`Write the summary in at most ${quarter} tokens\\.$`)) });

    const large = recording('short');
    const b = await session(6, 600, large.summarizer, { promptBudgetTokens: 200_000 });
    await b.engine.condenseNow();
    expect(Math.floor(count(exchangesText(b.messages, 1, 4)) / 4)).toBeGreaterThan(4_000);
    expect(large.asked[0]!.maxOutputTokens).toBe(4_000);
  });

  it("uses the condense prompt from the settings when there is one", async () => {
    const { summarizer, asked } = recording('short');
    const { engine } = await session(4, 5, summarizer, { condensePrompt: 'Summarise tersely.' });
    await engine.condenseNow();
    expect(asked[0]!.request.system).toEqual([{ type: 'text', text: 'Summarise tersely.' }]);
  });

  it('keeps the conversation and says why when the summarizer fails or writes more than it replaces', async () => {
    const failing = recording(() => {
      throw new Error('overloaded');
    });
    const a = await session(4, 5, failing.summarizer);
    expect(await a.engine.condenseNow()).toEqual([
      expect.objectContaining({ type: 'condense_context_error', error: 'Condensing failed: overloaded. The conversation was kept as it was.', cost: 0 }),
    ]);

    const big = 'word '.repeat(2_000);
    const bloated = recording(big);
    const b = await session(4, 5, bloated.summarizer);
    const replaced = count(exchangesText(b.messages, 1, 2));
    expect(await b.engine.condenseNow()).toEqual([
      expect.objectContaining({
        type: 'condense_context_error',
        error: `Condensing produced ${count(big)} tokens from ${replaced}; the summary was discarded and the conversation kept as it was.`,
      }),
    ]);
    b.engine.beginExchange(user(toolResult('tu4', 'ok'), text('go on')));
    const next = JSON.stringify((await b.engine.assemble()).request.messages);
    expect(next).toContain("Step 1: I'll look");
    expect(next).not.toContain('Condensed summary');
  });

  it('a summary exactly as long as what it replaces is discarded too', async () => {
    const probe = recording('x');
    const a = await session(4, 40, probe.summarizer);
    await a.engine.condenseNow();
    const replaced = count(exchangesText(a.messages, 1, 2));
    const same = recording('y'.repeat(replaced * 4));
    const b = await session(4, 40, same.summarizer);
    expect((await b.engine.condenseNow())[0]).toMatchObject({ type: 'condense_context_error', error: expect.stringMatching(/^Condensing produced /) });
    // one token shorter passes that check (the prompt then grows by the headers: the next check refuses it)
    const shorter = recording('y'.repeat((replaced - 1) * 4));
    const c = await session(4, 40, shorter.summarizer);
    expect((await c.engine.condenseNow())[0]).toMatchObject({ type: 'condense_context_error', error: expect.stringMatching(/^Condensing would have made the prompt /) });
  });
});
