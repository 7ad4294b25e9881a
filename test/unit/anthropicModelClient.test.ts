import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AnthropicModelClient } from '../../src/adapters/anthropicModelClient';
import type { MessagesRequest } from '../../src/shared/messages';
import { type ModelCall, type ModelStreamEvent } from '../../src/task/modelClient';
import { modelFailure } from '../support/modelFailure';
import { textAnswer, toolAnswer } from '../support/messagesApiEvents';
import { faults, MessagesApiServer } from '../support/messagesApiServer';

const KEY = 'sk-ant-test-0123456789abcdef-SECRET';
const MODEL = 'claude-sonnet-5-5';

/** A request with the engine's cache marks on system, a tool and the last message. */
const REQUEST: MessagesRequest = {
  system: [{ type: 'text', text: 'You are Strata.', cache_control: { type: 'ephemeral' } }],
  messages: [
    { role: 'user', content: [{ type: 'text', text: 'earlier question' }] },
    { role: 'assistant', content: [{ type: 'text', text: 'earlier answer' }] },
    { role: 'user', content: [{ type: 'text', text: 'read a.ts please', cache_control: { type: 'ephemeral' } }] },
  ],
  tools: [
    {
      name: 'read_file',
      description: 'Reads a file.',
      input_schema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
      cache_control: { type: 'ephemeral' },
    },
  ],
};

let server: MessagesApiServer;
beforeEach(async () => {
  server = await MessagesApiServer.start({ chunkSize: 5 });
});
afterEach(async () => {
  await server.close();
});

function client(options: { maxRetries?: number; idleTimeoutMs?: number } = {}): AnthropicModelClient {
  return new AnthropicModelClient({ apiKey: KEY, baseURL: server.url, maxRetries: options.maxRetries ?? 2, idleTimeoutMs: options.idleTimeoutMs });
}

function call(extra: Partial<ModelCall> = {}): ModelCall {
  return { request: REQUEST, model: MODEL, maxTokens: 1024, ...extra };
}

async function run(c: AnthropicModelClient, extra: Partial<ModelCall> = {}) {
  const events: ModelStreamEvent[] = [];
  const result = await c.stream(call(extra), (e) => events.push(e));
  return { result, events };
}

describe('AnthropicModelClient over real HTTP (the SDK against a local Messages API)', () => {
  it('streams text deltas in order and returns the whole answer with usage mapped', async () => {
    server.enqueue(textAnswer('Hello there, this is a streamed answer.', { input_tokens: 120, output_tokens: 9, cache_creation_input_tokens: 3000, cache_read_input_tokens: 45000 }));
    const { result, events } = await run(client());
    const deltas = events.map((e) => (e.type === 'text' ? e.text : '?'));
    expect(deltas.length).toBeGreaterThan(3);
    expect(deltas.join('')).toBe('Hello there, this is a streamed answer.');
    expect(result.message).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'Hello there, this is a streamed answer.' }] });
    expect(result.stopReason).toBe('end_turn');
    expect(result.usage).toEqual({ inputTokens: 120, cacheWriteTokens: 3000, cacheReadTokens: 45000, outputTokens: 9 });
    expect(result.model).toBe(MODEL);
  });

  it('assembles tool_use input from input_json_delta chunks', async () => {
    const input = { path: 'src/deeply/nested/file.ts', range: { start: 10, end: 42 }, note: 'unicode ✓ "quoted"' };
    server.enqueue(toolAnswer('read_file', input, 'Let me look.'));
    const { result, events } = await run(client());
    const tool = events.find((e) => e.type === 'tool_use');
    expect(tool).toEqual({ type: 'tool_use', block: { type: 'tool_use', id: 'toolu_msg_0001_1', name: 'read_file', input } });
    expect(result.stopReason).toBe('tool_use');
    expect(result.message.content).toEqual([
      { type: 'text', text: 'Let me look.' },
      { type: 'tool_use', id: 'toolu_msg_0001_1', name: 'read_file', input },
    ]);
  });

  it('sends the request body exactly, cache_control marks included, with the key as the SDK sends it (Authorization: Bearer)', async () => {
    server.enqueue(textAnswer('ok'));
    await run(client());
    const [recorded] = server.messageRequests;
    expect(recorded?.body).toEqual({ model: MODEL, max_tokens: 1024, stream: true, system: REQUEST.system, messages: REQUEST.messages, tools: REQUEST.tools });
    expect(recorded?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(recorded?.headers['anthropic-version']).toBeTypeOf('string');
  });

  it('waits for retry-after on a 429, then succeeds on the second attempt', async () => {
    server.enqueue(faults.rateLimited(2), textAnswer('after the wait'));
    const pending = run(client());
    await server.waitForRequests(1);
    // The SDK's own backoff would retry within 0.5 s; retry-after asks for 2 s.
    await new Promise((r) => setTimeout(r, 1000));
    expect(server.messageRequests).toHaveLength(1);
    const { result } = await pending;
    expect(server.messageRequests).toHaveLength(2);
    expect(result.message.content).toEqual([{ type: 'text', text: 'after the wait' }]);
  });

  it('retries 529 and 500, then gives a clear error after the last try', async () => {
    server.enqueue(faults.overloaded(), faults.serverError(), faults.overloaded());
    const err = await modelFailure(client({ maxRetries: 2 }).stream(call(), () => undefined));
    expect(server.messageRequests).toHaveLength(3);
    expect(err.code).toBe('model_overloaded');
    expect(err.retryable).toBe(true);
    expect(err.message).toContain('3 tries');
    expect(err.message).toMatch(/retry/i);
  });

  it('a 500 on every try ends in model_server', async () => {
    server.enqueue(faults.serverError(), faults.serverError());
    const err = await modelFailure(client({ maxRetries: 1 }).stream(call(), () => undefined));
    expect(server.messageRequests).toHaveLength(2);
    expect(err.code).toBe('model_server');
  });

  it('maps "prompt is too long" to model_prompt_too_long without retrying', async () => {
    server.enqueue(faults.promptTooLong(214_000, 200_000));
    const err = await modelFailure(client().stream(call(), () => undefined));
    expect(server.messageRequests).toHaveLength(1);
    expect(err.code).toBe('model_prompt_too_long');
    expect(err.message).toContain('214000 tokens > 200000');
    expect(err.message).toMatch(/condense/i);
  });

  it('maps a 413 request_too_large the same way', async () => {
    server.enqueue({ fault: 'status', status: 413, errorType: 'request_too_large', message: 'Request exceeds the maximum allowed number of bytes.' });
    const err = await modelFailure(client().stream(call(), () => undefined));
    expect(err.code).toBe('model_prompt_too_long');
  });

  it('a plain 400 is not retried and says it is a bug to report', async () => {
    server.enqueue({ fault: 'status', status: 400, errorType: 'invalid_request_error', message: 'messages: roles must alternate' });
    const err = await modelFailure(client().stream(call(), () => undefined));
    expect(server.messageRequests).toHaveLength(1);
    expect(err.code).toBe('model_bad_request');
    expect(err.retryable).toBe(false);
    expect(err.message).toContain('roles must alternate');
  });

  it('keeps a thinking block whole (text and signature) beside the text and the tool call, for the next turn', async () => {
    server.enqueue({
      content: [
        { type: 'thinking', thinking: 'The user wants a.ts; read it first.', signature: 'sig-abc' },
        { type: 'text', text: 'Reading it.' },
        { type: 'tool_use', name: 'read_file', input: { path: 'a.ts' } },
      ],
    });
    const { result, events } = await run(client());
    expect(events.filter((e) => e.type === 'text').map((e) => (e.type === 'text' ? e.text : '')).join('')).toBe('Reading it.');
    expect(result.message.content).toEqual([
      { type: 'thinking', thinking: 'The user wants a.ts; read it first.', signature: 'sig-abc' },
      { type: 'text', text: 'Reading it.' },
      { type: 'tool_use', id: 'toolu_msg_0001_2', name: 'read_file', input: { path: 'a.ts' } },
    ]);
  });

  it('a request that gets no headers in time is retried, then fails as unavailable', async () => {
    server.enqueue(faults.stall(textAnswer('late'), 3_000), faults.stall(textAnswer('late'), 3_000));
    const c = new AnthropicModelClient({ apiKey: KEY, baseURL: server.url, maxRetries: 1, headerTimeoutMs: 200 });
    const err = await modelFailure(c.stream(call(), () => undefined));
    expect(server.messageRequests).toHaveLength(2);
    expect(err.code).toBe('model_unavailable');
    expect(err.message).toMatch(/sent no response within 200 ms \(not even its headers\), 2 tries in all/);
  });

  it('keeps the partial text when the stream is cut mid-answer', async () => {
    // 12 events: start, block start, ping, 8 deltas of 5 chars ... cut after 6 (3 deltas shown).
    server.enqueue(faults.cut(textAnswer('First part. Second part never arrives.'), 6));
    const events: ModelStreamEvent[] = [];
    const err = await modelFailure(client({ maxRetries: 0 }).stream(call(), (e) => events.push(e)));
    expect(err.code).toBe('model_stream_cut');
    expect(err.partial.message.content).toEqual([{ type: 'text', text: 'First part. Sec' }]);
    expect(events.map((e) => (e.type === 'text' ? e.text : '')).join('')).toBe('First part. Sec');
    expect(err.message).toContain('kept');
  });

  it('a clean early end (no message_stop) is a cut too', async () => {
    server.enqueue(faults.cut(textAnswer('Half an answer'), 4, 'end'));
    const err = await modelFailure(client({ maxRetries: 0 }).stream(call(), () => undefined));
    expect(err.code).toBe('model_stream_cut');
    expect(err.partial.message.content).toEqual([{ type: 'text', text: 'Half ' }]);
  });

  it('retries a stream that fails before anything reached the caller', async () => {
    server.enqueue(faults.streamOverloaded(textAnswer('lost'), 1), textAnswer('second try'));
    const { result, events } = await run(client({ maxRetries: 1 }));
    expect(server.messageRequests).toHaveLength(2);
    expect(events.map((e) => (e.type === 'text' ? e.text : '')).join('')).toBe('second try');
    expect(result.message.content).toEqual([{ type: 'text', text: 'second try' }]);
  });

  it('does not retry a stream that already showed text; the error keeps it', async () => {
    server.enqueue(faults.streamOverloaded(textAnswer('visible words'), 4), textAnswer('never asked for'));
    const err = await modelFailure(client({ maxRetries: 2 }).stream(call(), () => undefined));
    expect(server.messageRequests).toHaveLength(1);
    expect(err.code).toBe('model_overloaded');
    expect(err.partial.message.content).toEqual([{ type: 'text', text: 'visib' }]);
  });

  it('stops a stalled stream after the idle timeout and keeps what arrived', async () => {
    server.enqueue(faults.stall(textAnswer('Before the stall, after it.'), 5_000, 5));
    const err = await modelFailure(client({ maxRetries: 0, idleTimeoutMs: 200 }).stream(call(), () => undefined));
    expect(err.code).toBe('model_stalled');
    expect(err.partial.message.content).toEqual([{ type: 'text', text: 'Before the' }]);
  });

  it('an abort returns the text so far, marked aborted', async () => {
    server.enqueue(faults.stall(textAnswer('Partial words then a long pause'), 5_000, 6));
    const controller = new AbortController();
    const events: ModelStreamEvent[] = [];
    const pending = client().stream(call({ signal: controller.signal }), (e) => {
      events.push(e);
      if (events.length === 3) controller.abort();
    });
    const result = await pending;
    expect(result.stopReason).toBe('aborted');
    expect(result.message.content).toEqual([{ type: 'text', text: 'Partial words t' }]);
  });

  it('an abort before any answer resolves with an empty aborted result', async () => {
    server.enqueue(faults.rateLimited(30));
    const controller = new AbortController();
    const pending = client().stream(call({ signal: controller.signal }), () => undefined);
    await server.waitForRequests(1);
    controller.abort();
    const result = await pending;
    expect(result.stopReason).toBe('aborted');
    expect(result.message.content).toEqual([]);
  });

  it('never puts the API key in an error, even when the server echoes it', async () => {
    server.enqueue(faults.unauthorized(`invalid x-api-key: ${KEY}`));
    const err = await modelFailure(client().stream(call(), () => undefined));
    expect(err.code).toBe('model_auth');
    expect(err.message).toMatch(/ANTHROPIC_API_KEY/);
    for (const text of [err.message, String(err), err.stack ?? '', JSON.stringify(err)]) expect(text).not.toContain(KEY);
  });

  it('lists models across pages with their windows and output limits', async () => {
    server.models = [
      { id: 'claude-sonnet-5-5', max_input_tokens: 1_000_000, max_tokens: 128_000 },
      { id: 'claude-haiku-5-5', max_input_tokens: 200_000, max_tokens: 64_000 },
      { id: 'gateway-model', max_input_tokens: null, max_tokens: null },
    ];
    const paged = await MessagesApiServer.start({ modelsPageSize: 2, models: server.models });
    try {
      const c = new AnthropicModelClient({ apiKey: KEY, baseURL: paged.url });
      const models = await c.listModels();
      expect(models.map((m) => [m.id, m.maxInputTokens, m.maxOutputTokens])).toEqual([
        ['claude-sonnet-5-5', 1_000_000, 128_000],
        ['claude-haiku-5-5', 200_000, 64_000],
        ['gateway-model', undefined, undefined],
      ]);
    } finally {
      await paged.close();
    }
  });
});
