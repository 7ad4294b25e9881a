import type { EngineState } from './engineState';
import type { ArchiveStore } from './ports';
import { relayer } from './relayer';
import { renderInput } from './liveExchange';

/**
 * Rebuilds the layers of a session that already has exchanges in the archive (a reopened
 * editor): every earlier exchange is folded (headers, recent summaries), the task is its first
 * input. Reads each archived row once; returns the next free seq.
 */
export function resumeFromArchive(state: EngineState, archive: Pick<ArchiveStore, 'get' | 'lastSeq'>, sessionId: string): number {
  const last = archive.lastSeq(sessionId);
  if (last === 0) return 1;
  for (let seq = 1; seq <= last; seq++) {
    const row = archive.get(sessionId, seq);
    const tools = row ? [...new Set(row.full.flatMap((m) => m.content.flatMap((b) => (b.type === 'tool_use' ? [b.name] : []))))] : [];
    state.headers[seq - 1] = { seq, line: row?.header ?? `e${seq} (missing from the archive)`, tools: tools.length ? tools : ['text'], files: [] };
    if (row && seq > last - state.settings.summaryCount) state.summaries.set(seq, row.summary);
    if (seq === 1 && row?.full[0]) state.task = renderInput(row.full[0], new Map(), state.settings).blocks;
  }
  state.foldedThrough = last;
  relayer(state, 0);
  return last + 1;
}
