import type { ChatItem } from '../chatState';

/** What the view's live regions say after a change: `polite` for answers, `assertive` for approvals. */
export interface Announcement {
  polite?: string;
  assertive?: string;
}

/** Longest answer text read out, characters: the rest is in the flow, one keystroke away. */
export const ANNOUNCE_MAX_CHARS = 300;

interface Seen {
  items: readonly ChatItem[];
  /** The running turn's request id; undefined when idle. */
  running: string | undefined;
}

/**
 * The announcement for going from `prev` to `next`, pure. A finished turn reads its last answer
 * once (not every streamed delta); a new pending approval is read at once, interrupting.
 */
export function announcementFor(prev: Seen, next: Seen): Announcement {
  const out: Announcement = {};
  const known = new Set(prev.items.map((i) => i.id));
  const approval = next.items.find((i): i is Extract<ChatItem, { kind: 'approval' }> => i.kind === 'approval' && i.state === 'pending' && !known.has(i.id));
  if (approval) out.assertive = `Approval needed: Strata wants to ${approval.summary}. Approve or Reject.`;
  if (prev.running !== undefined && next.running === undefined) {
    const answer = lastAnswer(next.items);
    if (answer) out.polite = `Strata answered: ${clip(answer)}`;
  }
  return out;
}

/** The text of the last assistant row after the last user message, if any. */
function lastAnswer(items: readonly ChatItem[]): string | undefined {
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i]!;
    if (item.kind === 'user') return undefined;
    if (item.kind === 'assistant' && !item.past && item.text.trim() !== '') return item.text;
  }
  return undefined;
}

function clip(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > ANNOUNCE_MAX_CHARS ? `${line.slice(0, ANNOUNCE_MAX_CHARS - 1)}…` : line;
}
