import { describe, expect, it } from 'vitest';
import { blockTokens, contentTokens } from '../../src/engine/blockTokens';
import { newEngineState } from '../../src/engine/engineState';
import type { LiveExchange } from '../../src/engine/liveExchange';
import { maskOutputs } from '../../src/engine/liveExchange';
import { emptyNarrative } from '../../src/engine/narrative';
import { maskCommandOutputs, maskableOutputTokens } from '../../src/engine/outputMasking';
import { resolveEngineSettings } from '../../src/shared/engineSettings';
import { charTokenizer } from '../support/engineHarness';

const count = (s: string) => charTokenizer.count(s);

/** Exchange `seq` answering a Bash run (or a Read of `reads`), its token count as the recorder sets it. */
function live(seq: number, reads?: string): LiveExchange {
  const id = `t${seq}`;
  const call = reads ? { name: 'Read', input: { file_path: reads } } : { name: 'Bash', input: { command: `make ${seq}` } };
  const output = `output of call ${seq}\n`.repeat(20);
  const input = [{ type: 'tool_result' as const, tool_use_id: id, content: output }];
  return { seq, createdAt: seq, input, output: [{ type: 'text', text: `answer ${seq}` }], calls: new Map([[id, call]]), originals: new Map([[id, output]]), inputTokens: contentTokens(input, count), outputTokens: 5 };
}

describe('maskCommandOutputs: command outputs older than the recent exchanges become pointers', () => {
  it('masks each once, leaves file views and the recent exchanges, and counts a masked exchange at its new size', () => {
    const state = newEngineState(resolveEngineSettings({}), charTokenizer, [{ type: 'text', text: 'sys' }], [], emptyNarrative('Goal'));
    state.tail = [live(1), live(2, 'a.ts'), live(3)];
    const before = state.tail.map((ex) => ex.inputTokens);
    const maskable = maskableOutputTokens(state, 1);
    // the Bash output of e1 only: e2's is a file view, e3 is recent
    expect(maskable).toBe(blockTokens(state.tail[0]!.input[0]!, count));
    expect(maskCommandOutputs(state, 1)).toBe(1);
    const [bash, read, recent] = state.tail;
    expect(JSON.stringify(bash!.input)).toContain('[output masked: Bash make 1, 21 lines');
    expect(bash!.inputTokens).toBe(contentTokens(bash!.input, count));
    expect(bash!.inputTokens).toBeLessThan(before[0]!);
    expect(read!.inputTokens).toBe(before[1]);
    expect(JSON.stringify(recent!.input)).toContain('output of call 3');
    // nothing left to mask: a second pass masks nothing and finds nothing maskable
    expect(maskableOutputTokens(state, 1)).toBe(0);
    expect(maskCommandOutputs(state, 1)).toBe(0);
  });

  it('leaves outputs that are pointers already (masked under pressure) and unanswered calls: not counted, not rewritten', () => {
    const state = newEngineState(resolveEngineSettings({}), charTokenizer, [{ type: 'text', text: 'sys' }], [], emptyNarrative('Goal'));
    state.tail = [live(1), live(2), live(3)];
    // e1's output was masked under pressure, as the relayer does it
    expect(maskOutputs(state.tail[0]!, () => 'masked to fit the budget', count)).toBe(1);
    const pointer = JSON.stringify(state.tail[0]!.input);
    // e2's call was never answered: the placeholder has no original
    state.tail[1]!.originals.clear();
    expect(maskableOutputTokens(state, 1)).toBe(0);
    expect(maskCommandOutputs(state, 1)).toBe(0);
    expect(JSON.stringify(state.tail[0]!.input)).toBe(pointer);
    expect(pointer).toContain('[masked to fit the budget: Bash make 1');
    expect(JSON.stringify(state.tail[1]!.input)).toContain('output of call 2');
  });
});
