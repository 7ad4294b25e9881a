import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AnthropicModelClient } from '../../src/adapters/anthropicModelClient';
import { makeTempDir } from '../../src/adapters/tempFiles';
import type { SummarizeRequest, Summarizer } from '../../src/engine/ports';
import { ChatController, type ChatHost, type OpenedSession } from '../../src/extension/chatController';
import { RecordingModelClient } from '../../src/extension/recordingModelClient';
import { openTaskSession } from '../../src/host/openTaskSession';
import type { HostToWebview, UsageView } from '../../src/shared/webviewMessages';
import { drive, makeEngine, syntheticSession } from '../support/engineHarness';
import { MessagesApiServer } from '../support/messagesApiServer';
import { textAnswer } from '../support/messagesApiEvents';

/** Condense Now estimates its saving first: below condenseMinSavingTokens it says so and pays for no call. */

function counting(answer: string): { summarizer: Summarizer; asked: SummarizeRequest[] } {
  const asked: SummarizeRequest[] = [];
  return { asked, summarizer: { summarize: async (request) => (asked.push(request), { text: answer, inputTokens: 10, outputTokens: 5 }) } };
}

describe('ContextEngine.condenseNow and the minimum saving', () => {
  it('makes no summarizer call when the estimated saving is below the setting, and says how much it would have saved', async () => {
    const { summarizer, asked } = counting('Short summary.');
    const { engine } = makeEngine({ condenseMinSavingTokens: 1_000_000 }, { summarizer });
    await drive(engine, syntheticSession(4, 5).slice(0, -1));
    const events = await engine.condenseNow();
    expect(asked).toHaveLength(0);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'warning', message: expect.stringMatching(/^Condense would save about [\d,]+ tokens \(the prompt is [\d,]+\); not worth a call, so none was made\. The minimum saving is 1,000,000 tokens/) });
  });

  it('estimates no more than a condense then saves: the summary is counted at its cap', async () => {
    const min = 1;
    const probe = makeEngine({ condenseMinSavingTokens: 1_000_000 }, { summarizer: counting('x').summarizer });
    await drive(probe.engine, syntheticSession(6, 40).slice(0, -1));
    const warned = (await probe.engine.condenseNow())[0];
    const estimate = Number(/save about ([\d,]+) tokens/.exec(warned?.type === 'warning' ? warned.message : '')?.[1]?.replace(/,/g, ''));
    expect(estimate).toBeGreaterThan(min);

    const { summarizer, asked } = counting('A summary of the earlier exchanges, a few words long.');
    const { engine } = makeEngine({ condenseMinSavingTokens: min }, { summarizer });
    await drive(engine, syntheticSession(6, 40).slice(0, -1));
    const [event] = await engine.condenseNow();
    expect(asked).toHaveLength(1);
    expect(event?.type).toBe('condense_context');
    if (event?.type === 'condense_context') expect(event.tokensBefore - event.tokensAfter).toBeGreaterThanOrEqual(estimate);
  });
});

describe('Condense Now in the chat (real SDK, local Messages API server)', () => {
  const MODEL = 'claude-sonnet-4-5';
  let server: MessagesApiServer;
  let temp: { dir: string; remove: () => void };
  let sent: HostToWebview[];
  let usages: UsageView[];
  let controller: ChatController;
  const quiet = { info: () => {}, warn: () => {}, error: () => {} };

  beforeEach(async () => {
    server = await MessagesApiServer.start({ models: [{ id: MODEL, max_input_tokens: 200_000, max_tokens: 64_000 }] });
    temp = makeTempDir('strata-condense-');
    mkdirSync(join(temp.dir, 'ws'), { recursive: true });
    sent = [];
    usages = [];
    const host: ChatHost = {
      send: (m) => sent.push(m),
      apiKeySource: async () => 'secretStorage',
      runCommand: () => {},
      newSessionId: () => 's-condense-1',
      openSession: async (sessionId, approve): Promise<OpenedSession> => {
        const client = new RecordingModelClient(new AnthropicModelClient({ apiKey: 'sk-ant-test-key-0000', baseURL: server.url, maxRetries: 0 }));
        const session = await openTaskSession({ workspaceRoot: join(temp.dir, 'ws'), archivePath: join(temp.dir, 'archive.sqlite'), sessionId, apiKey: 'sk-ant-test-key-0000', baseURL: server.url, model: MODEL, frontEnd: 'test', approve, logger: quiet, modelClient: client });
        return { session, lastRequest: () => client.lastRequest };
      },
      autoApprove: () => ({ writes: false, commands: false }),
      showUsage: (u) => usages.push(u),
      confirmStop: async () => true,
      logger: quiet,
    };
    controller = new ChatController(host);
  });

  afterEach(async () => {
    await controller.dispose();
    await server.close();
    temp.remove();
  });

  it('on a short session says it is not worth it and sends no request; progress shows while it runs and the meter is updated after', async () => {
    server.enqueue(textAnswer('One.'), textAnswer('Two.'), textAnswer('Three.'));
    for (const id of ['r1', 'r2', 'r3']) {
      controller.handle({ type: 'chat/send', requestId: id, text: `short message ${id}` });
      const deadline = Date.now() + 20_000;
      while (!sent.some((m) => m.type === 'chat/idle' && m.requestId === id)) {
        if (Date.now() > deadline) throw new Error(`no idle for ${id}`);
        await new Promise((r) => setTimeout(r, 10));
      }
    }
    const requests = server.messageRequests.length;
    const from = sent.length;
    const outcome = await controller.condenseNow(new AbortController().signal);
    expect(server.messageRequests.length).toBe(requests); // no model call
    expect(outcome).toMatchObject({ kind: 'done', events: [{ type: 'warning', message: expect.stringMatching(/^Condense would save about \d+ tokens .*not worth a call/) }] });
    const after = sent.slice(from).map((m) => m.type);
    expect(after).toEqual(['condense/running', 'chat/engineEvent', 'usage/updated', 'condense/running']);
    expect(sent.slice(from)[0]).toEqual({ type: 'condense/running', running: true });
    expect(sent.at(-1)).toEqual({ type: 'condense/running', running: false });
    const meter = sent.slice(from).find((m) => m.type === 'usage/updated');
    expect(meter?.type === 'usage/updated' && meter.usage.used).toBeGreaterThan(0);
    expect(usages.at(-1)).toEqual(meter?.type === 'usage/updated' ? meter.usage : undefined);
  });
});
