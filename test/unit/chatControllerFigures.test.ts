import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AnthropicModelClient } from '../../src/adapters/anthropicModelClient';
import { makeTempDir } from '../../src/adapters/tempFiles';
import { ChatController, type ChatHost } from '../../src/extension/chatController';
import { clampSettings } from '../../src/extension/clampSettings';
import { openTaskSession } from '../../src/host/openTaskSession';
import type { ContextFigures, HostToWebview } from '../../src/shared/webviewMessages';
import { SessionMemory } from '../../src/extension/sessionMemory';
import { contextWindowFor } from '../../src/engine/modelWindows';
import { MapMemento } from '../support/mapMemento';
import { MessagesApiServer } from '../support/messagesApiServer';
import { textAnswer } from '../support/messagesApiEvents';

/**
 * The context panel's figures as the controller sends them: from the settings before a session
 * opens, then from the open session's engine (the model's window and reserve), the same figures
 * the meter's usage is computed from; sent again when the webview reloads.
 */
const MODEL = 'claude-sonnet-4-5';
const WINDOW = 200_000;
/** The model's output limit the server lists; the session caps its reserve below it. */
const MAX_OUTPUT = 64_000;
/** A model the built-in table does not know: only the server's model list gives its window. */
const NEW_MODEL = 'claude-newer-9';
const NEW_MODEL_WINDOW = 300_000;
const quiet = { info: () => {}, warn: () => {}, error: () => {} };

let server: MessagesApiServer;
let temp: { dir: string; remove: () => void };
let sent: HostToWebview[];
let controller: ChatController;

function host(memory?: SessionMemory, model = MODEL): ChatHost {
  return {
    ...(memory ? { memory } : {}),
    send: (m) => sent.push(m),
    apiKeySource: async () => 'secretStorage',
    runCommand: () => {},
    newSessionId: () => 's-figures-1',
    openSession: async (sessionId, approve) => {
      const client = new AnthropicModelClient({ apiKey: 'sk-ant-test-key-0000', baseURL: server.url, maxRetries: 0 });
      const session = await openTaskSession({ workspaceRoot: join(temp.dir, 'ws'), archivePath: join(temp.dir, 'archive.sqlite'), sessionId, apiKey: 'sk-ant-test-key-0000', baseURL: server.url, model, frontEnd: 'test', approve, logger: quiet, modelClient: client });
      return { session, lastRequest: () => undefined };
    },
    autoApprove: () => ({ writes: false, commands: false }),
    showUsage: () => {},
    confirmStop: async () => true,
    logger: quiet,
  };
}

const figuresSent = (): ContextFigures[] => sent.flatMap((m) => (m.type === 'context/figures' ? [m.figures] : []));

async function until(what: string, condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

beforeEach(async () => {
  server = await MessagesApiServer.start({ models: [{ id: MODEL, max_input_tokens: WINDOW, max_tokens: MAX_OUTPUT }, { id: NEW_MODEL, max_input_tokens: NEW_MODEL_WINDOW, max_tokens: MAX_OUTPUT }] });
  temp = makeTempDir('strata-figures-');
  mkdirSync(join(temp.dir, 'ws'), { recursive: true });
  sent = [];
  controller = new ChatController(host());
});

afterEach(async () => {
  await controller.dispose();
  await server.close();
  temp.remove();
});

describe('ChatController: the context figures', () => {
  it('sends the settings figures before a session, then the session figures the meter agrees with, and again on reload', async () => {
    // The same model the session below opens, so both figures come from one model's window and answer room.
    const settings = clampSettings((name) => (name === 'strata.model' ? MODEL : undefined));
    controller.pushSettings(settings, {});
    const before = figuresSent();
    expect(before).toHaveLength(1);
    expect(before[0]!.source).toBe('settings');

    server.enqueue(textAnswer('Hello.'));
    controller.handle({ type: 'chat/send', requestId: 'r1', text: 'Hi' });
    await until('idle', () => sent.some((m) => m.type === 'chat/idle'));
    const session = figuresSent().at(-1)!;
    expect(session.source).toBe('session');
    const done = sent.find((m): m is Extract<HostToWebview, { type: 'chat/turnDone' }> => m.type === 'chat/turnDone')!;
    // One reserve: the panel's is the one the meter's percentage is of.
    expect(session.window).toBe(done.usage.window);
    expect(session.reservedOutput).toBe(done.usage.reservedOutput);
    expect(session.usable).toBe(done.usage.window - done.usage.reservedOutput);
    expect(session.window).toBe(WINDOW);
    expect(session.reservedOutput).toBeLessThan(MAX_OUTPUT);
    // What the panel showed before the session opened is what the session runs with (the reserve was 8,192, the schema default, against the session's 16,000).
    const { source: _shown, ...shown } = before[0]!;
    const { source: _opened, ...opened } = session;
    expect(shown).toEqual(opened);

    // Settings pushed while the session is open do not replace its figures (they apply when it reopens).
    controller.pushSettings(settings, {});
    expect(figuresSent().at(-1)).toEqual(session);
    const sentSoFar = figuresSent().length;
    controller.handle({ type: 'webview/ready' });
    expect(figuresSent().slice(sentSoFar)).toEqual([session]);
  });

  it("after a reload, shows the window the server gave the model when its session last opened, not the built-in table's", async () => {
    expect(contextWindowFor(NEW_MODEL)).not.toBe(NEW_MODEL_WINDOW);
    const memory = new SessionMemory(new MapMemento(), new MapMemento(), quiet);
    const settings = clampSettings((name) => (name === 'strata.model' ? NEW_MODEL : name === 'strata.baseUrl' ? server.url : undefined));
    const first = new ChatController(host(memory, NEW_MODEL));
    first.pushSettings(settings, {});
    expect(figuresSent().at(-1)!.window).toBe(contextWindowFor(NEW_MODEL));
    server.enqueue(textAnswer('Hello.'));
    first.handle({ type: 'chat/send', requestId: 'r1', text: 'Hi' });
    await until('idle', () => sent.some((m) => m.type === 'chat/idle'));
    const session = figuresSent().at(-1)!;
    expect(session).toMatchObject({ source: 'session', window: NEW_MODEL_WINDOW });
    await first.dispose();

    // The window reloads: a new controller over the same memory, no session open yet.
    const reloaded = new ChatController(host(memory, NEW_MODEL));
    reloaded.pushSettings(settings, {});
    const { source, ...shown } = figuresSent().at(-1)!;
    const { source: _session, ...opened } = session;
    expect(source).toBe('settings');
    expect(shown).toEqual(opened);
    // Another server's model of that name is not assumed to have that window.
    const elsewhere = clampSettings((name) => (name === 'strata.model' ? NEW_MODEL : name === 'strata.baseUrl' ? 'http://127.0.0.1:9' : undefined));
    reloaded.pushSettings(elsewhere, {});
    expect(figuresSent().at(-1)!.window).toBe(contextWindowFor(NEW_MODEL));
    await reloaded.dispose();
  });
});
