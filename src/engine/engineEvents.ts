/** What the engine reports while it works; the webview shows these, the replay prints them. */
export type EngineEvent =
  | { type: 'relayer'; turn: number; foldedThrough: number; pressure: number; masked: number }
  | { type: 'condense_context'; turn: number; tokensBefore: number; tokensAfter: number; inputTokens: number; outputTokens: number; cost: number }
  | { type: 'condense_context_error'; turn: number; tokensBefore: number; error: string; cost: number }
  | { type: 'sliding_window_truncation'; turn: number; tokensBefore: number; tokensAfter: number; removedExchanges: number }
  | { type: 'outputs_masked'; turn: number; masked: number; tokensBefore: number; tokensAfter: number }
  | { type: 'warning'; turn: number; message: string };

/** Cost units of one model call: input at 1, output at 5 (Anthropic's Sonnet-class ratio). */
export function callCost(inputTokens: number, outputTokens: number): number {
  return inputTokens + 5 * outputTokens;
}
