import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AnthropicModelClient } from '../../src/adapters/anthropicModelClient';
import { contextWindowFor, DEFAULT_CONTEXT_WINDOW, DEFAULT_MAX_OUTPUT, maxOutputFor } from '../../src/engine/modelWindows';
import { ModelProfileResolver } from '../../src/task/modelProfiles';
import { MessagesApiServer } from '../support/messagesApiServer';

let server: MessagesApiServer;
beforeEach(async () => {
  server = await MessagesApiServer.start({
    models: [
      { id: 'claude-sonnet-5-5', max_input_tokens: 900_000, max_tokens: 100_000 },
      { id: 'claude-opus-4-7', max_input_tokens: null, max_tokens: null },
    ],
  });
});
afterEach(async () => {
  await server.close();
});

const modelsRequests = (): number => server.requests.filter((r) => r.path === '/v1/models').length;

describe('ModelProfileResolver', () => {
  it('prefers the Models API figures and asks it once per base URL', async () => {
    const client = new AnthropicModelClient({ apiKey: 'test-key-123456', baseURL: server.url });
    const resolver = new ModelProfileResolver();
    const profile = await resolver.resolve({ model: 'claude-sonnet-5-5', baseURL: server.url, client, condensePercent: 70 });
    expect(profile).toEqual({ id: 'claude-sonnet-5-5', contextWindow: 900_000, maxOutputTokens: 100_000, condensePercent: 70, source: 'models-api' });
    await resolver.resolve({ model: 'claude-opus-4-7', baseURL: server.url, client });
    expect(modelsRequests()).toBe(1);
  });

  it('falls back to the built-in table where the API gives no figure or does not list the model', async () => {
    const client = new AnthropicModelClient({ apiKey: 'test-key-123456', baseURL: server.url });
    const resolver = new ModelProfileResolver();
    const opus = await resolver.resolve({ model: 'claude-opus-4-7', baseURL: server.url, client });
    expect(opus).toMatchObject({ contextWindow: 200_000, maxOutputTokens: 32_000, condensePercent: 80, source: 'table' });
    const unknown = await resolver.resolve({ model: 'gateway-model', baseURL: server.url, client });
    expect(unknown).toMatchObject({ contextWindow: DEFAULT_CONTEXT_WINDOW, maxOutputTokens: DEFAULT_MAX_OUTPUT, source: 'default' });
  });

  it('works offline from the table, and asks again once the endpoint is back', async () => {
    const url = server.url;
    await server.close();
    const offlineClient = new AnthropicModelClient({ apiKey: 'test-key-123456', baseURL: url, maxRetries: 0 });
    const resolver = new ModelProfileResolver();
    const offline = await resolver.resolve({ model: 'claude-sonnet-5-5', baseURL: url, client: offlineClient });
    expect(offline).toMatchObject({ contextWindow: 1_000_000, maxOutputTokens: 128_000, source: 'table' });

    server = await MessagesApiServer.start({ models: [{ id: 'claude-sonnet-5-5', max_input_tokens: 900_000, max_tokens: 100_000 }] });
    const client = new AnthropicModelClient({ apiKey: 'test-key-123456', baseURL: server.url });
    const online = await resolver.resolve({ model: 'claude-sonnet-5-5', baseURL: url, client });
    expect(online.source).toBe('models-api');
    expect(modelsRequests()).toBe(1);
  });
});

describe('modelWindows table', () => {
  it('knows current models and keeps the older figures', () => {
    expect(contextWindowFor('claude-sonnet-5-5')).toBe(1_000_000);
    expect(maxOutputFor('claude-sonnet-5-5')).toBe(128_000);
    expect(maxOutputFor('claude-sonnet-4-5-20250929')).toBe(64_000);
    expect(contextWindowFor('claude-sonnet-4-5-20250929')).toBe(200_000);
    expect(maxOutputFor('claude-opus-4-20250514')).toBe(32_000);
    expect(maxOutputFor(undefined)).toBe(DEFAULT_MAX_OUTPUT);
  });
});
