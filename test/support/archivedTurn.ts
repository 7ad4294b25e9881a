import type { ArchivedExchange } from '../../src/engine/ports';
import type { ContentBlock } from '../../src/shared/messages';

/** 2026-11-01 09:00 UTC: the archive tests' time zero. */
export const T0 = Date.UTC(2026, 10, 1, 9, 0, 0);

/**
 * An archived exchange of `sessionId` made `minutes` after T0: `input` as the user's blocks,
 * `answer` as the assistant's text; header and summary name the seq and the session.
 */
export function archivedTurn(sessionId: string, seq: number, minutes: number, input: ContentBlock[], answer: string, tokens = 100): ArchivedExchange {
  return {
    sessionId,
    seq,
    createdAt: T0 + minutes * 60_000,
    header: `e${seq} header of ${sessionId}`,
    summary: `e${seq} summary of ${sessionId}`,
    tokens,
    full: [
      { role: 'user', content: input },
      { role: 'assistant', content: [{ type: 'text', text: answer }] },
    ],
  };
}
