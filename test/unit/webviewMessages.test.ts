import { describe, expect, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import type { EngineEvent } from '../../src/engine/engineEvents';
import { computeUsage, type Usage } from '../../src/engine/usage';
import type { Logger } from '../../src/engine/ports';
import { engineSettingsSchema } from '../../src/shared/engineSettings';
import {
  engineEventSchema,
  modelSettingsSchema,
  parseHostToWebview,
  parseWebviewToHost,
  usageSchema,
  type HostToWebview,
  type WebviewToHost,
} from '../../src/shared/webviewMessages';
import { WebviewChannel } from '../../src/extension/webviewChannel';
import { makeNonce, webviewHtml } from '../../src/extension/webviewHtml';

function memoryLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return { lines, info: (m) => lines.push(`info ${m}`), warn: (m) => lines.push(`warn ${m}`), error: (m) => lines.push(`error ${m}`) };
}

describe('webview message schemas', () => {
  it("mirror the engine's Usage and EngineEvent types exactly", () => {
    expectTypeOf<z.infer<typeof usageSchema>>().toEqualTypeOf<Usage>();
    expectTypeOf<z.infer<typeof engineEventSchema>>().toEqualTypeOf<EngineEvent>();
  });

  it('accept a real usage from computeUsage and an engine event', () => {
    const usage = computeUsage(120_000, 200_000, 8_192, [
      { layer: 'system', budget: 4_000, used: 3_000 },
      { layer: 'L1', budget: 20_000, used: 18_000 },
    ]);
    expect(parseHostToWebview({ type: 'usage/updated', usage }).ok).toBe(true);
    const event: EngineEvent = { type: 'condense_context', turn: 3, tokensBefore: 150_000, tokensAfter: 20_000, inputTokens: 150_000, outputTokens: 900, cost: 154_500 };
    expect(parseHostToWebview({ type: 'chat/engineEvent', requestId: 'r1', event }).ok).toBe(true);
  });

  it('drop malformed inbound messages with a reason that names the message and the field', () => {
    const noId = parseWebviewToHost({ type: 'chat/send', text: 'hi' });
    expect(noId).toEqual({ ok: false, reason: expect.stringContaining('"chat/send"') });
    expect(noId.ok ? '' : noId.reason).toContain('requestId');
    expect(parseWebviewToHost({ type: 'chat/send', requestId: 'r1', text: '' }).ok).toBe(false);
    expect(parseWebviewToHost({ type: 'shell/exec', cmd: 'rm -rf /' }).ok).toBe(false);
    expect(parseWebviewToHost('webview/ready').ok).toBe(false);
    expect(parseWebviewToHost({ type: 'command/run', command: 'workbench.action.terminal.new' }).ok).toBe(false);
    expect(parseWebviewToHost({ type: 'chat/send', requestId: 'r1', text: 'hi' })).toEqual({ ok: true, message: { type: 'chat/send', requestId: 'r1', text: 'hi' } });
  });
});

describe('WebviewChannel: queue until webview/ready, validate what comes in', () => {
  const settings: HostToWebview = { type: 'settings/changed', engine: engineSettingsSchema.parse({}), model: modelSettingsSchema.parse({}) };

  it('holds outbound messages until the webview is ready, then sends them in order', async () => {
    const posted: HostToWebview[] = [];
    const handled: WebviewToHost[] = [];
    const channel = new WebviewChannel(async (m) => (posted.push(m), true), (m) => handled.push(m), memoryLogger());
    channel.send(settings);
    channel.send({ type: 'apiKey/status', source: 'none' });
    expect(posted).toEqual([]);
    channel.receive({ type: 'webview/ready' });
    await Promise.resolve();
    expect(posted.map((m) => m.type)).toEqual(['settings/changed', 'apiKey/status']);
    expect(handled).toEqual([{ type: 'webview/ready' }]);
    channel.send({ type: 'chat/idle', requestId: 'r1' });
    expect(posted.map((m) => m.type)).toEqual(['settings/changed', 'apiKey/status', 'chat/idle']);
  });

  it('queues again after reset (the view was re-created) until the next ready', () => {
    const posted: HostToWebview[] = [];
    const channel = new WebviewChannel(async (m) => (posted.push(m), true), () => undefined, memoryLogger());
    channel.receive({ type: 'webview/ready' });
    channel.reset();
    channel.send({ type: 'chat/idle', requestId: 'r1' });
    expect(posted).toEqual([]);
    channel.receive({ type: 'webview/ready' });
    expect(posted).toHaveLength(1);
  });

  it('keeps the latest 500 messages while the webview loads, dropping the oldest', () => {
    const posted: HostToWebview[] = [];
    const channel = new WebviewChannel(async (m) => (posted.push(m), true), () => undefined, memoryLogger());
    for (let i = 0; i <= 500; i++) channel.send({ type: 'chat/idle', requestId: `r${i}` });
    channel.receive({ type: 'webview/ready' });
    expect(posted).toHaveLength(500);
    expect(posted[0]).toEqual({ type: 'chat/idle', requestId: 'r1' });
    expect(posted.at(-1)).toEqual({ type: 'chat/idle', requestId: 'r500' });
  });

  it('a message other than webview/ready leaves the queue waiting, and is handled', () => {
    const posted: HostToWebview[] = [];
    const handled: WebviewToHost[] = [];
    const channel = new WebviewChannel(async (m) => (posted.push(m), true), (m) => handled.push(m), memoryLogger());
    channel.send({ type: 'chat/idle', requestId: 'r1' });
    channel.receive({ type: 'chat/stop', requestId: 'r1' });
    expect(posted).toEqual([]);
    expect(handled).toEqual([{ type: 'chat/stop', requestId: 'r1' }]);
  });

  it('logs a message the closed view did not take and a post that failed; a delivered one logs nothing', async () => {
    const logger = memoryLogger();
    const answers: Array<() => Promise<boolean>> = [async () => true, async () => false, async () => Promise.reject(new Error('disposed'))];
    const channel = new WebviewChannel(() => answers.shift()!(), () => undefined, logger);
    channel.receive({ type: 'webview/ready' });
    channel.send({ type: 'chat/idle', requestId: 'r1' });
    channel.send({ type: 'apiKey/status', source: 'none' });
    channel.send({ type: 'settings/show' });
    await new Promise((r) => setTimeout(r, 0));
    expect(logger.lines).toEqual(['warn webview: apiKey/status was not delivered (the view is closed)', 'warn webview: posting settings/show failed: Error: disposed']);
  });

  it('drops an invalid inbound message with a logged reason and does not handle it', () => {
    const logger = memoryLogger();
    const handled: WebviewToHost[] = [];
    const channel = new WebviewChannel(async () => true, (m) => handled.push(m), logger);
    channel.receive({ type: 'chat/send', requestId: 7, text: 'hi' });
    expect(handled).toEqual([]);
    expect(logger.lines).toEqual([expect.stringMatching(/^warn webview: dropped message "chat\/send": requestId/)]);
  });

  it('refuses to send an invalid outbound message', () => {
    const channel = new WebviewChannel(async () => true, () => undefined, memoryLogger());
    expect(() => channel.send({ type: 'apiKey/status', source: 'sk-secret' } as unknown as HostToWebview)).toThrow(/invalid apiKey\/status/);
  });
});

describe('webviewHtml', () => {
  const assets = { script: 'https://x/main.js', style: 'https://x/main.css', codicons: 'https://x/codicons/codicon.css', cspSource: 'https://x' };

  it('allows only the nonce-tagged script and local styles and fonts', () => {
    const nonce = makeNonce(() => 5);
    expect(nonce).toBe('F'.repeat(32));
    const html = webviewHtml(assets, nonce);
    const csp = /Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1] ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain(`script-src 'nonce-${nonce}'`);
    expect(csp).not.toContain('unsafe');
    expect(csp).toBe(`default-src 'none'; script-src 'nonce-${nonce}'; style-src https://x; font-src https://x; img-src https://x data:`);
    expect(html).toContain(`<script nonce="${nonce}" src="https://x/main.js"></script>`);
    expect(html.match(/<script/g)).toHaveLength(1);
  });
});

describe('settings, mention and diff messages', () => {
  it('accept well-formed requests and replies', () => {
    const inbound: unknown[] = [
      { type: 'settings/get', requestId: 'g1' },
      { type: 'settings/update', requestId: 'u1', key: 'strata.autoCondensePercent', scope: 'workspace', value: 70 },
      { type: 'settings/update', requestId: 'u2', key: 'strata.autoApprove.writes', scope: 'user', value: null },
      { type: 'mentions/query', requestId: 'm1', query: 'hel' },
      { type: 'approval/showDiff', requestId: 'r1:approval1' },
      { type: 'command/run', command: 'strata.openSettingsEditor' },
    ];
    for (const m of inbound) expect(parseWebviewToHost(m)).toMatchObject({ ok: true, message: m });
    const outbound: unknown[] = [
      { type: 'settings/show' },
      { type: 'settings/updated', requestId: 'u1', key: 'strata.autoCondensePercent', ok: false, message: 'out of range' },
      { type: 'mentions/results', requestId: 'm1', items: [{ kind: 'file', label: 'hello.ts', detail: 'file', insert: '@/hello.ts' }] },
      {
        type: 'settings/snapshot',
        hasWorkspace: false,
        groups: [{ id: 'g', title: 'Strata: X', fields: [{ key: 'strata.maxHeaders', kind: 'integer', description: 'lines', default: 200, minimum: 10, maximum: 2000, user: 300 }] }],
      },
    ];
    for (const m of outbound) expect(parseHostToWebview(m)).toMatchObject({ ok: true, message: m });
  });

  it('drop malformed ones with the field named', () => {
    const bad: Array<[unknown, RegExp]> = [
      [{ type: 'settings/update', requestId: 'u', key: 'strata.x', scope: 'folder', value: 1 }, /scope/],
      [{ type: 'settings/update', requestId: 'u', key: 'strata.x', scope: 'user', value: { nested: true } }, /value/],
      [{ type: 'settings/update', requestId: 'u', key: 'strata.x', scope: 'user' }, /value/],
      [{ type: 'mentions/query', requestId: '', query: 'x' }, /requestId/],
      [{ type: 'mentions/query', requestId: 'm', query: 'x'.repeat(501) }, /query/],
      [{ type: 'approval/showDiff' }, /requestId/],
      [{ type: 'command/run', command: 'workbench.action.openSettings' }, /command/],
    ];
    for (const [m, field] of bad) {
      const parsed = parseWebviewToHost(m);
      expect(parsed.ok).toBe(false);
      if (!parsed.ok) expect(parsed.reason).toMatch(field);
    }
    const badOut: unknown[] = [
      { type: 'mentions/results', requestId: 'm', items: [{ kind: 'symbol', label: 'x', detail: '', insert: '@x' }] },
      { type: 'settings/snapshot', hasWorkspace: true, groups: [{ id: 'g', title: 't', fields: [{ key: 'editor.fontSize', kind: 'integer', description: '', default: 1, minimum: 0, maximum: 2 }] }] },
    ];
    for (const m of badOut) expect(parseHostToWebview(m).ok).toBe(false);
  });
});
