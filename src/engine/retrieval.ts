import type { ArchivedExchange, ArchiveStore, RetrievalFormat } from './ports';
import { parseExchangeId } from './exchange';
import { blockText } from './blockTokens';
import { trimToTokens } from './text/trimToBudget';

/** Plain text of an archived exchange, as the model would re-read it. */
export function fullText(exchange: ArchivedExchange): string {
  return exchange.full
    .map((m) => `${m.role}:\n${m.content.map(blockText).join('\n')}`)
    .join('\n');
}

/**
 * Fetches exchanges by id in the asked format within `quotaTokens`; unknown ids and the quota
 * running out are said in the text, never thrown. Deterministic for the same archive.
 */
export function retrieveExchanges(
  archive: Pick<ArchiveStore, 'get' | 'lastSeq'>,
  sessionId: string,
  ids: readonly string[],
  format: RetrievalFormat,
  quotaTokens: number,
  count: (s: string) => number,
  /** What to say first about an exchange an edited resend superseded (undefined for the others). */
  supersededNote: (seq: number) => string | undefined = () => undefined,
): { text: string; tokens: number } {
  const lastSeq = archive.lastSeq(sessionId);
  const parts: string[] = [];
  let used = 0;
  for (const id of ids) {
    const seq = parseExchangeId(id);
    const exchange = seq === undefined ? undefined : archive.get(sessionId, seq);
    if (!exchange) {
      parts.push(`${id}: no such exchange (this session has ${lastSeq > 0 ? `e1-e${lastSeq}` : 'none yet'}).`);
      continue;
    }
    const left = quotaTokens - used;
    if (left <= 20) {
      parts.push(`e${exchange.seq}: not retrieved, this turn's retrieval quota (${quotaTokens} tokens) is used up; ask again next turn.`);
      continue;
    }
    const stored = exchange.supersededBy !== undefined ? `[e${exchange.seq} is superseded by e${exchange.supersededBy} (an edited, resent message); shown for reference only]` : undefined;
    const note = supersededNote(exchange.seq) ?? stored;
    const text = note ? trimToTokens(`${note}\n${formatOne(exchange, format, left - count(note), count)}`, left, count) : formatOne(exchange, format, left, count);
    used += count(text);
    parts.push(text);
  }
  const text = `<retrieved format="${format}">\n${parts.join('\n\n')}\n</retrieved>`;
  return { text, tokens: used };
}

function formatOne(exchange: ArchivedExchange, format: RetrievalFormat, left: number, count: (s: string) => number): string {
  const head = `e${exchange.seq} ${exchange.header}`;
  if (format === 'header') return trimToTokens(head, left, count);
  if (format === 'summary') return trimToTokens(`${head}\n${exchange.summary}`, left, count);
  const full = `${head}\n${fullText(exchange)}`;
  if (format === 'full' || count(full) <= left) return trimToTokens(full, left, count);
  return trimToTokens(`${head}\n${exchange.summary}`, left, count);
}
