/** Green below 61 %, yellow 61-85 %, red from 86 % of the usable window. */
export type UsageBand = 'green' | 'yellow' | 'red';

/** Per-layer share of a prompt, tokens; what the webview draws as bars. */
export interface LayerUsage {
  layer: 'system' | 'L0' | 'L1' | 'L2' | 'L3' | 'L4' | 'input' | 'retrieved';
  budget: number;
  used: number;
}

/** Window accounting for one assembled prompt, all figures in tokens. */
export interface Usage {
  used: number;
  window: number;
  reservedOutput: number;
  available: number;
  percent: number;
  band: UsageBand;
  layers: LayerUsage[];
  /** The session's prompt budget in force (the high watermark; it grows with a long session), before the margin for uncalibrated counts. */
  budget?: number;
}

/** Band for a percentage of the usable window. */
export function bandFor(percent: number): UsageBand {
  if (percent >= 86) return 'red';
  if (percent >= 61) return 'yellow';
  return 'green';
}

export function computeUsage(used: number, window: number, reservedOutput: number, layers: LayerUsage[], budget?: number): Usage {
  const usable = Math.max(1, window - reservedOutput);
  const percent = Math.round((used / usable) * 1000) / 10;
  return {
    used,
    window,
    reservedOutput,
    available: Math.max(0, usable - used),
    percent,
    band: bandFor(percent),
    layers,
    ...(budget !== undefined ? { budget } : {}),
  };
}
