import type { ArchivedExchange } from '../engine/ports';
import { answerText, callsTools, userText } from '../shared/exchangeText';
import type { HistoryEntry } from '../shared/webviewMessages';

/** Most entries a resumed chat shows; older ones are counted, not sent. */
export const HISTORY_MAX_ENTRIES = 200;
/** Longest text of one entry, characters; the rest is cut with a note. */
export const HISTORY_MAX_CHARS = 20_000;

/**
 * The compact history a resumed chat shows: each user message and each final answer (an answer
 * that called no tool), in order. Tool calls, tool results and the answers between them are
 * left out: the archive tree shows them. Exchanges superseded by an edited, resent message are left out. Pure; no `vscode` import.
 */
export function sessionHistory(exchanges: ArchivedExchange[]): { entries: HistoryEntry[]; omitted: number } {
  const entries: HistoryEntry[] = [];
  for (const exchange of [...exchanges].sort((a, b) => a.seq - b.seq)) {
    if (exchange.supersededBy !== undefined) continue; // replaced by an edited, resent message
    const input = exchange.full.find((m) => m.role === 'user');
    const output = [...exchange.full].reverse().find((m) => m.role === 'assistant');
    const asked = input ? userText(input) : undefined;
    if (asked !== undefined) entries.push({ role: 'user', text: capped(asked.trim()), seq: exchange.seq });
    if (output && !callsTools(output)) {
      const answer = answerText(output);
      if (answer !== '') entries.push({ role: 'assistant', text: capped(answer), seq: exchange.seq });
    }
  }
  const omitted = Math.max(0, entries.length - HISTORY_MAX_ENTRIES);
  return { entries: entries.slice(omitted), omitted };
}

function capped(text: string): string {
  return text.length <= HISTORY_MAX_CHARS ? text : `${text.slice(0, HISTORY_MAX_CHARS)}\n\n[… ${text.length - HISTORY_MAX_CHARS} more characters: open the exchange in the Archive view]`;
}
