import type { ArchiveBrowser } from '../engine/archiveBrowser';
import type { ArchivedExchange } from '../engine/ports';
import type { ContentBlock, Message } from '../shared/messages';

/**
 * A session from the archive as a session file (src/shared/sessionSchema.ts): a meta line, then
 * the exchanges' messages in order, so `strata replay exported.jsonl` replays it. Each input
 * carries the exchange's time (`strata.at`), as `strata chat --record` writes it, so the replay
 * stamps exchanges as the chat did. The archive keeps no system prompt, tools or model: replay
 * uses its defaults for those. Pure; no `vscode` import.
 */
export function sessionJsonl(sessionId: string, exchanges: ArchivedExchange[]): string {
  const lines = [JSON.stringify({ meta: { source: 'strata archive', agent: 'strata', session_id: sessionId } })];
  for (const entry of exportedMessages(exchanges)) lines.push(JSON.stringify(entry.at === undefined ? entry.message : { ...entry.message, strata: { at: entry.at } }));
  return `${lines.join('\n')}\n`;
}

/**
 * The messages a session file holds, as the session parser will read them back: empty text
 * blocks and empty messages dropped, two messages of one role in a row merged (a stopped turn
 * may leave an input without an answer). `at` is set on a message that starts an exchange.
 */
export function exportedMessages(exchanges: ArchivedExchange[]): Array<{ message: Message; at?: number }> {
  const out: Array<{ message: Message; at?: number }> = [];
  // Superseded exchanges (replaced by an edited, resent message) are not part of the conversation the chat went on with.
  for (const exchange of [...exchanges].filter((e) => e.supersededBy === undefined).sort((a, b) => a.seq - b.seq)) {
    exchange.full.forEach((message, index) => {
      const content = message.content.filter((b) => !(b.type === 'text' && b.text === '')).map(withoutCacheMark);
      if (content.length === 0) return;
      const previous = out[out.length - 1];
      if (previous && previous.message.role === message.role) {
        previous.message.content.push(...content);
        return;
      }
      out.push(index === 0 && message.role === 'user' ? { message: { role: message.role, content }, at: exchange.createdAt } : { message: { role: message.role, content } });
    });
  }
  return out;
}

/** A block as the API would take it back: cache marks belong to a request, not to a session file. */
function withoutCacheMark(block: ContentBlock): ContentBlock {
  if (!('cache_control' in block)) return block;
  const { cache_control: _mark, ...rest } = block;
  return rest as ContentBlock;
}

/** Every exchange of a session, read back in full, in seq order (an exchange gone since the listing is skipped). */
export function loadSession(browser: Pick<ArchiveBrowser, 'exchanges' | 'get'>, sessionId: string): ArchivedExchange[] {
  return browser.exchanges(sessionId).flatMap((e) => browser.get(sessionId, e.seq) ?? []);
}
