/** 128 + the signal's number, as shells report a process ended by it. */
export const SIGNAL_EXIT: Partial<Record<NodeJS.Signals, number>> = { SIGINT: 130, SIGTERM: 143 };

/** SIGINT/SIGTERM turned into an abort, for a command that stops at its next turn boundary. */
export interface StopSignals {
  signal: AbortSignal;
  /** The signal that arrived, if one did. */
  stoppedBy(): NodeJS.Signals | undefined;
  /** Stops listening (call in `finally`). */
  release(): void;
}

/** Listens once for SIGINT and SIGTERM until released; the first one aborts `signal`. */
export function listenForStop(): StopSignals {
  const stop = new AbortController();
  let stoppedBy: NodeJS.Signals | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    stoppedBy = signal;
    stop.abort();
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  return {
    signal: stop.signal,
    stoppedBy: () => stoppedBy,
    release: () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}
