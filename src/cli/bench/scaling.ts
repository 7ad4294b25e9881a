import type { EngineSettings } from '../../shared/engineSettings';
import type { Message } from '../../shared/messages';
import type { ParsedSession } from '../../shared/sessionSchema';
import type { ArchiveStore, Logger, Tokenizer } from '../../engine/ports';
import { replaySession } from '../../host/replaySession';
import { quantile } from './ledger';

/** Per-turn assembly time and heap of Strata on one stretched session. */
export interface ScalePoint {
  exchanges: number;
  /** Median assemble() time over the last 100 turns, milliseconds. */
  p50Ms: number;
  p99Ms: number;
  heapMb: number;
  archiveMb: number;
}

/**
 * A session of exactly `exchanges` answers made by concatenating real sessions in turn (the first
 * one's task stays first; later sessions' messages follow as the conversation goes on).
 */
export function stretchSession(sessions: readonly ParsedSession[], exchanges: number): ParsedSession {
  const out: Message[] = [];
  let answers = 0;
  for (let round = 0; answers < exchanges; round++) {
    const source = sessions[round % sessions.length]!;
    for (const m of source.messages) {
      if (answers >= exchanges && m.role === 'assistant') break;
      const last = out[out.length - 1];
      if (last && last.role === m.role) out[out.length - 1] = { role: m.role, content: [...last.content, ...m.content] };
      else out.push(m);
      if (m.role === 'assistant') answers += 1;
    }
    if (round > exchanges) break;
  }
  return { meta: { ...sessions[0]?.meta, system: sessions[0]?.meta.system }, messages: out, notes: new Map(), problems: [] };
}

/** Replays a stretched session and measures the tail of its per-turn assembly times and the heap. */
export async function measureScale(
  session: ParsedSession,
  exchanges: number,
  settings: EngineSettings,
  ports: { tokenizer: Tokenizer; logger: Logger; archive: ArchiveStore; archiveBytes: () => number },
  onTurn: () => void,
): Promise<ScalePoint> {
  const times: number[] = [];
  let heap = 0;
  await replaySession(session, `stretched-${exchanges}`, settings, ports, (t) => {
    times.push(t.assembleMs);
    // Heap is read on the last turn, while the engine and its state are alive (after a GC when exposed).
    if (t.turn === exchanges) {
      (globalThis as { gc?: () => void }).gc?.();
      heap = process.memoryUsage().heapUsed;
    }
    onTurn();
  });
  const tail = times.slice(-100);
  return {
    exchanges,
    p50Ms: quantile(tail, 0.5),
    p99Ms: quantile(tail, 0.99),
    heapMb: heap / 2 ** 20,
    archiveMb: ports.archiveBytes() / 2 ** 20,
  };
}
