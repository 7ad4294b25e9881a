import { describe, expect, it } from 'vitest';
import type { Logger } from '../../src/engine/ports';
import { webviewRouter, type WebviewRoutes } from '../../src/extension/webviewRouter';
import type { MentionItem } from '../../src/shared/mentionItems';
import type { HostToWebview, WebviewToHost } from '../../src/shared/webviewMessages';

function setup(mentions: (query: string) => Promise<MentionItem[]>) {
  const log: string[] = [];
  const sent: HostToWebview[] = [];
  const logger: Logger = { info: (m) => log.push(`info ${m}`), warn: (m) => log.push(`warn ${m}`), error: (m) => log.push(`error ${m}`) };
  const routes: WebviewRoutes = {
    chat: {
      handle: (m: WebviewToHost) => void log.push(`chat ${m.type}`),
      pendingApproval: (id: string) => (id === 'open' ? { tool: 'edit_file', input: { path: 'a' } } : undefined),
    },
    settings: { handle: async (m) => void log.push(`settings ${m.type}`) },
    searchMentions: mentions,
    showDiff: async (tool) => void log.push(`diff ${tool}`),
    send: (m) => sent.push(m),
    logger,
  };
  return { route: webviewRouter(routes), log, sent };
}

describe('webviewRouter', () => {
  it('sends settings, mentions and diffs to their handlers and the rest to the chat', async () => {
    const item: MentionItem = { kind: 'file', label: 'hello.ts', detail: 'file', insert: '@/hello.ts' };
    const { route, log, sent } = setup(async (q) => (q === 'hel' ? [item] : []));
    route({ type: 'settings/get', requestId: 's1' });
    route({ type: 'mentions/query', requestId: 'm1', query: 'hel' });
    route({ type: 'approval/showDiff', requestId: 'open' });
    route({ type: 'approval/showDiff', requestId: 'settled' });
    route({ type: 'chat/stop', requestId: 'r1' });
    await new Promise((r) => setTimeout(r, 0));
    expect(log).toEqual(['settings settings/get', 'diff edit_file', 'warn approval settled is not open; no diff to show', 'chat chat/stop']);
    expect(sent).toEqual([{ type: 'mentions/results', requestId: 'm1', items: [item] }]);
  });

  it('sends settings updates to the settings handler and logs a diff that cannot be shown', async () => {
    const { route, log } = setup(async () => []);
    route({ type: 'settings/update', requestId: 'u1', key: 'strata.maxHeaders', scope: 'user', value: 300 });
    await new Promise((r) => setTimeout(r, 0));
    expect(log).toEqual(['settings settings/update']);
    const failing = webviewRouter({
      chat: { handle: () => {}, pendingApproval: () => ({ tool: 'edit_file', input: {} }) },
      settings: { handle: async () => Promise.reject(new Error('no config')) },
      searchMentions: async () => [],
      showDiff: async () => Promise.reject(new Error('no editor')),
      send: () => {},
      logger: { info: () => {}, warn: () => {}, error: (m) => log.push(`error ${m}`) },
    });
    failing({ type: 'approval/showDiff', requestId: 'a1' });
    failing({ type: 'settings/get', requestId: 's1' });
    await new Promise((r) => setTimeout(r, 0));
    expect(log.slice(1)).toEqual(['error approval/showDiff: no editor', 'error settings/get: no config']);
  });

  it('answers a failed file search with an empty list and a logged reason', async () => {
    const { route, log, sent } = setup(async () => {
      throw new Error('search failed');
    });
    route({ type: 'mentions/query', requestId: 'm2', query: 'x' });
    await new Promise((r) => setTimeout(r, 0));
    expect(sent).toEqual([{ type: 'mentions/results', requestId: 'm2', items: [] }]);
    expect(log).toEqual(['error mentions/query: search failed']);
  });
});
