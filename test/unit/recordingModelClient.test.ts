import { describe, expect, it } from 'vitest';
import { RecordingModelClient } from '../../src/extension/recordingModelClient';
import type { ModelCall, ModelClient, ModelResult, ModelStreamEvent } from '../../src/task/modelClient';

/**
 * "Strata: Show Last Request" shows the body RecordingModelClient kept: the call as the Anthropic
 * adapter sends it, the calls and the model listing passed on unchanged.
 * (chatController.test.ts compares it with what a local Messages API server received.)
 */
const result: ModelResult = { message: { role: 'assistant', content: [{ type: 'text', text: 'ok' }] }, stopReason: 'end_turn', usage: { inputTokens: 1, cacheWriteTokens: 0, cacheReadTokens: 0, outputTokens: 1 }, model: 'm' };

function inner() {
  const calls: ModelCall[] = [];
  const signals: Array<AbortSignal | undefined> = [];
  const client: ModelClient = {
    stream: async (call, onEvent) => {
      calls.push(call);
      onEvent({ type: 'text', text: 'ok' });
      return result;
    },
    listModels: async (signal) => (signals.push(signal), [{ id: 'claude-x', maxInputTokens: 100 }]),
  };
  return { client, calls, signals };
}

const call = (tools: ModelCall['request']['tools']): ModelCall => ({
  model: 'claude-sonnet-4-5',
  maxTokens: 1_000,
  request: { system: [{ type: 'text', text: 'sys', cache_control: { type: 'ephemeral' } }], messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], tools },
});

describe('RecordingModelClient', () => {
  it('keeps nothing before the first call, then the latest body as sent, with its time; the answer and events pass through', async () => {
    const { client, calls } = inner();
    let now = 1_000;
    const recording = new RecordingModelClient(client, () => now);
    expect(recording.lastRequest).toBeUndefined();
    const events: ModelStreamEvent[] = [];
    const tools = [{ name: 'read_file', description: 'reads', input_schema: { type: 'object' as const, properties: {} } }];
    expect(await recording.stream(call(tools), (e) => events.push(e))).toBe(result);
    expect(events).toEqual([{ type: 'text', text: 'ok' }]);
    expect(calls).toEqual([call(tools)]);
    expect(recording.lastRequest).toEqual({ body: { model: 'claude-sonnet-4-5', max_tokens: 1_000, system: call(tools).request.system, messages: call(tools).request.messages, tools, stream: true }, at: 1_000 });

    now = 2_000;
    await recording.stream(call([]), () => {});
    // No tools: no `tools` field, as the adapter sends it.
    expect(recording.lastRequest).toEqual({ body: { model: 'claude-sonnet-4-5', max_tokens: 1_000, system: call([]).request.system, messages: call([]).request.messages, stream: true }, at: 2_000 });
  });

  it('stamps with the system clock by default and lists models through the inner client', async () => {
    const { client, signals } = inner();
    const recording = new RecordingModelClient(client);
    const before = Date.now();
    await recording.stream(call([]), () => {});
    expect(recording.lastRequest!.at).toBeGreaterThanOrEqual(before);
    expect(recording.lastRequest!.at).toBeLessThanOrEqual(Date.now());
    const signal = new AbortController().signal;
    expect(await recording.listModels(signal)).toEqual([{ id: 'claude-x', maxInputTokens: 100 }]);
    expect(signals).toEqual([signal]);
  });
});
