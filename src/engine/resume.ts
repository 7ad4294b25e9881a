import { contentTokens } from './blockTokens';
import type { EngineState } from './engineState';
import { arrivalLimits, noteFileReads, sessionBase, sessionBudget, sessionLowWatermark } from './engineState';
import type { LiveExchange, RenderLimits } from './liveExchange';
import { fileReadsShown, renderInput, renderOutput } from './liveExchange';
import type { ArchivedExchange, ArchiveStore } from './ports';
import { relayer } from './relayer';
import { toolCallsOf } from './toolOutput';
import type { Supersessions } from './supersessions';

type Reader = Pick<ArchiveStore, 'get' | 'lastSeq'>;

/**
 * Rebuilds the layers of a session that already has exchanges in the archive (a reopened
 * editor, a reloaded window): the newest exchanges go back into working memory (as many as the
 * low watermark of the session's grown budget holds), the older ones still in the conversation
 * are folded (headers, recent summaries), the task is the first one's input, and the session's
 * length is the archived tokens'; superseded rows only fill the alias map. Reads each archived
 * row once; returns the next free seq.
 */
export function resumeFromArchive(state: EngineState, archive: Reader, sessionId: string, supersessions: Supersessions): number {
  const last = archive.lastSeq(sessionId);
  const rows: Array<[number, ArchivedExchange | undefined]> = [];
  for (let seq = 1; seq <= last; seq++) {
    const row = archive.get(sessionId, seq);
    if (row?.supersededBy !== undefined) supersessions.add([seq], row.supersededBy);
    rows.push([seq, row]);
  }
  foldRows(state, rows, supersessions);
  return last + 1;
}

/**
 * The fold of exchanges before `before` that are still in the conversation, as a resume of an
 * archive without the superseded ones would build it (a resend from a message with no checkpoint).
 */
export function foldFromArchive(state: EngineState, archive: Reader, sessionId: string, supersessions: Supersessions, before: number): void {
  const rows: Array<[number, ArchivedExchange | undefined]> = [];
  for (let seq = 1; seq < before; seq++) if (supersessions.supersededBy(seq) === undefined) rows.push([seq, archive.get(sessionId, seq)]);
  foldRows(state, rows, supersessions);
}

function foldRows(state: EngineState, rows: Array<[number, ArchivedExchange | undefined]>, supersessions: Supersessions): void {
  const active = rows.filter(([seq]) => supersessions.supersededBy(seq) === undefined);
  const newest = active[active.length - 1];
  if (!newest) return;
  state.historyTokens = active.reduce((sum, [, row]) => sum + (row?.tokens ?? 0), 0);
  // on a fresh state (a resume, or resetEngineState before a fold for a resend)
  noteArchivedReads(state, active);
  const fits = workingMemory(state, active);
  // Folded or not decides the shape: once folded, working memory holds at most workingMemoryMax exchanges (budgetFit's rule).
  const live = fits.length === active.length ? fits : fits.slice(-state.settings.workingMemoryMax);
  // Summaries: the L3 band just below working memory, and working memory's own (they are shown once it folds).
  const firstSummary = active.length - live.length - state.settings.summaryCount;
  for (const [index, [seq, row]] of active.entries()) {
    const tools = row ? [...new Set(row.full.flatMap((m) => m.content.flatMap((b) => (b.type === 'tool_use' ? [b.name] : []))))] : [];
    state.headers[seq - 1] = { seq, line: row?.header ?? `e${seq} (missing from the archive)`, tools: tools.length ? tools : ['text'], files: [] };
    if (row && index >= firstSummary) state.summaries.set(seq, row.summary);
    if (index === 0 && row?.full[0]) state.task = renderInput(row.full[0], new Map(), state.settings).blocks;
  }
  state.tail = live;
  // working memory is already what a grown budget holds: no restore on the next turn (`restoreFolded`)
  state.grownRestored = sessionBudget(state) > sessionBase(state);
  for (const exchange of live) state.fileViews.observe(exchange);
  if (live.length === active.length) return; // all of it in working memory: nothing folded, as before any step
  state.foldedThrough = live.length > 0 ? live[0]!.seq - 1 : newest[0];
  relayer(state, live.length);
}

/** Notes the file reads of the archived exchanges' inputs (`noteFileReads`; their calls are the previous answer's). */
function noteArchivedReads(state: EngineState, active: Array<[number, ArchivedExchange | undefined]>): void {
  const count = (text: string) => state.tokenizer.count(text);
  for (const [i, [, row]] of active.entries()) {
    const input = row?.full[0];
    if (input?.role === 'user') noteFileReads(state, fileReadsShown(input, toolCallsOf(active[i - 1]?.[1]?.full[1]), count));
  }
}

/**
 * The newest archived exchanges, rendered as working memory held them, as many as fit under the
 * low watermark of the budget the session had grown to: a reload or a reopened session goes on
 * with its recent past verbatim instead of only headers and summaries.
 */
function workingMemory(state: EngineState, active: Array<[number, ArchivedExchange | undefined]>): LiveExchange[] {
  return newestThatFit(state, active, sessionLowWatermark(state), state.settings);
}

/**
 * Once the budget has grown past the base (`sessionBudget`), working memory takes back, newest
 * first, the exchanges folded while the base held, as many as fit in `room` tokens, rendered as
 * an input arriving now would be (`arrivalLimits`). A long session's first 95k tokens were folded
 * at the base budget, and its later edits quote them (issue 19). Exchanges a condense replaced
 * stay folded. Returns how many came back; the caller re-layers.
 */
export function restoreFolded(state: EngineState, archive: Reader, sessionId: string, room: number): number {
  const first = (state.condensed?.throughSeq ?? 0) + 1;
  const rows: Array<[number, ArchivedExchange | undefined]> = [];
  // headers have a hole where an exchange was superseded: it left the conversation
  for (let seq = first; seq <= state.foldedThrough; seq++) if (state.headers[seq - 1]) rows.push([seq, archive.get(sessionId, seq)]);
  const back = newestThatFit(state, rows, room, arrivalLimits(state));
  if (back.length === 0) return 0;
  state.tail = [...back, ...state.tail];
  state.foldedThrough = back[0]!.seq - 1;
  return back.length;
}

/**
 * The newest of `rows` rendered as working memory holds them, as many as fit in `room` tokens.
 * Stops at a row missing from the archive or without an answer (an exchange in working memory
 * is a whole turn).
 */
function newestThatFit(state: EngineState, rows: Array<[number, ArchivedExchange | undefined]>, room: number, limits: RenderLimits): LiveExchange[] {
  const count = (text: string) => state.tokenizer.count(text);
  const kept: LiveExchange[] = [];
  let used = 0;
  for (let i = rows.length - 1; i >= 0; i--) {
    const [seq, row] = rows[i]!;
    const [input, answer] = row?.full ?? [];
    if (!row || !input || !answer || input.role !== 'user' || answer.role !== 'assistant') break;
    const calls = toolCallsOf(rows[i - 1]?.[1]?.full[1]);
    const rendered = renderInput(input, calls, limits);
    const output = renderOutput(answer);
    const inputTokens = contentTokens(rendered.blocks, count);
    const outputTokens = contentTokens(output, count);
    if (used + inputTokens + outputTokens > room) break;
    used += inputTokens + outputTokens;
    kept.unshift({ seq, createdAt: row.createdAt, input: rendered.blocks, output, calls, originals: rendered.originals, inputTokens, outputTokens });
  }
  return kept;
}
