import type { TaskEvent } from '../task/taskEvents';
import { terminalText } from './terminalText';

/** Characters of a tool's input or result shown on its one-line row. */
const ROW_CHARS = 100;

/**
 * How `strata chat` shows a Task's events: answer text on stdout as it streams; tool rows, the
 * per-turn figures and errors on stderr, so stdout holds only the assistant's words. Whatever
 * the model or a tool chose is passed through `terminalText`: it cannot move the cursor, erase
 * or reorder what the terminal shows.
 */
export function renderChatEvent(event: TaskEvent, io: { out: (s: string) => void; err: (s: string) => void; verbose: boolean }): void {
  switch (event.type) {
    case 'text':
      io.out(terminalText(event.text, 'prose'));
      return;
    case 'tool_call':
      io.err(`\n  → ${oneLine(event.name)} ${oneLine(JSON.stringify(event.input ?? {}))}\n`);
      return;
    case 'tool_result':
      io.err(`  ${event.isError ? '✗' : '✓'} ${oneLine(event.text)}\n`);
      return;
    case 'turn_done': {
      const r = event.report;
      const figures = [
        `e${r.turn}`,
        `${r.promptTokens.toLocaleString('en-US')}/${r.budget.toLocaleString('en-US')} tokens (${r.mode})`,
        `cache ${Math.round(r.cacheHitRate * 100)}%`,
        r.cost.priced ? `$${r.cost.totalUsd.toFixed(4)}` : 'no price on file',
      ];
      if (io.verbose) figures.push(`engine ${r.engineMs} ms / model ${r.modelMs} ms`);
      io.err(`\n  [${figures.join(' · ')}]\n`);
      return;
    }
    case 'engine':
      if (event.event.type === 'condense_context') io.err(`  [condensed: ${event.event.tokensBefore} → ${event.event.tokensAfter} tokens]\n`);
      else if (event.event.type === 'condense_context_error') io.err(`  [condensing failed: ${terminalText(event.event.error, 'line')}]\n`);
      else if (event.event.type === 'sliding_window_truncation') io.err(`  [sliding window: ${event.event.removedExchanges} exchanges left the prompt, all archived]\n`);
      else if (io.verbose) io.err(`  [engine: ${event.event.type}]\n`);
      return;
    case 'error':
      io.err(`\nerror (${event.code}): ${terminalText(event.message, 'prose')}\n`);
      return;
    case 'notice':
      io.err(`\n  [${event.kind}: ${event.message}]\n`);
      return;
    case 'waiting':
      io.err(`\n  [waiting ${Math.ceil(event.ms / 1000)} s: ${event.message} (Ctrl+C stops)]\n`);
      return;
    case 'protocol_warning':
      if (io.verbose) io.err(`  [protocol: ${event.message}]\n`);
      return;
    case 'idle':
      if (event.reason === 'stopped') io.err('\n  [stopped; the partial answer is kept]\n');
      if (event.reason === 'step_limit') io.err('\n  [the task took many steps; send a message to let it continue]\n');
      return;
    case 'user_message':
      io.err(`  [your message is e${event.turn}; /edit ${event.turn} <text> resends it edited]\n`);
      return;
    case 'resent': {
      const ids = event.superseded.map((seq) => `e${seq}`);
      const span = ids.length > 1 ? `${ids[0]}-${ids[ids.length - 1]}` : (ids[0] ?? '');
      io.err(`  [edited e${event.from}: ${span} superseded (kept in the archive), the new message is e${event.by}]\n`);
      return;
    }
    case 'request': // the per-turn line comes with turn_done, with what the API reported
    case 'exchange':
      return;
  }
}

/** `/edit <n> <text>` (n as 12 or e12): the user edits and resends their message e<n>; undefined for any other line. */
export function parseEditCommand(line: string): { seq: number; text: string } | undefined {
  const match = /^\/edit\s+e?(\d{1,9})\s+([\s\S]*\S)\s*$/.exec(line.trim());
  return match ? { seq: Number(match[1]), text: match[2]! } : undefined;
}

/** One row: whitespace runs folded to a space, other control characters escaped, cut at ROW_CHARS. */
function oneLine(text: string): string {
  const flat = terminalText(text.replace(/\s+/g, ' ').trim(), 'line');
  return flat.length > ROW_CHARS ? `${flat.slice(0, ROW_CHARS)}…` : flat;
}
