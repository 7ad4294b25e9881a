import type { EngineState } from './engineState';
import type { LiveExchange } from './liveExchange';
import type { ToolCall } from './toolOutput';

/** Checkpoints kept, newest first; a resend from an older message rebuilds from the archive instead. */
export const MAX_CHECKPOINTS = 16;

/**
 * The engine as it stood when a user message began (before it joined any layer), so an edited
 * resend of that message starts from exactly what the model was shown then: the request is as
 * if the superseded exchanges never happened. Everything mutable is copied; the rest is shared.
 */
export interface Checkpoint {
  seq: number;
  state: Omit<EngineState, 'settings' | 'tokenizer' | 'system' | 'tools' | 'pending'>;
  lastCalls: Map<string, ToolCall>;
  pendingRetrieval?: string;
}

export function takeCheckpoint(seq: number, state: EngineState, lastCalls: Map<string, ToolCall>, pendingRetrieval: string | undefined): Checkpoint {
  const { settings: _s, tokenizer: _t, system: _y, tools: _o, pending: _p, ...rest } = state;
  return { seq, state: copyParts(rest), lastCalls: new Map(lastCalls), ...(pendingRetrieval !== undefined ? { pendingRetrieval } : {}) };
}

/** Puts the checkpoint's parts back into `state` (copied again, so the checkpoint stays intact). */
export function restoreCheckpoint(state: EngineState, checkpoint: Checkpoint): void {
  delete state.pending;
  delete state.task;
  delete state.condensed;
  delete state.archiveParts;
  delete state.archiveText;
  Object.assign(state, copyParts(checkpoint.state));
}

function copyParts(parts: Checkpoint['state']): Checkpoint['state'] {
  return {
    ...parts,
    tail: parts.tail.map(copyLive),
    headers: parts.headers.slice(),
    headerLines: parts.headerLines.clone(),
    summaries: new Map(parts.summaries),
    index: parts.index.clone(),
    fileViews: parts.fileViews.clone(),
  };
}

/** Masking reassigns `input` and its token count; the maps are never changed after rendering. */
function copyLive(live: LiveExchange): LiveExchange {
  return { ...live };
}
