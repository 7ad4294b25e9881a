import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AnthropicModelClient } from '../../src/adapters/anthropicModelClient';
import { contextWindowFor, DEFAULT_CONTEXT_WINDOW, DEFAULT_MAX_OUTPUT, isKnownModel, longestPrefixMatch, maxOutputFor } from '../../src/engine/modelWindows';
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

/**
 * The published limits of each model family the table lists (window, max output; tokens), by a
 * model id as the API names it. The 4.6 and later figures are the model pages' (see the table's
 * comment); each id resolves through its own row, so a row lost from the table shows here.
 */
const PUBLISHED: ReadonlyArray<readonly [model: string, window: number, maxOutput: number]> = [
  ['claude-fable-5', 1_000_000, 128_000],
  ['claude-mythos-5', 1_000_000, 128_000],
  ['claude-opus-5', 1_000_000, 128_000],
  ['claude-sonnet-5', 1_000_000, 128_000],
  ['claude-haiku-5', 1_000_000, 128_000],
  ['claude-opus-4-6', 1_000_000, 128_000],
  ['claude-sonnet-4-6', 1_000_000, 64_000],
  ['claude-opus-4-5-20251101', 200_000, 64_000],
  ['claude-opus-4-1-20250805', 200_000, 32_000],
  ['claude-sonnet-4-5-20250929', 200_000, 64_000],
  ['claude-haiku-4-5-20251001', 200_000, 64_000],
  ['claude-3-7-sonnet-20250219', 200_000, 64_000],
  ['claude-3-5-sonnet-20241022', 200_000, 8_192],
  ['claude-3-5-haiku-20241022', 200_000, 8_192],
  ['claude-3-opus-20240229', 200_000, 4_096],
  ['claude-3-haiku-20240307', 200_000, 4_096],
  ['gpt-4o-2024-08-06', 128_000, 16_384],
  ['gpt-4.1-mini', 1_000_000, 32_768],
  ['deepseek-chat', 64_000, 8_192],
];

describe('modelWindows: each listed model resolves to its published window and output limit', () => {
  it.each(PUBLISHED)('%s: window %d, max output %d, known', (model, window, maxOutput) => {
    expect({ window: contextWindowFor(model), maxOutput: maxOutputFor(model), known: isKnownModel(model) }).toEqual({ window, maxOutput, known: true });
  });

  it('matches a model id in any case, and gives an unknown model the defaults', () => {
    expect([contextWindowFor('Claude-Opus-4-5'), maxOutputFor('CLAUDE-OPUS-4-5')]).toEqual([200_000, 64_000]);
    expect([contextWindowFor('llama-3'), maxOutputFor('llama-3'), isKnownModel('llama-3')]).toEqual([DEFAULT_CONTEXT_WINDOW, DEFAULT_MAX_OUTPUT, false]);
    // a family name without the version is not a prefix of any entry
    expect(isKnownModel('claude')).toBe(false);
  });
});

describe('longestPrefixMatch', () => {
  it('takes the longest matching key wherever it sits in the table', () => {
    const shortFirst = [['claude-opus-4', 'opus 4'], ['claude-opus-4-5', 'opus 4.5'], ['claude', 'any claude']] as const;
    const longFirst = [...shortFirst].reverse();
    for (const table of [shortFirst, longFirst]) {
      expect(longestPrefixMatch(table, 'claude-opus-4-5-20251101')?.[1]).toBe('opus 4.5');
      expect(longestPrefixMatch(table, 'claude-opus-4-1')?.[1]).toBe('opus 4');
      expect(longestPrefixMatch(table, 'claude-3-opus')?.[1]).toBe('any claude');
      expect(longestPrefixMatch(table, 'gpt-4o')).toBeUndefined();
    }
  });

  it('keeps the earlier of two equal keys', () => {
    const table = [['gpt-4o', 'first'], ['gpt', 'short'], ['gpt-4o', 'second']] as const;
    expect(longestPrefixMatch(table, 'gpt-4o-mini')?.[1]).toBe('first');
  });
});
