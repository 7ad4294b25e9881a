/** Time limits, in seconds, for tools whose work grows with what the model asks for. */
export interface ToolLimits {
  /** `search_files`: a pattern that backtracks or a huge tree stops here, with what was found. */
  searchSeconds: number;
  /** `list_files` and `list_definitions`: walking a huge tree stops here. */
  listSeconds: number;
  /** `read_file` with a line range deep in a huge file: scanning to it stops here. */
  readSeconds: number;
}

export const DEFAULT_TOOL_LIMITS: ToolLimits = { searchSeconds: 20, listSeconds: 20, readSeconds: 20 };

/** A signal that fires on the user's Stop or after `seconds`; `timedOut()` tells which it was. */
export interface Deadline {
  signal: AbortSignal;
  timedOut(): boolean;
}

export function deadline(userSignal: AbortSignal, seconds: number): Deadline {
  const timer = AbortSignal.timeout(Math.round(seconds * 1000));
  return { signal: AbortSignal.any([userSignal, timer]), timedOut: () => timer.aborted && !userSignal.aborted };
}
