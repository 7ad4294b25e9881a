import { renderArchiveBlock } from './archiveBlock';
import type { EngineState, Pressure } from './engineState';
import { activeHeaders, fileViewRoom, layerBudgets } from './engineState';
import { fileChangesOf, fileReadsOf, maskOutputs } from './liveExchange';
import { fileShownPart } from './fileViews';
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

/**
 * Reads in working memory that no longer show the file as it is become pointers: the file was
 * read again later (or in this input) by a read that shows at least as much (a whole read, or a
 * part whose text holds this one's: a read of another range supersedes nothing), or it changed
 * after the read (an edit by a tool, or a change seen on disk). Only at a step, so the cached
 * prefix is rewritten once, not every turn.
 */
function supersedeRereads(state: EngineState): number {
  const exchanges = state.pending ? [...state.tail, state.pending] : [...state.tail];
  const reads: Array<{ seq: number; id: string; path: string; whole: boolean; text: string }> = [];
  const lastChange = new Map<string, { seq: number; how: string }>();
  for (const ex of exchanges) {
    for (const [id, path] of fileReadsOf(ex)) reads.push({ seq: ex.seq, id, path: state.pathKey(path), whole: fileShownPart(ex.calls.get(id))?.whole ?? true, text: ex.originals.get(id) ?? '' });
    for (const path of fileChangesOf(ex)) lastChange.set(state.pathKey(path), { seq: ex.seq, how: 'edited' });
    for (const path of ex.changedFiles ?? []) lastChange.set(state.pathKey(path), { seq: ex.seq, how: 'changed on disk' });
  }
  /** The newest later read of the same file that shows all this one did. */
  const coveredBy = (read: (typeof reads)[number]): number | undefined => {
    for (let i = reads.length - 1; i >= 0; i--) {
      const later = reads[i]!;
      if (later.seq <= read.seq) return undefined;
      if (later.path === read.path && (later.whole || later.text.includes(read.text))) return later.seq;
    }
    return undefined;
  };
  let masked = 0;
  for (const ex of state.tail) {
    const mine = new Map(reads.filter((r) => r.seq === ex.seq).map((r) => [r.id, r]));
    if (mine.size === 0) continue;
    masked += maskOutputs(
      ex,
      (id) => {
        const read = mine.get(id);
        if (!read) return undefined;
        const readAgain = coveredBy(read);
        const change = lastChange.get(read.path);
        if (change && change.seq > ex.seq && (readAgain === undefined || change.seq > readAgain)) return `superseded, ${read.path} ${change.how} in e${change.seq} (this read shows it before that)`;
        return readAgain !== undefined ? `superseded, ${read.path} was read again in e${readAgain}` : undefined;
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
  const folded = activeHeaders(state, state.foldedThrough);
  const maxHeaders = state.pressure >= 4 ? Math.max(10, Math.floor(budgets.maxHeaders / 4)) : budgets.maxHeaders;
  const headers = state.headerLines.render(folded, maxHeaders, Math.min(budgets.headerTokens, maxHeaders * s.headerMaxTokens), count);
  const summaries: string[] = [];
  const summaryCount = state.pressure >= 3 ? 0 : budgets.summaryCount;
  const firstSummarised = state.condensed ? state.condensed.throughSeq + 1 : 1;
  // the newest `summaryCount` folded exchanges still in the conversation (seqs may have holes after a resend)
  const recent = summaryCount > 0 ? folded.slice(-summaryCount) : [];
  for (const { seq } of recent) {
    if (seq < firstSummarised) continue;
    const summary = state.summaries.get(seq);
    if (summary) summaries.push(trimToTokens(summary.startsWith(`e${seq}`) ? summary : `e${seq}: ${summary}`, s.summaryMaxTokens, count));
  }
  const indexBudget = state.pressure >= 3 ? 0 : budgets.indexTokens;
  const index = trimToTokens(state.index.render(indexBudget, state.foldedThrough, count), indexBudget, count);
  const files = state.fileViews.render(state.foldedThrough, s.fileViewHorizon, state.pressure >= 3 ? 0 : fileViewRoom(state), count);
  const narrative = trimToTokens(renderNarrative(state.narrative), budgets.narrativeTokens, count);
  state.archiveParts = { narrative, headers, summaries, index, ...(files ? { files } : {}), ...(state.condensed ? { condensed: state.condensed } : {}) };
  state.archiveText = renderArchiveBlock(state.archiveParts);
  dropOldSummaries(state, folded.map((h) => h.seq), summaryCount);
}

/** Summaries below the L3 band are never sent again; the archive keeps them. */
function dropOldSummaries(state: EngineState, foldedSeqs: number[], summaryCount: number): void {
  const band = Math.max(summaryCount, state.settings.summaryCount);
  const oldestKept = band === 0 ? state.foldedThrough + 1 : foldedSeqs.length > band ? foldedSeqs[foldedSeqs.length - band]! : 0;
  for (const seq of state.summaries.keys()) if (seq < oldestKept) state.summaries.delete(seq);
}

/** Next pressure level, or undefined when there is nowhere left to squeeze. */
export function morePressure(p: Pressure): Pressure | undefined {
  return p < 5 ? ((p + 1) as Pressure) : undefined;
}
