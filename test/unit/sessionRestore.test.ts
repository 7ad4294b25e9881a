import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AnthropicModelClient } from '../../src/adapters/anthropicModelClient';
import { openSqliteArchive } from '../../src/adapters/sqliteArchiveStore';
import { makeTempDir } from '../../src/adapters/tempFiles';
import { openTaskSession } from '../../src/host/openTaskSession';
import { ChatController, type ChatHost, type OpenedSession } from '../../src/extension/chatController';
import { archivedSessionView, restoreLastSession } from '../../src/extension/openArchivedSession';
import { RecordingModelClient } from '../../src/extension/recordingModelClient';
import { SessionMemory } from '../../src/extension/sessionMemory';
import { MapMemento } from '../support/mapMemento';
import type { HostToWebview, UsageView } from '../../src/shared/webviewMessages';
import { faults, MessagesApiServer } from '../support/messagesApiServer';
import { textAnswer } from '../support/messagesApiEvents';

/**
 * Continuity across a window reload: one ChatController stands for the window before the reload,
 * a second one (same workspaceState and globalState, a new activation) for the window after it.
 * Real Task loop, real SQLite archive, the real SDK against the local Messages API server.
 */
const MODEL = 'claude-sonnet-4-5';
const quiet = { info: () => {}, warn: () => {}, error: () => {} };

let server: MessagesApiServer;
let temp: { dir: string; remove: () => void };
let workspaceState: MapMemento;
let globalState: MapMemento;
let windows: Array<{ controller: ChatController; sent: HostToWebview[]; openedIds: string[]; usageShown: UsageView[] }>;


/** A window: a controller with its own session ids, sharing the mementos and the archive file. */
function openWindow(name: string) {
  const sent: HostToWebview[] = [];
  const openedIds: string[] = [];
  const usageShown: UsageView[] = [];
  let n = 0;
  const host: ChatHost = {
    send: (m) => sent.push(m),
    apiKeySource: async () => 'secretStorage',
    runCommand: () => {},
    newSessionId: () => `s-${name}-${++n}`,
    openSession: async (sessionId, approve): Promise<OpenedSession> => {
      openedIds.push(sessionId);
      const client = new RecordingModelClient(new AnthropicModelClient({ apiKey: 'sk-ant-test-key-0000', baseURL: server.url, maxRetries: 0 }));
      const session = await openTaskSession({ workspaceRoot: join(temp.dir, 'ws'), archivePath: join(temp.dir, 'archive.sqlite'), sessionId, apiKey: 'sk-ant-test-key-0000', baseURL: server.url, model: MODEL, frontEnd: 'test', approve, logger: quiet, modelClient: client });
      return { session, lastRequest: () => client.lastRequest };
    },
    autoApprove: () => ({ writes: false, commands: false }),
    showUsage: (usage) => usageShown.push(usage),
    confirmStop: async () => true,
    memory: new SessionMemory(workspaceState, globalState, quiet),
    logger: quiet,
  };
  const window = { controller: new ChatController(host), sent, openedIds, usageShown };
  windows.push(window);
  return window;
}

/** What activation does once the archive is open. */
function restore(controller: ChatController): void {
  const browser = openSqliteArchive(join(temp.dir, 'archive.sqlite'));
  try {
    restoreLastSession(controller, browser, quiet);
  } finally {
    browser.close();
  }
}

async function until(what: string, condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

function started(sent: HostToWebview[]) {
  return sent.filter((m): m is Extract<HostToWebview, { type: 'session/started' }> => m.type === 'session/started');
}
const idle = (sent: HostToWebview[], requestId: string) => () => sent.some((m) => m.type === 'chat/idle' && m.requestId === requestId);

beforeEach(async () => {
  server = await MessagesApiServer.start({ models: [{ id: MODEL, max_input_tokens: 200_000, max_tokens: 64_000 }] });
  temp = makeTempDir('strata-restore-');
  mkdirSync(join(temp.dir, 'ws'), { recursive: true });
  writeFileSync(join(temp.dir, 'ws', 'hello.ts'), 'export const hello = "world";\n');
  workspaceState = new MapMemento();
  globalState = new MapMemento();
  windows = [];
});

afterEach(async () => {
  for (const w of windows) await w.controller.dispose();
  await server.close();
  temp.remove();
});

describe('the chat after a window reload', () => {
  it('comes back to the session it was in: its history, title and cost, and the next message continues it (engine resumed)', async () => {
    server.enqueue(textAnswer('hello.ts exports hello.', { input_tokens: 2_000, output_tokens: 40 }), textAnswer('It is a string.'));
    const before = openWindow('a');
    before.controller.handle({ type: 'chat/send', requestId: 'r1', text: 'What does hello.ts export?' });
    await until('idle r1', idle(before.sent, 'r1'));
    const sessionId = before.controller.currentSessionId;
    const spent = before.sent.find((m) => m.type === 'chat/turnDone');
    expect(spent?.type === 'chat/turnDone' && spent.cost).toBeGreaterThan(0);
    await before.controller.dispose();

    const after = openWindow('b');
    after.controller.handle({ type: 'webview/ready' });
    expect(started(after.sent).at(-1)?.sessionId).not.toBe(sessionId); // a fresh id until the archive is open
    restore(after.controller);
    expect(after.controller.currentSessionId).toBe(sessionId);
    const back = started(after.sent).at(-1)!;
    expect(back).toMatchObject({
      sessionId,
      title: 'What does hello.ts export?',
      history: [
        { role: 'user', text: 'What does hello.ts export?', seq: 1 },
        { role: 'assistant', text: 'hello.ts exports hello.', seq: 1 },
      ],
    });
    expect(back.interrupted).toBeUndefined();
    expect(back.cost).toBeCloseTo(spent?.type === 'chat/turnDone' ? spent.cost : -1, 10);
    // the meter shows what it showed last before the reload (the answered turn's figures), not "No prompt sent yet"
    const lastShown = before.sent.flatMap((m) => (m.type === 'chat/requestSent' || m.type === 'chat/turnDone' || m.type === 'usage/updated' ? [m.usage] : [])).at(-1);
    expect(before.sent.at(-2)?.type).toBe('chat/turnDone');
    expect(lastShown?.used).toBeGreaterThan(0);
    expect(back.usage).toEqual(lastShown);
    expect(after.usageShown.at(-1)).toEqual(back.usage);

    after.controller.handle({ type: 'chat/send', requestId: 'r2', text: 'What type is it?' });
    await until('idle r2', idle(after.sent, 'r2'));
    expect(after.openedIds).toEqual([sessionId]);
    // The resumed engine takes e1 back into working memory, and the new exchange is e2.
    expect(JSON.stringify(server.messageRequests[1]!.body)).toContain('What does hello.ts export?');
    expect(after.sent.find((m) => m.type === 'chat/userMessage')).toMatchObject({ seq: 2 });
  });

  it('shows a turn that was running when the window went away as interrupted, once', async () => {
    server.enqueue(textAnswer('First answer.'), faults.stall(textAnswer('A slow answer'), 60_000, 3));
    const before = openWindow('a');
    before.controller.handle({ type: 'chat/send', requestId: 'r1', text: 'First question' });
    await until('idle r1', idle(before.sent, 'r1'));
    before.controller.handle({ type: 'chat/send', requestId: 'r2', text: 'Refactor the whole project slowly' });
    await until('the stalled request', () => server.messageRequests.length === 2);
    await before.controller.dispose(); // the window closes while the turn streams

    const after = openWindow('b');
    restore(after.controller);
    const back = started(after.sent).at(-1)!;
    expect(back.sessionId).toBe(before.controller.currentSessionId);
    expect(back.interrupted).toBe('Refactor the whole project slowly');
    expect(back.history?.[0]).toMatchObject({ role: 'user', text: 'First question' });

    // A third window (another reload) no longer calls it interrupted: the marker was taken.
    const again = openWindow('c');
    restore(again.controller);
    expect(started(again.sent).at(-1)).toMatchObject({ sessionId: back.sessionId });
    expect(started(again.sent).at(-1)?.interrupted).toBeUndefined();
  });

  it('starts empty after New Session, and when the last session is no longer in the archive', async () => {
    server.enqueue(textAnswer('An answer.'));
    const before = openWindow('a');
    before.controller.handle({ type: 'chat/send', requestId: 'r1', text: 'A question' });
    await until('idle r1', idle(before.sent, 'r1'));
    const first = before.controller.currentSessionId;
    await before.controller.newSession();
    const after = openWindow('b');
    restore(after.controller);
    expect(after.controller.currentSessionId).not.toBe(first);
    expect(started(after.sent)).toEqual([]);

    workspaceState.values.set('strata.lastSession', { sessionId: 's-deleted-long-ago' });
    const third = openWindow('c');
    restore(third.controller);
    expect(third.controller.currentSessionId).toBe('s-c-1');
  });

  it('Open Session carries the session cost on instead of restarting at zero', async () => {
    server.enqueue(textAnswer('An answer.', { input_tokens: 3_000, output_tokens: 50 }));
    const w = openWindow('a');
    w.controller.handle({ type: 'chat/send', requestId: 'r1', text: 'A question' });
    await until('idle r1', idle(w.sent, 'r1'));
    const first = w.controller.currentSessionId;
    const done = w.sent.find((m) => m.type === 'chat/turnDone');
    await w.controller.newSession();
    expect(started(w.sent).at(-1)?.cost).toBe(0);
    const browser = openSqliteArchive(join(temp.dir, 'archive.sqlite'));
    const view = archivedSessionView(browser, first)!;
    browser.close();
    await w.controller.resumeSession(first, view.history, view.title);
    expect(started(w.sent).at(-1)?.cost).toBeCloseTo(done?.type === 'chat/turnDone' ? done.cost : -1, 10);
  });
});
