import { renderArchiveBlock } from './archiveBlock';
import type { EngineState, Pressure } from './engineState';
import { layerBudgets } from './engineState';
import { fileReadsOf, maskOutputs } from './liveExchange';
import { trimToTokens } from './text/trimToBudget';
import { renderNarrative } from './narrative';

/**
 * One re-layering step: the oldest tail exchanges, all but the `keep` most recent, leave
 * working memory for L2/L3/L4 in a single move; then <strata_context> is rebuilt and
 * superseded file reads in the remaining tail become pointers. Returns outputs masked.
 */
export function relayer(state: EngineState, keep: number): number {
  const leaving = Math.max(0, state.tail.length - keep);
  if (leaving > 0) {
    state.foldedThrough = state.tail[leaving - 1]!.seq;
    state.tail = state.tail.slice(leaving);
  }
  state.mode = 'layered';
  const masked = supersedeRereads(state) + maskForPressure(state);
  rebuildArchive(state);
  return masked;
}

/** Older reads of a file read again later in working memory (or in this input) are superseded. */
function supersedeRereads(state: EngineState): number {
  const exchanges = state.pending ? [...state.tail, state.pending] : [...state.tail];
  const lastReadAt = new Map<string, number>();
  for (const ex of exchanges) for (const path of fileReadsOf(ex).values()) lastReadAt.set(path, ex.seq);
  let masked = 0;
  for (const ex of state.tail) {
    const reads = fileReadsOf(ex);
    if (reads.size === 0) continue;
    masked += maskOutputs(
      ex,
      (id) => {
        const path = reads.get(id);
        const latest = path ? lastReadAt.get(path) : undefined;
        return latest !== undefined && latest > ex.seq ? `superseded, ${path} was read again in e${latest}` : undefined;
      },
      (s) => state.tokenizer.count(s),
    );
  }
  return masked;
}

/** Under pressure 1+, every tool output in the tail but the newest exchange's becomes a pointer. */
function maskForPressure(state: EngineState): number {
  if (state.pressure < 1) return 0;
  let masked = 0;
  for (const ex of state.tail.slice(0, -1)) masked += maskOutputs(ex, () => 'masked to fit the budget', (s) => state.tokenizer.count(s));
  return masked;
}

/** Rebuilds the L2/L3/L4 text from the state; the same state gives the same bytes. */
export function rebuildArchive(state: EngineState): void {
  const s = state.settings;
  const count = (t: string) => state.tokenizer.count(t);
  const budgets = layerBudgets(s);
  const folded = state.headers.slice(0, state.foldedThrough);
  const maxHeaders = state.pressure >= 4 ? Math.max(10, Math.floor(budgets.maxHeaders / 4)) : budgets.maxHeaders;
  const headers = state.headerLines.render(folded, maxHeaders, Math.min(budgets.headerTokens, maxHeaders * s.headerMaxTokens), count);
  const summaries: string[] = [];
  const summaryCount = state.pressure >= 3 ? 0 : budgets.summaryCount;
  const firstSummarised = state.condensed ? state.condensed.throughSeq + 1 : 1;
  for (let seq = Math.max(firstSummarised, state.foldedThrough - summaryCount + 1); seq <= state.foldedThrough; seq++) {
    const summary = state.summaries.get(seq);
    if (summary) summaries.push(trimToTokens(summary.startsWith(`e${seq}`) ? summary : `e${seq}: ${summary}`, s.summaryMaxTokens, count));
  }
  const indexBudget = state.pressure >= 3 ? 0 : budgets.indexTokens;
  const index = trimToTokens(state.index.render(indexBudget, state.foldedThrough, count), indexBudget, count);
  const files = state.fileViews.render(state.foldedThrough, s.fileViewHorizon, state.pressure >= 3 ? 0 : budgets.fileViewTokens, count);
  const narrative = trimToTokens(renderNarrative(state.narrative), budgets.narrativeTokens, count);
  state.archiveParts = { narrative, headers, summaries, index, ...(files ? { files } : {}), ...(state.condensed ? { condensed: state.condensed } : {}) };
  state.archiveText = renderArchiveBlock(state.archiveParts);
  dropOldSummaries(state, summaryCount);
}

/** Summaries below the L3 band are never sent again; the archive keeps them. */
function dropOldSummaries(state: EngineState, summaryCount: number): void {
  const oldest = state.foldedThrough - Math.max(summaryCount, state.settings.summaryCount);
  for (const seq of state.summaries.keys()) if (seq <= oldest) state.summaries.delete(seq);
}

/** Next pressure level, or undefined when there is nowhere left to squeeze. */
export function morePressure(p: Pressure): Pressure | undefined {
  return p < 5 ? ((p + 1) as Pressure) : undefined;
}
