import { describe, expect, it } from 'vitest';
import { MAX_CHECKPOINTS } from '../../src/engine/checkpoints';
import { effectiveBudget } from '../../src/engine/engineState';
import { resolveEngineSettings } from '../../src/shared/engineSettings';
import { charTokenizer, text, toolResult, toolUse } from '../support/engineHarness';
import { engineOver, exchange } from '../support/loggedEngine';
import { MemoryArchive } from '../support/memoryArchive';

describe('resend checkpoints are taken at user messages only', () => {
  it('a user message stays restorable however many tool rounds follow it', async () => {
    const { engine } = engineOver(new MemoryArchive());
    await exchange(engine, [text('Fix the parser.')], [text('On it.')]);
    // the user's second message, then more tool rounds than there are checkpoints
    await exchange(engine, [text('Also keep the API stable.')], [toolUse('t2', 'Bash', { command: 'npm test -- 2' })]);
    const rounds = MAX_CHECKPOINTS + 2;
    for (let i = 3; i < 3 + rounds; i++) await exchange(engine, [toolResult(`t${i - 1}`, `ok ${i - 1}`)], [toolUse(`t${i}`, 'Bash', { command: `npm test -- ${i}` })], false);
    await exchange(engine, [toolResult(`t${2 + rounds}`, 'all green')], [text('Done.')], false);
    engine.supersedeFrom(2);
    const turn = await exchange(engine, [text('Instead, rename the parser.')], [text('Renamed.')]);
    // restored as it began: the first exchange still verbatim in working memory, nothing folded
    expect(turn.mode).toBe('full');
    expect(turn.request.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(turn.request.messages[1]!.content).toEqual([text('On it.')]);
  });
});

describe('the task is capped at a quarter of the budget', () => {
  it('a first input larger than the whole budget is cut to a quarter of it, and its start kept', async () => {
    const settings = { promptBudgetTokens: 4_000, contextWindow: 32_000 };
    const { engine } = engineOver(new MemoryArchive(), settings);
    const task = Array.from({ length: 4_000 }, (_, i) => `Step ${i}: change module ${i}.`).join(' ');
    const turn = await exchange(engine, [text(task)], [text('ok')]);
    const first = turn.request.messages[0]!.content[0]!;
    const sent = first.type === 'text' ? first.text : '';
    expect(charTokenizer.count(sent)).toBeLessThanOrEqual(Math.floor(effectiveBudget(resolveEngineSettings(settings)) / 4));
    expect(task.startsWith(sent.replace(/ …$/, ''))).toBe(true);
    // the prompt was not cut any further: the capped task fits as it is
    expect(turn.events).toEqual([]);
  });
});
