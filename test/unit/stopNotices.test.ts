import { describe, expect, it } from 'vitest';
import type { ToolUseBlock } from '../../src/shared/messages';
import { emptyUsage } from '../../src/task/modelClient';
import type { ModelResult, ModelStopReason } from '../../src/task/modelClient';
import { stopNotices, unusableCallReason } from '../../src/task/stopNotices';

// The notices are the user's only word on how an answer ended; each case checks the whole text,
// so a changed kind, limit, call name or branch shows.

const call = (id: string, name: string): ToolUseBlock => ({ type: 'tool_use', id, name, input: {} });
const result = (stopReason: ModelStopReason, inputErrors?: Record<string, string>): ModelResult => ({
  message: { role: 'assistant', content: [] },
  stopReason,
  usage: emptyUsage(),
  model: 'm',
  ...(inputErrors ? { inputErrors } : {}),
});
const options = { maxOutputTokens: 32_000, continues: true, maxPauses: 3 };

describe('stopNotices', () => {
  it('max_tokens with a cut call names that call (and only the cut ones) and the limit', () => {
    const calls = [call('a', 'read_file'), call('b', 'write_file'), call('c', 'edit_file')];
    const notices = stopNotices(result('max_tokens', { b: 'cut', c: 'cut' }), calls, options);
    expect(notices).toEqual([
      {
        kind: 'max_tokens',
        message:
          'The answer reached the output limit (32,000 tokens) while writing a call to write_file, edit_file; that call was not run, and the model is told to retry it with a smaller input.',
      },
    ]);
  });

  it('max_tokens with no cut call says the answer is cut short', () => {
    expect(stopNotices(result('max_tokens'), [call('a', 'read_file')], options)).toEqual([
      { kind: 'max_tokens', message: 'The answer reached the output limit (32,000 tokens) and is cut short; send "continue" to let the model go on.' },
    ]);
  });

  it('refusal says whether tool calls were dropped', () => {
    const withCalls = stopNotices(result('refusal'), [call('a', 'execute_command')], options);
    expect(withCalls).toEqual([
      { kind: 'refusal', message: 'The model declined to go on with this answer (stop reason: refusal). What it wrote is kept; none of its tool calls ran. Rephrase the request or ask something else.' },
    ]);
    expect(stopNotices(result('refusal'), [], options)).toEqual([
      { kind: 'refusal', message: 'The model declined to go on with this answer (stop reason: refusal). What it wrote is kept. Rephrase the request or ask something else.' },
    ]);
  });

  it('an unusable input gets its own notice with the reason; a usable one none', () => {
    const calls = [call('a', 'read_file'), call('b', 'write_file')];
    expect(stopNotices(result('tool_use', { b: 'its input is not a JSON object' }), calls, options)).toEqual([
      { kind: 'tool_input', message: "The model's call to write_file was not run: its input is not a JSON object. The model is told why." },
    ]);
    expect(stopNotices(result('tool_use'), calls, options)).toEqual([]);
    expect(stopNotices(result('end_turn'), [], options)).toEqual([]);
  });

  it('pause_turn: continued, or capped after maxPauses, after the input notices', () => {
    const calls = [call('a', 'read_file')];
    expect(stopNotices(result('pause_turn', { a: 'bad' }), calls, options)).toEqual([
      { kind: 'tool_input', message: "The model's call to read_file was not run: bad. The model is told why." },
      { kind: 'pause_turn', message: 'The API paused this long answer (pause_turn); Strata sends it back so the model continues.' },
    ]);
    expect(stopNotices(result('pause_turn'), [], { ...options, continues: false })).toEqual([
      { kind: 'pause_turn', message: 'The API paused this answer again (pause_turn) after 3 continuations; send a message to let it go on.' },
    ]);
  });
});

describe('unusableCallReason', () => {
  it('refuses every call of a refusal, the calls with an input error otherwise, and lets the rest run', () => {
    const a = call('a', 'execute_command');
    expect(unusableCallReason(a, result('refusal'))).toBe('the answer ended in a refusal (stop reason refusal), so none of its tool calls ran');
    expect(unusableCallReason(a, result('max_tokens', { a: 'cut at the output limit' }))).toBe('cut at the output limit');
    expect(unusableCallReason(a, result('tool_use', { b: 'x' }))).toBeUndefined();
    expect(unusableCallReason(a, result('tool_use'))).toBeUndefined();
  });
});
