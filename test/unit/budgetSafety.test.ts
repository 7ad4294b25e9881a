import { describe, expect, it } from 'vitest';
import type { Message, MessagesRequest, ToolDefinition } from '../../src/shared/messages';
import { BLOCK_OVERHEAD, blockTokens, MESSAGE_OVERHEAD, messageTokens, requestTokens, safeBudget, searchableText, TOOL_USE_SYSTEM_TOKENS, toolsTokens, UNLEARNED_MARGIN } from '../../src/engine/blockTokens';
import type { Tokenizer } from '../../src/engine/ports';
import { resolveEngineSettings } from '../../src/shared/engineSettings';
import { ContextEngine } from '../../src/engine/contextEngine';
import { ExtractiveSummarizer } from '../../src/engine/extractiveSummarizer';
import { steppingClock } from '../../src/adapters/systemClock';
import { MemoryArchive } from '../support/memoryArchive';
import { charTokenizer, drive, silentLogger, syntheticSession } from '../support/engineHarness';

const count = charTokenizer.count;
const bash: ToolDefinition = { name: 'Bash', description: 'Run a shell command.', input_schema: { type: 'object', properties: { command: { type: 'string' } } } };

/** A char tokenizer whose `learned` the test flips, as a reported usage would. */
function learningTokenizer(): Tokenizer & { learn(): void } {
  let learned = false;
  return { count, observe: () => undefined, learned: () => learned, learn: () => (learned = true) };
}

describe('tool-use overhead: the API adds a system prompt whenever tools are sent', () => {
  it('counts the tool-use system prompt on top of the definitions, and nothing without tools', () => {
    expect(TOOL_USE_SYSTEM_TOKENS).toBeGreaterThanOrEqual(159);
    expect(toolsTokens([], count)).toBe(0);
    const json = count(JSON.stringify([bash]));
    expect(toolsTokens([bash], count)).toBe(TOOL_USE_SYSTEM_TOKENS + json);
    // a cache mark on a tool is not sent text
    expect(toolsTokens([{ ...bash, cache_control: { type: 'ephemeral' } }], count)).toBe(TOOL_USE_SYSTEM_TOKENS + json);
    const bare: MessagesRequest = { system: [{ type: 'text', text: 'sys' }], messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], tools: [] };
    expect(requestTokens({ ...bare, tools: [bash] }, count) - requestTokens(bare, count)).toBe(TOOL_USE_SYSTEM_TOKENS + json);
  });
});

describe('thinking blocks: counted against the budget; encrypted ones never searched', () => {
  it('counts redacted thinking at the length of its encrypted data, and keeps it out of the searchable text', () => {
    const chars = (text: string) => text.length;
    const data = 'RW5jcnlwdGVk'.repeat(40);
    expect(blockTokens({ type: 'redacted_thinking', data }, chars)).toBe(data.length + BLOCK_OVERHEAD);
    const answer: Message = {
      role: 'assistant',
      content: [{ type: 'thinking', thinking: 'plan', signature: 'sig' }, { type: 'redacted_thinking', data }, { type: 'text', text: 'ok' }],
    };
    expect(messageTokens(answer, chars)).toBe(MESSAGE_OVERHEAD + 3 * BLOCK_OVERHEAD + 'plan'.length + data.length + 'ok'.length);
    expect(searchableText([answer])).toBe('plan\nok');
  });
});

describe('safety margin until the tokenizer has learned from a reported usage', () => {
  it('takes UNLEARNED_MARGIN off the budget before learning and none after', () => {
    const t = learningTokenizer();
    expect(UNLEARNED_MARGIN).toBeGreaterThan(0);
    expect(safeBudget(10_000, t)).toBe(Math.floor(10_000 * (1 - UNLEARNED_MARGIN)));
    t.learn();
    expect(safeBudget(10_000, t)).toBe(10_000);
  });

  it('the engine holds requests to the reduced budget until the tokenizer has learned, with tools counted', async () => {
    const tokenizer = learningTokenizer();
    const engine = new ContextEngine({
      sessionId: 's',
      // a window whose 80% share is the 4k budget: no room for the budget to grow with the session
      settings: resolveEngineSettings({ promptBudgetTokens: 4_000, contextWindow: 13_192 }),
      tokenizer,
      archive: new MemoryArchive(),
      summarizer: new ExtractiveSummarizer(tokenizer),
      clock: steppingClock(0, 1_000),
      logger: silentLogger,
      systemPrompt: 'Test agent.',
      tools: [bash],
      validateRequests: true,
    });
    const session = syntheticSession(30);
    const before = await drive(engine, session.slice(0, 21));
    for (const t of before) {
      expect(t.budget).toBe(3_800);
      expect(t.tokens).toBeLessThanOrEqual(3_800);
      expect(t.tokens).toBe(requestTokens(t.request, count));
      expect(t.usage.layers.find((l) => l.layer === 'system')!.used).toBeGreaterThan(TOOL_USE_SYSTEM_TOKENS);
    }
    expect(Math.max(...before.map((t) => t.tokens))).toBeGreaterThan(3_000);
    tokenizer.learn();
    const after = await drive(engine, session.slice(21));
    for (const t of after) {
      expect(t.budget).toBe(4_000);
      expect(t.tokens).toBeLessThanOrEqual(4_000);
    }
  });
});
