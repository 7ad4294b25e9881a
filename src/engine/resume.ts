import type { EngineState } from './engineState';
import type { ArchivedExchange, ArchiveStore } from './ports';
import { relayer } from './relayer';
import { renderInput } from './liveExchange';
import type { Supersessions } from './supersessions';

type Reader = Pick<ArchiveStore, 'get' | 'lastSeq'>;

/**
 * Rebuilds the layers of a session that already has exchanges in the archive (a reopened
 * editor): every earlier exchange still in the conversation is folded (headers, recent
 * summaries), the task is the first one's input; superseded rows only fill the alias map. Reads
 * each archived row once; returns the next free seq.
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
  for (const [index, [seq, row]] of active.entries()) {
    const tools = row ? [...new Set(row.full.flatMap((m) => m.content.flatMap((b) => (b.type === 'tool_use' ? [b.name] : []))))] : [];
    state.headers[seq - 1] = { seq, line: row?.header ?? `e${seq} (missing from the archive)`, tools: tools.length ? tools : ['text'], files: [] };
    if (row && index >= active.length - state.settings.summaryCount) state.summaries.set(seq, row.summary);
    if (index === 0 && row?.full[0]) state.task = renderInput(row.full[0], new Map(), state.settings).blocks;
  }
  const newest = active[active.length - 1];
  if (!newest) return;
  state.foldedThrough = newest[0];
  relayer(state, 0);
}
