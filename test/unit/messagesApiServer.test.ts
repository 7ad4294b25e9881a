import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { textAnswer, toolAnswer } from '../support/messagesApiEvents';
import { MessagesApiServer } from '../support/messagesApiServer';

let server: MessagesApiServer;
beforeEach(async () => {
  server = await MessagesApiServer.start({ chunkSize: 4 });
});
afterEach(async () => {
  await server.close();
});

const post = (body: unknown): Promise<Response> =>
  fetch(`${server.url}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-test': 'yes' }, body: JSON.stringify(body) });

describe('MessagesApiServer (the local Messages API the model tests run against)', () => {
  it('answers a non-streaming request with a Message body and records the request', async () => {
    server.enqueue(textAnswer('plain answer', { input_tokens: 11, output_tokens: 3 }));
    const res = await post({ model: 'm-1', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      id: 'msg_0001',
      type: 'message',
      role: 'assistant',
      model: 'm-1',
      content: [{ type: 'text', text: 'plain answer' }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 11, output_tokens: 3, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    });
    expect(server.messageRequests[0]?.headers['x-test']).toBe('yes');
    expect(server.messageRequests[0]?.body).toMatchObject({ model: 'm-1', max_tokens: 10 });
  });

  it('streams the documented event sequence, tool input in several input_json_delta chunks', async () => {
    server.enqueue(toolAnswer('list_files', { dir: 'src/engine' }));
    const text = await (await post({ model: 'm', max_tokens: 10, stream: true, messages: [] })).text();
    const names = [...text.matchAll(/^event: (\w+)$/gm)].map((m) => m[1]);
    const jsonChunks = text.split('"type":"input_json_delta"').length - 1;
    expect(names[0]).toBe('message_start');
    expect(names.slice(1, 3)).toEqual(['content_block_start', 'ping']);
    expect(names.slice(-3)).toEqual(['content_block_stop', 'message_delta', 'message_stop']);
    expect(jsonChunks).toBeGreaterThan(3);
    const joined = [...text.matchAll(/"partial_json":"((?:[^"\\]|\\.)*)"/g)].map((m) => JSON.parse(`"${m[1]}"`) as string).join('');
    expect(JSON.parse(joined)).toEqual({ dir: 'src/engine' });
    expect(text).toContain('"stop_reason":"tool_use"');
  });

  it('answers in the API error shape when nothing is scripted, and 404s unknown routes', async () => {
    const res = await post({ model: 'm', max_tokens: 1, messages: [] });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ type: 'error', error: { type: 'invalid_request_error', message: expect.stringContaining('no scripted answer') } });
    const missing = await fetch(`${server.url}/v1/nothing`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ type: 'error', error: { type: 'not_found_error' } });
  });
});
