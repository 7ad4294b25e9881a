import { randomUUID } from 'node:crypto';

/** A fresh session id, `s-<UTC date>-<8 hex>` (e.g. `s-2026-11-22-3fa2b1c0`): chats and imports alike. */
export function newSessionId(now: number): string {
  return `s-${new Date(now).toISOString().slice(0, 10)}-${randomUUID().slice(0, 8)}`;
}
