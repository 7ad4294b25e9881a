import { describe, expect, it } from 'vitest';
import { StreamedAnswer, type WireStreamEvent } from '../../src/adapters/streamedAnswer';
import type { ModelStreamEvent } from '../../src/task/modelClient';

/** The fold on its own, fed the wire events the API sends (the client tests feed it over HTTP). */
function fold(events: WireStreamEvent[], model = 'requested-model') {
  const seen: ModelStreamEvent[] = [];
  const answer = new StreamedAnswer(model, (e) => seen.push(e));
  for (const e of events) answer.apply(e);
  return { answer, seen };
}

const start = (model: string, usage: Record<string, number | null> = {}): WireStreamEvent => ({ type: 'message_start', message: { model, usage } });
const blockStart = (index: number, content_block: Extract<WireStreamEvent, { type: 'content_block_start' }>['content_block']): WireStreamEvent => ({
  type: 'content_block_start',
  index,
  content_block,
});
const delta = (index: number, d: Extract<WireStreamEvent, { type: 'content_block_delta' }>['delta']): WireStreamEvent => ({ type: 'content_block_delta', index, delta: d });
const stop = (index: number): WireStreamEvent => ({ type: 'content_block_stop', index });

describe('StreamedAnswer: folding the Messages API stream', () => {
  it('reports the model the API names, and keeps the requested one when the API names none', () => {
    expect(fold([start('claude-dated-20260101')]).answer.result().model).toBe('claude-dated-20260101');
    expect(fold([start('')]).answer.result().model).toBe('requested-model');
    expect(fold([]).answer.result().model).toBe('requested-model');
  });

  it('maps every usage field, and a later figure replaces an earlier one while an absent one keeps it', () => {
    const { answer } = fold([
      start('m', { input_tokens: 11, output_tokens: 1, cache_creation_input_tokens: 22, cache_read_input_tokens: 33 }),
      { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 44, input_tokens: null } },
    ]);
    expect(answer.result().usage).toEqual({ inputTokens: 11, cacheWriteTokens: 22, cacheReadTokens: 33, outputTokens: 44 });
    const later = fold([
      start('m', { input_tokens: 11, output_tokens: 1, cache_creation_input_tokens: 22, cache_read_input_tokens: 33 }),
      { type: 'message_delta', delta: { stop_reason: null }, usage: { input_tokens: 12, cache_creation_input_tokens: 23, cache_read_input_tokens: 34, output_tokens: 45 } },
    ]).answer;
    expect(later.result().usage).toEqual({ inputTokens: 12, cacheWriteTokens: 23, cacheReadTokens: 34, outputTokens: 45 });
    expect(fold([]).answer.result().usage).toEqual({ inputTokens: 0, cacheWriteTokens: 0, cacheReadTokens: 0, outputTokens: 0 });
  });

  it('hands back a copy of the usage: changing one result does not change the next', () => {
    const { answer } = fold([start('m', { input_tokens: 5 })]);
    const first = answer.result();
    first.usage.inputTokens = 999;
    expect(answer.result().usage.inputTokens).toBe(5);
  });

  it('takes each stop reason the API defines, ignores an unknown or missing one, and lets the caller override it', () => {
    for (const reason of ['end_turn', 'tool_use', 'max_tokens', 'stop_sequence', 'pause_turn', 'refusal']) {
      const { answer } = fold([{ type: 'message_delta', delta: { stop_reason: 'max_tokens' }, usage: {} }, { type: 'message_delta', delta: { stop_reason: reason }, usage: {} }]);
      expect(answer.result().stopReason).toBe(reason);
    }
    const unknown = fold([{ type: 'message_delta', delta: { stop_reason: 'max_tokens' }, usage: {} }, { type: 'message_delta', delta: { stop_reason: 'model_context_window_exceeded_new' }, usage: {} }]);
    expect(unknown.answer.result().stopReason).toBe('max_tokens');
    const none = fold([{ type: 'message_delta', delta: { stop_reason: null }, usage: {} }]);
    expect(none.answer.result().stopReason).toBe('end_turn');
    expect(unknown.answer.result('aborted').stopReason).toBe('aborted');
  });

  it('is complete only after message_stop', () => {
    const { answer } = fold([start('m'), { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: {} }]);
    expect(answer.stopped).toBe(false);
    answer.apply({ type: 'message_stop' });
    expect(answer.stopped).toBe(true);
  });

  it('streams text deltas as they come, keeps a text block’s opening text, and skips empty deltas without calling back', () => {
    const { answer, seen } = fold([start('m'), blockStart(0, { type: 'text', text: 'Opening ' })]);
    expect(answer.delivered).toBe(false);
    answer.apply(delta(0, { type: 'text_delta', text: '' }));
    answer.apply(delta(0, { type: 'text_delta' }));
    expect(seen).toEqual([]);
    expect(answer.delivered).toBe(false);
    answer.apply(delta(0, { type: 'text_delta', text: 'words' }));
    expect(answer.delivered).toBe(true);
    expect(seen).toEqual([{ type: 'text', text: 'words' }]);
    answer.apply(stop(0));
    expect(answer.result().message).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'Opening words' }] });
  });

  it('ignores a delta of the wrong kind for its block and a delta for a block never started', () => {
    const { answer, seen } = fold([
      blockStart(0, { type: 'text' }),
      delta(0, { type: 'input_json_delta', partial_json: '{"a":1}' }),
      delta(0, { type: 'thinking_delta', thinking: 'no' }),
      delta(0, { type: 'text_delta', text: 'kept' }),
      blockStart(1, { type: 'tool_use', id: 'toolu_1', name: 'read_file' }),
      delta(1, { type: 'text_delta', text: 'not shown' }),
      delta(1, { type: 'input_json_delta', partial_json: '{"path":' }),
      delta(1, { type: 'input_json_delta' }),
      delta(1, { type: 'input_json_delta', partial_json: '"a.ts"}' }),
      delta(7, { type: 'text_delta', text: 'orphan' }),
      stop(0),
      stop(1),
      stop(9),
    ]);
    expect(seen.filter((e) => e.type === 'text')).toEqual([{ type: 'text', text: 'kept' }]);
    expect(answer.result().message.content).toEqual([
      { type: 'text', text: 'kept' },
      { type: 'tool_use', id: 'toolu_1', name: 'read_file', input: { path: 'a.ts' } },
    ]);
  });

  it('a tool call with no input JSON (or only spaces) gets {} and no input error; missing id and name are empty', () => {
    for (const json of [[], ['  ', '\n']]) {
      const { answer, seen } = fold([blockStart(0, { type: 'tool_use' }), ...json.map((p) => delta(0, { type: 'input_json_delta', partial_json: p })), stop(0)]);
      expect(seen).toHaveLength(1);
      expect(seen[0]).toStrictEqual({ type: 'tool_use', block: { type: 'tool_use', id: '', name: '', input: {} } });
      expect(answer.delivered).toBe(true);
      expect(answer.result().message.content).toEqual([{ type: 'tool_use', id: '', name: '', input: {} }]);
    }
  });

  it('a tool call whose JSON does not parse is kept with input {} and says why', () => {
    const { answer, seen } = fold([blockStart(0, { type: 'tool_use', id: 't', name: 'edit' }), delta(0, { type: 'input_json_delta', partial_json: '{"path": "a.ts", ' }), stop(0)]);
    expect(seen).toHaveLength(1);
    const event = seen[0];
    expect(event?.type === 'tool_use' && event.block).toEqual({ type: 'tool_use', id: 't', name: 'edit', input: {} });
    expect(event?.type === 'tool_use' && event.inputError).toMatch(/^the tool input is not valid JSON \(.+\)$/);
    expect(answer.result().message.content).toEqual([{ type: 'tool_use', id: 't', name: 'edit', input: {} }]);
  });

  it('a tool input that parses to null, an array or a number is never kept: input {} and an error naming what came', () => {
    for (const [json, what] of [['null', 'null'], ['[1]', 'an array'], ['7', 'number']] as const) {
      const { answer, seen } = fold([blockStart(0, { type: 'tool_use', id: 't', name: 'edit' }), delta(0, { type: 'input_json_delta', partial_json: json }), stop(0)]);
      const event = seen[0];
      expect(event?.type === 'tool_use' && event.inputError).toBe(`the tool input must be a JSON object, not ${what}`);
      const result = answer.result();
      expect(result.message.content).toEqual([{ type: 'tool_use', id: 't', name: 'edit', input: {} }]);
      expect(result.inputErrors).toEqual({ t: `the tool input must be a JSON object, not ${what}` });
    }
  });

  it('at max_tokens a cut tool call, closed with broken JSON or still open, is kept with {} and marked cut; a whole call is not', () => {
    const maxTokens: WireStreamEvent = { type: 'message_delta', delta: { stop_reason: 'max_tokens' }, usage: {} };
    const whole = [blockStart(0, { type: 'tool_use', id: 'ok', name: 'read_file' }), delta(0, { type: 'input_json_delta', partial_json: '{"path":"a"}' }), stop(0)];
    const closed = fold([...whole, blockStart(1, { type: 'tool_use', id: 'c', name: 'write_file' }), delta(1, { type: 'input_json_delta', partial_json: '{"path":"b","con' }), stop(1), maxTokens]).answer.result();
    const open = fold([...whole, blockStart(1, { type: 'tool_use', id: 'c', name: 'write_file' }), delta(1, { type: 'input_json_delta', partial_json: '{"path":"b","con' }), maxTokens]).answer.result();
    for (const result of [closed, open]) {
      expect(result.message.content).toEqual([
        { type: 'tool_use', id: 'ok', name: 'read_file', input: { path: 'a' } },
        { type: 'tool_use', id: 'c', name: 'write_file', input: {} },
      ]);
      expect(Object.keys(result.inputErrors ?? {})).toEqual(['c']);
      expect(result.inputErrors?.c).toMatch(/max_tokens.*write_file/);
    }
    // Stopped by the user, an open call is still dropped (its result would be a guess).
    const aborted = fold([blockStart(0, { type: 'tool_use', id: 'c', name: 'w' }), delta(0, { type: 'input_json_delta', partial_json: '{' }), maxTokens]).answer.result('aborted');
    expect(aborted.message.content).toEqual([]);
    expect(aborted.inputErrors).toBeUndefined();
  });

  it('keeps a thinking block with its opening text and signature, built from deltas', () => {
    const { answer, seen } = fold([
      blockStart(0, { type: 'thinking', thinking: 'First, ', signature: 'sig-' }),
      delta(0, { type: 'thinking_delta', thinking: 'read the file.' }),
      delta(0, { type: 'thinking_delta' }),
      delta(0, { type: 'text_delta', text: 'not text' }),
      delta(0, { type: 'signature_delta', signature: 'abc' }),
      delta(0, { type: 'signature_delta' }),
      stop(0),
    ]);
    expect(seen).toEqual([]);
    expect(answer.delivered).toBe(false);
    expect(answer.result().message.content).toEqual([{ type: 'thinking', thinking: 'First, read the file.', signature: 'sig-abc' }]);
  });

  it('drops a thinking block that never got a signature (the API would refuse it)', () => {
    const { answer } = fold([blockStart(0, { type: 'thinking' }), delta(0, { type: 'thinking_delta', thinking: 'hmm' }), stop(0), blockStart(1, { type: 'text', text: 'answer' }), stop(1)]);
    expect(answer.result().message.content).toEqual([{ type: 'text', text: 'answer' }]);
  });

  it('keeps redacted thinking as it came, and drops blocks of kinds it does not know', () => {
    const { answer, seen } = fold([
      blockStart(0, { type: 'redacted_thinking', data: 'opaque-bytes' }),
      stop(0),
      blockStart(1, { type: 'redacted_thinking' }),
      stop(1),
      blockStart(2, { type: 'server_tool_use', id: 'srv', name: 'web_search' }),
      delta(2, { type: 'text_delta', text: 'hidden' }),
      delta(2, { type: 'input_json_delta', partial_json: '{}' }),
      stop(2),
    ]);
    expect(seen).toEqual([]);
    expect(answer.result().message.content).toEqual([
      { type: 'redacted_thinking', data: 'opaque-bytes' },
      { type: 'redacted_thinking', data: '' },
    ]);
  });

  it('a text block that stayed empty adds nothing, closed or open', () => {
    expect(fold([blockStart(0, { type: 'text' }), stop(0)]).answer.result().message.content).toEqual([]);
    expect(fold([blockStart(0, { type: 'text', text: '' })]).answer.result().message.content).toEqual([]);
  });

  it('the answer so far keeps open text but drops an open tool call and open thinking, in index order', () => {
    const { answer } = fold([
      blockStart(0, { type: 'thinking', thinking: 't', signature: 's' }),
      blockStart(1, { type: 'text', text: 'one ' }),
      blockStart(2, { type: 'text' }),
      delta(2, { type: 'text_delta', text: 'two' }),
      stop(2),
      blockStart(3, { type: 'tool_use', id: 'x', name: 'y' }),
      delta(3, { type: 'input_json_delta', partial_json: '{}' }),
    ]);
    expect(answer.result().message.content).toEqual([
      { type: 'text', text: 'one ' },
      { type: 'text', text: 'two' },
    ]);
  });

  it('orders finished blocks by the API’s index, not by the order they closed', () => {
    const { answer } = fold([
      blockStart(2, { type: 'text', text: 'c' }),
      blockStart(0, { type: 'text', text: 'a' }),
      blockStart(1, { type: 'tool_use', id: 'b', name: 'n' }),
      stop(2),
      stop(1),
      stop(0),
    ]);
    expect(answer.result().message.content).toEqual([
      { type: 'text', text: 'a' },
      { type: 'tool_use', id: 'b', name: 'n', input: {} },
      { type: 'text', text: 'c' },
    ]);
  });
});
