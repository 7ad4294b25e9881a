import type { Message } from '../shared/messages';

/**
 * One model call: the input that triggered it (the user's words, or the tool results of the
 * previous answer) and the answer. `seq` is monotonic per session; the model sees `e${seq}`.
 */
export interface Exchange {
  seq: number;
  /** Milliseconds since epoch, from the Clock port. */
  createdAt: number;
  input: Message;
  output: Message;
}

/** The id the model and the user see for an exchange. */
export function exchangeId(seq: number): string {
  return `e${seq}`;
}

/** Parses `e12` (or `12`) back to 12; undefined for anything else. */
export function parseExchangeId(id: string): number | undefined {
  const match = /^e?(\d{1,9})$/.exec(id.trim());
  return match ? Number(match[1]) : undefined;
}
