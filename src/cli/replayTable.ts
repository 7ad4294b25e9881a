import type { ReplayTurn } from '../host/replaySession';

const COLUMNS = ['turn', 'mode', 'system', 'L0', 'L1', 'L2', 'L3', 'L4', 'input', 'total', 'budget', 'H', 'events'] as const;
const WIDTHS = [5, 7, 7, 5, 7, 6, 5, 5, 7, 7, 7, 5, 0];

/** Header line of the per-exchange table. */
export function tableHeader(): string {
  return formatRow([...COLUMNS]);
}

/** One row: tokens per layer, total, budget, housekeeping asked, and what was re-layered or condensed. */
export function tableRow(t: ReplayTurn): string {
  const used = new Map(t.assembled.usage.layers.map((l) => [l.layer, l.used]));
  const events = t.assembled.events
    .map((e) => {
      switch (e.type) {
        case 'relayer':
          return `relayer→e${e.foldedThrough}${e.pressure ? ` p${e.pressure}` : ''}${e.masked ? ` masked ${e.masked}` : ''}`;
        case 'condense_context':
          return `condensed ${e.tokensBefore}→${e.tokensAfter}`;
        case 'condense_context_error':
          return 'condense failed';
        case 'sliding_window_truncation':
          return `window -${e.removedExchanges}`;
        case 'outputs_masked':
          return `masked ${e.masked} outputs ${e.tokensBefore}→${e.tokensAfter}`;
        case 'warning':
          return 'warning';
      }
    })
    .join(', ');
  return formatRow([
    `e${t.assembled.turn}`,
    t.assembled.mode,
    ...(['system', 'L0', 'L1', 'L2', 'L3', 'L4', 'input'] as const).map((l) => String(used.get(l) ?? 0)),
    String(t.assembled.tokens),
    String(t.assembled.budget),
    String(t.assembled.housekeepingTokens),
    events,
  ]);
}

export interface ReplayTotals {
  turns: number;
  promptTokens: number;
  peakTokens: number;
  overBudget: number;
  housekeepingTokens: number;
  condenseCalls: number;
  relayers: number;
}

export function emptyTotals(): ReplayTotals {
  return { turns: 0, promptTokens: 0, peakTokens: 0, overBudget: 0, housekeepingTokens: 0, condenseCalls: 0, relayers: 0 };
}

export function addToTotals(totals: ReplayTotals, t: ReplayTurn): void {
  totals.turns += 1;
  totals.promptTokens += t.assembled.tokens;
  totals.peakTokens = Math.max(totals.peakTokens, t.assembled.tokens);
  if (t.assembled.tokens > t.assembled.budget) totals.overBudget += 1;
  totals.housekeepingTokens += t.assembled.housekeepingTokens;
  totals.condenseCalls += t.assembled.condenseCalls.length;
  totals.relayers += t.assembled.events.filter((e) => e.type === 'relayer').length;
}

export function totalsLine(t: ReplayTotals): string {
  return `total: ${t.turns} requests, ${t.promptTokens} prompt tokens, peak ${t.peakTokens}, over budget ${t.overBudget}, housekeeping ${t.housekeepingTokens} tokens, ${t.relayers} re-layering steps, ${t.condenseCalls} condense calls`;
}

function formatRow(cells: string[]): string {
  return cells.map((c, i) => (WIDTHS[i] ? c.padStart(WIDTHS[i]!) : c)).join(' ');
}
