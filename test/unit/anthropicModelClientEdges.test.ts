import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AnthropicModelClient, type AnthropicModelClientOptions } from '../../src/adapters/anthropicModelClient';
import type { MessagesRequest } from '../../src/shared/messages';
import { type ModelCall, type ModelErrorCode } from '../../src/task/modelClient';
import { modelFailure } from '../support/modelFailure';
import { textAnswer } from '../support/messagesApiEvents';
import { faults, MessagesApiServer, type StreamErrorFault } from '../support/messagesApiServer';

const KEY = 'sk-ant-edges-0123456789-SECRET';
const MODEL = 'claude-sonnet-5-5';
const REQUEST: MessagesRequest = { system: [{ type: 'text', text: 'You are Strata.' }], messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], tools: [] };
/** A retry-after the SDK honours (seconds), short enough to keep the tests quick. */
const SHORT_WAIT = 0.01;

let server: MessagesApiServer;
beforeEach(async () => {
  server = await MessagesApiServer.start({ chunkSize: 5 });
});
afterEach(async () => {
  await server.close();
});

function client(options: Partial<AnthropicModelClientOptions> = {}): AnthropicModelClient {
  return new AnthropicModelClient({ apiKey: KEY, baseURL: server.url, maxRetries: 0, ...options });
}

function call(extra: Partial<ModelCall> = {}): ModelCall {
  return { request: REQUEST, model: MODEL, maxTokens: 256, ...extra };
}

/** An SSE `error` event right after message_start: nothing has reached the caller. */
function streamError(errorType: string, message: string): StreamErrorFault {
  return { fault: 'stream_error', answer: textAnswer('never shown'), afterEvents: 1, errorType, message };
}

interface Expected {
  code: ModelErrorCode;
  retryable: boolean;
  message: RegExp;
}

describe('AnthropicModelClient: error kinds, messages and retry rules', () => {
  it('retries 4 times by default (5 tries), then says so', async () => {
    for (let i = 0; i < 6; i++) server.enqueue(faults.rateLimited(SHORT_WAIT));
    const err = await modelFailure(new AnthropicModelClient({ apiKey: KEY, baseURL: server.url }).stream(call(), () => undefined));
    expect(server.messageRequests).toHaveLength(5);
    expect(err.code).toBe('model_rate_limited');
    expect(err.retryable).toBe(true);
    expect(err.message).toBe(
      'The model API is rate-limiting this key (429: Number of request tokens has exceeded your per-minute rate limit), still after 5 tries. Wait a minute and retry, or lower the request rate.',
    );
  });

  const byStatus: Array<[number, string, Expected]> = [
    [401, 'error', { code: 'model_auth', retryable: false, message: /^The model API refused the API key \(401: said so\)\. Set a valid key \(ANTHROPIC_API_KEY in a terminal, the Strata: Set API Key command in the editor\)\.$/ }],
    [403, 'error', { code: 'model_permission', retryable: false, message: /^The API key may not use this model or feature \(403: said so\)\. Pick another model or check the key's workspace\.$/ }],
    [404, 'error', { code: 'model_not_found', retryable: false, message: /^The model API has no such model or route \(404: said so\)\. Check the model id and the base URL\.$/ }],
    [429, 'error', { code: 'model_rate_limited', retryable: true, message: /^The model API is rate-limiting this key \(429: said so\), still after 1 try\. Wait a minute and retry/ }],
    [529, 'error', { code: 'model_overloaded', retryable: true, message: /^The model API is overloaded \(529: said so\), still after 1 try\. Retry in a few minutes or pick another model\.$/ }],
    [503, 'error', { code: 'model_server', retryable: true, message: /^The model API failed \(503: said so\), still after 1 try\. Retry later\.$/ }],
    [400, 'error', { code: 'model_bad_request', retryable: false, message: /^The model API rejected the request \(400: said so\)\. This is a Strata bug; please report it\.$/ }],
    [413, 'error', { code: 'model_prompt_too_long', retryable: false, message: /^The prompt is larger than the model's window \(said so\)\. Condense the context and retry\.$/ }],
    [418, 'teapot_error', { code: 'model_unavailable', retryable: false, message: /^The model call failed \(418: said so\)\.$/ }],
  ];
  for (const [status, errorType, want] of byStatus) {
    it(`an HTTP ${status} (error type '${errorType}') is ${want.code}, by its status alone`, async () => {
      server.enqueue({ fault: 'status', status, errorType, message: 'said so' });
      const err = await modelFailure(client().stream(call(), () => undefined));
      expect(server.messageRequests).toHaveLength(1);
      expect({ code: err.code, retryable: err.retryable }).toEqual({ code: want.code, retryable: want.retryable });
      expect(err.message).toMatch(want.message);
    });
  }

  const byType: Array<[string, string, Expected]> = [
    ['authentication_error', 'bad key', { code: 'model_auth', retryable: false, message: /^The model API refused the API key \(401: bad key\)\. Set a valid key/ }],
    ['permission_error', 'no', { code: 'model_permission', retryable: false, message: /^The API key may not use this model or feature \(403: no\)/ }],
    ['not_found_error', 'gone', { code: 'model_not_found', retryable: false, message: /^The model API has no such model or route \(404: gone\)/ }],
    ['rate_limit_error', 'slow down', { code: 'model_rate_limited', retryable: true, message: /^The model API is rate-limiting this key \(429: slow down\), still after 1 try\./ }],
    ['overloaded_error', 'Overloaded', { code: 'model_overloaded', retryable: true, message: /^The model API is overloaded \(in stream: Overloaded\), still after 1 try\./ }],
    ['invalid_request_error', 'Prompt is too long: 9 tokens > 8 maximum', { code: 'model_prompt_too_long', retryable: false, message: /^The prompt is larger than the model's window \(Prompt is too long: 9 tokens > 8 maximum\)\./ }],
    ['invalid_request_error', 'bad field', { code: 'model_bad_request', retryable: false, message: /^The model API rejected the request \(400: bad field\)\./ }],
    ['api_error', 'Internal', { code: 'model_stream_cut', retryable: true, message: /^The model's answer was cut off by an error \(api_error: Internal\) after 1 try\. Send the message again\.$/ }],
    ['', 'no type', { code: 'model_stream_cut', retryable: true, message: /^The model's answer was cut off \(.*no type.*\) after 1 try\. Send the message again\.$/ }],
  ];
  for (const [errorType, message, want] of byType) {
    it(`an SSE error event of type '${errorType}' (${message}) is ${want.code}, by its type alone`, async () => {
      server.enqueue(streamError(errorType, message));
      const err = await modelFailure(client().stream(call(), () => undefined));
      expect({ code: err.code, retryable: err.retryable }).toEqual({ code: want.code, retryable: want.retryable });
      expect(err.message).toMatch(want.message);
      expect(err.partial.message.content).toEqual([]);
    });
  }

  it('retries an in-stream failure while nothing was shown, as many times as allowed and no more', async () => {
    server.enqueue(faults.streamOverloaded(textAnswer('a'), 1), faults.streamOverloaded(textAnswer('b'), 1), faults.streamOverloaded(textAnswer('c'), 1));
    const err = await modelFailure(client({ maxRetries: 1 }).stream(call(), () => undefined));
    expect(server.messageRequests).toHaveLength(2);
    expect(server.pending).toBe(1);
    expect(err.code).toBe('model_overloaded');
    expect(err.message).toContain('(in stream: Overloaded), still after 2 tries.');
  });

  it('keeps to maxRetries in all when an in-stream failure is followed by HTTP errors, and counts the tries right', async () => {
    server.enqueue(faults.streamOverloaded(textAnswer('a'), 1), faults.serverError(), faults.serverError(), textAnswer('never asked for'));
    const err = await modelFailure(client({ maxRetries: 1 }).stream(call(), () => undefined));
    expect(server.messageRequests).toHaveLength(2);
    expect(err.code).toBe('model_server');
    expect(err.message).toContain('still after 2 tries.');
  });

  it('keeps to maxRetries in all when HTTP errors the SDK retried come before an in-stream failure', async () => {
    // try 1: a 500 the SDK retries; try 2: overloaded in the stream; try 3 is the last one allowed
    server.enqueue(faults.serverError(), faults.streamOverloaded(textAnswer('a'), 1), faults.serverError(), faults.serverError(), textAnswer('never asked for'));
    const err = await modelFailure(client({ maxRetries: 2 }).stream(call(), () => undefined));
    expect(server.messageRequests).toHaveLength(3);
    expect(server.pending).toBe(2);
    expect(err.code).toBe('model_server');
    expect(err.message).toContain('still after 3 tries.');
  });

  it('an in-stream failure on the last try allowed after SDK retries is not retried again', async () => {
    server.enqueue(faults.serverError(), faults.streamOverloaded(textAnswer('a'), 1), textAnswer('never asked for'));
    const err = await modelFailure(client({ maxRetries: 1 }).stream(call(), () => undefined));
    expect(server.messageRequests).toHaveLength(2);
    expect(err.code).toBe('model_overloaded');
    expect(err.message).toContain('still after 2 tries.');
  });

  it('does not retry an in-stream error that cannot succeed again', async () => {
    server.enqueue(streamError('invalid_request_error', 'messages: bad'), textAnswer('never asked for'));
    const err = await modelFailure(client({ maxRetries: 2 }).stream(call(), () => undefined));
    expect(server.messageRequests).toHaveLength(1);
    expect(err.code).toBe('model_bad_request');
  });

  it('a cut before anything was shown is retried; the last one says how many tries and keeps nothing', async () => {
    server.enqueue(faults.cut(textAnswer('gone'), 2), faults.cut(textAnswer('gone'), 2));
    const err = await modelFailure(client({ maxRetries: 1 }).stream(call(), () => undefined));
    expect(server.messageRequests).toHaveLength(2);
    expect(err.code).toBe('model_stream_cut');
    expect(err.retryable).toBe(true);
    expect(err.message).toMatch(/^The model's answer was cut off \(.+\) after 2 tries\. Send the message again\.$/);
    expect(err.partial.message.content).toEqual([]);
  });

  it('a clean early close says the answer stopped before its end, and keeps the part shown', async () => {
    server.enqueue(faults.cut(textAnswer('Half an answer'), 4, 'end'));
    const err = await modelFailure(client().stream(call(), () => undefined));
    expect(err.message).toBe("The model's answer stopped before its end (the connection closed early) after 1 try. Send the message again. The part of the answer received so far is kept.");
    expect(err.retryable).toBe(true);
  });

  it('a stall says how long the stream was silent and after how many tries', async () => {
    server.enqueue(faults.stall(textAnswer('late'), 5_000, 1));
    const err = await modelFailure(client({ idleTimeoutMs: 150 }).stream(call(), () => undefined));
    expect(err.code).toBe('model_stalled');
    expect(err.retryable).toBe(true);
    expect(err.message).toBe('The model stream went silent for 150 ms and was stopped after 1 try. Send the message again.');
  });

  it('a request that gets no headers in time names the base URL and may be retried', async () => {
    server.enqueue(faults.stall(textAnswer('late'), 3_000));
    const err = await modelFailure(client({ headerTimeoutMs: 150 }).stream(call(), () => undefined));
    expect(err.code).toBe('model_unavailable');
    expect(err.retryable).toBe(true);
    expect(err.message).toBe(`The model API sent no response within 150 ms (not even its headers), 1 try in all. Check the network or the base URL (${server.url}), then send the message again.`);
  });

  it('an endpoint nobody listens on is unavailable, retryable, and named', async () => {
    const gone = await MessagesApiServer.start();
    const url = gone.url;
    await gone.close();
    const err = await modelFailure(new AnthropicModelClient({ apiKey: KEY, baseURL: url, maxRetries: 0 }).stream(call(), () => undefined));
    expect(err.code).toBe('model_unavailable');
    expect(err.retryable).toBe(true);
    expect(err.message).toBe(`Cannot reach the model API at ${url} after 1 try. Check the network or the base URL, then retry.`);
  });

  it('an abort during the wait before a retry returns the empty answer, marked aborted, without another try', async () => {
    server.enqueue(faults.cut(textAnswer('gone'), 1), textAnswer('never asked for'));
    const controller = new AbortController();
    const pending = client({ maxRetries: 3 }).stream(call({ signal: controller.signal }), () => undefined);
    await server.waitForRequests(1);
    controller.abort();
    const result = await pending;
    expect(result.stopReason).toBe('aborted');
    expect(result.message.content).toEqual([]);
    expect(server.messageRequests).toHaveLength(1);
  });

  it('scrubs a key of 8 characters from an echoed message, and leaves a message alone for a key too short to be one', async () => {
    const eight = 'k8k8k8k8';
    server.enqueue(faults.unauthorized(`invalid x-api-key ${eight}`), faults.unauthorized('invalid x-api-key'));
    const scrubbed = await modelFailure(new AnthropicModelClient({ apiKey: eight, baseURL: server.url, maxRetries: 0 }).stream(call(), () => undefined));
    expect(scrubbed.message).not.toContain(eight);
    expect(scrubbed.message).toContain('(401: invalid x-api-key [api key])');
    const short = await modelFailure(new AnthropicModelClient({ apiKey: 'ke', baseURL: server.url, maxRetries: 0 }).stream(call(), () => undefined));
    expect(short.message).toContain('(401: invalid x-api-key)');
  });

  it('writes nothing to the console, whatever ANTHROPIC_LOG in the environment asks', async () => {
    const before = process.env.ANTHROPIC_LOG;
    process.env.ANTHROPIC_LOG = 'debug';
    const spies = (['log', 'debug', 'info', 'warn', 'error'] as const).map((level) => vi.spyOn(console, level).mockImplementation(() => undefined));
    try {
      server.enqueue(faults.rateLimited(SHORT_WAIT), textAnswer('ok'));
      await client({ maxRetries: 1 }).stream(call(), () => undefined);
      expect(server.messageRequests).toHaveLength(2);
      for (const spy of spies) expect(spy).not.toHaveBeenCalled();
    } finally {
      for (const spy of spies) spy.mockRestore();
      if (before === undefined) delete process.env.ANTHROPIC_LOG;
      else process.env.ANTHROPIC_LOG = before;
    }
  });

  it('sends no tools field when the request has no tools', async () => {
    server.enqueue(textAnswer('ok'));
    await client().stream(call(), () => undefined);
    expect(server.messageRequests[0]?.body).toEqual({ model: MODEL, max_tokens: 256, stream: true, system: REQUEST.system, messages: REQUEST.messages });
  });

  it('a retried stream reports the usage and model of the try that answered', async () => {
    server.enqueue(faults.streamOverloaded({ ...textAnswer('lost', { input_tokens: 1, output_tokens: 1 }), model: 'first' }, 1), { ...textAnswer('kept', { input_tokens: 7, output_tokens: 3 }), model: 'second' });
    const result = await client({ maxRetries: 1 }).stream(call(), () => undefined);
    expect(result.usage).toEqual({ inputTokens: 7, cacheWriteTokens: 0, cacheReadTokens: 0, outputTokens: 3 });
    expect(result.model).toBe('second');
    expect(result.stopReason).toBe('end_turn');
  });
});

describe('AnthropicModelClient.listModels: fields, paging and failures', () => {
  it('maps display names and lifecycles, asking for pages of 100', async () => {
    const models = Array.from({ length: 120 }, (_, i) => ({ id: `model-${i}`, display_name: `Model ${i}`, lifecycle: i === 0 ? ('deprecated' as const) : ('active' as const) }));
    const wide = await MessagesApiServer.start({ modelsPageSize: 150, models });
    try {
      const listed = await new AnthropicModelClient({ apiKey: KEY, baseURL: wide.url }).listModels();
      expect(listed).toHaveLength(120);
      expect(listed[0]).toEqual({ id: 'model-0', displayName: 'Model 0', maxInputTokens: undefined, maxOutputTokens: undefined, lifecycle: 'deprecated' });
      expect(wide.requests.map((r) => r.query.get('limit'))).toEqual(['100', '100']);
    } finally {
      await wide.close();
    }
  });

  it('a listing stopped by its signal says it was stopped and is not retryable', async () => {
    server.models = [{ id: 'm' }];
    const controller = new AbortController();
    controller.abort();
    const err = await modelFailure(client().listModels(controller.signal));
    expect(err.code).toBe('model_unavailable');
    expect(err.retryable).toBe(false);
    expect(err.message).toBe('The model request was stopped.');
  });

  it('a listing that cannot reach the endpoint counts the SDK’s tries', async () => {
    const gone = await MessagesApiServer.start();
    const url = gone.url;
    await gone.close();
    const err = await modelFailure(new AnthropicModelClient({ apiKey: KEY, baseURL: url, maxRetries: 1 }).listModels());
    expect(err.code).toBe('model_unavailable');
    expect(err.message).toBe(`Cannot reach the model API at ${url} after 2 tries. Check the network or the base URL, then retry.`);
  });

  it('a listing refused by the API maps like a message call', async () => {
    const refusing = await MessagesApiServer.start();
    try {
      // The server has no route under /nowhere: a 404 with its own message.
      const err = await modelFailure(new AnthropicModelClient({ apiKey: KEY, baseURL: `${refusing.url}/nowhere`, maxRetries: 0 }).listModels());
      expect(err.code).toBe('model_not_found');
      expect(err.message).toMatch(/^The model API has no such model or route \(404: .+\)\. Check the model id and the base URL\.$/);
    } finally {
      await refusing.close();
    }
  });
});
