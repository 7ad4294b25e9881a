import { escapeXml, strategyColor } from './plot';

/** One strategy at one window: cost as a share of full history's, span recall 0..1. */
export interface FrontierPoint {
  strategy: string;
  cost: number;
  span: number;
  /** False when some request was larger than the window: drawn hollow, kept off the frontier. */
  fits: boolean;
}

export interface FrontierPanel {
  window: number;
  /** Panel heading; `window N tokens` unless given. */
  title?: string;
  points: FrontierPoint[];
}

const PANEL_W = 440;
const PANEL_H = 340;
const PAD = { left: 56, right: 20, top: 34, bottom: 44 };
/** The x axis ends at this share of full at most; costlier points sit on the right edge with their value (masking reaches 4x). */
const X_CAP = 1.5;
/** Points closer than this (in both axes) share one dot and one label. */
const SAME = 0.01;
/** Rough label metrics at font-size 11, pixels, to keep labels from overprinting each other. */
const LABEL_CHAR_PX = 6;
const LABEL_LINE_PX = 13;

/**
 * The pressure sweep at a glance: one panel per window, cost (x, share of full) against span
 * recall (y), every strategy a labelled point, the Pareto frontier (no other point cheaper and
 * recalling more, among those that fit the window) as a line; a strategy that sent a request
 * larger than the window is a hollow dot. Up-and-left is better. Plain SVG, no dependencies.
 */
export function frontierSvg(panels: FrontierPanel[]): string {
  const columns = Math.min(2, Math.max(1, panels.length));
  const rows = Math.ceil(panels.length / columns);
  const width = columns * PANEL_W;
  const height = rows * PANEL_H + 40;
  const body = panels.map((p, i) => panel(p, (i % columns) * PANEL_W, 40 + Math.floor(i / columns) * PANEL_H)).join('\n');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="11">
<rect width="100%" height="100%" fill="white"/>
<text x="16" y="24" font-size="15" font-weight="bold">cost (share of full history) against span recall, per window; up and left is better</text>
${body}
</svg>
`;
}

function panel(p: FrontierPanel, left: number, top: number): string {
  const shown = Math.min(X_CAP, Math.max(0, ...p.points.map((q) => q.cost)));
  const xMax = Math.max(1.1, Math.min(X_CAP, Math.ceil((shown + 0.05) * 10) / 10));
  const yMin = Math.min(0.9, Math.floor((Math.min(1, ...p.points.map((q) => q.span)) - 0.02) * 20) / 20);
  const plotW = PANEL_W - PAD.left - PAD.right;
  const plotH = PANEL_H - PAD.top - PAD.bottom;
  const x = (v: number) => left + PAD.left + (Math.min(v, xMax) / xMax) * plotW;
  const y = (v: number) => top + PAD.top + (1 - (v - yMin) / (1 - yMin)) * plotH;
  const parts: string[] = [`<text x="${left + PAD.left}" y="${top + 20}" font-size="13" font-weight="bold">${escapeXml(p.title ?? `window ${p.window.toLocaleString('en-US')} tokens`)}</text>`];
  parts.push(`<rect x="${left + PAD.left}" y="${top + PAD.top}" width="${plotW}" height="${plotH}" fill="none" stroke="#9ca3af"/>`);
  for (let v = 0; v <= xMax + 1e-9; v += 0.2) {
    parts.push(`<line x1="${x(v).toFixed(1)}" x2="${x(v).toFixed(1)}" y1="${top + PAD.top}" y2="${top + PAD.top + plotH}" stroke="#f3f4f6"/>`);
    parts.push(`<text x="${x(v).toFixed(1)}" y="${top + PAD.top + plotH + 14}" text-anchor="middle">${v.toFixed(1)}</text>`);
  }
  const ySteps = Math.round((1 - yMin) / 0.05);
  for (let k = 0; k <= ySteps; k++) {
    const v = yMin + (k * (1 - yMin)) / ySteps;
    parts.push(`<line x1="${left + PAD.left}" x2="${left + PAD.left + plotW}" y1="${y(v).toFixed(1)}" y2="${y(v).toFixed(1)}" stroke="#f3f4f6"/>`);
    parts.push(`<text x="${left + PAD.left - 4}" y="${(y(v) + 4).toFixed(1)}" text-anchor="end">${v.toFixed(2)}</text>`);
  }
  parts.push(`<text x="${left + PAD.left + plotW / 2}" y="${top + PANEL_H - 10}" text-anchor="middle">cost / full</text>`);
  parts.push(`<text transform="translate(${left + 14},${top + PAD.top + plotH / 2}) rotate(-90)" text-anchor="middle">span recall</text>`);
  const frontier = paretoFrontier(p.points.filter((q) => q.fits));
  parts.push(`<polyline class="frontier" fill="none" stroke="#9ca3af" stroke-dasharray="4 3" points="${frontier.map((q) => `${x(q.cost).toFixed(1)},${y(q.span).toFixed(1)}`).join(' ')}"/>`);
  const placed: Array<{ x1: number; x2: number; y: number }> = [];
  const groups = groupClose(p.points).sort((a, b) => b[0]!.span - a[0]!.span);
  for (const group of groups) {
    const q = group[0]!;
    const strata = group.some((g) => g.strategy === 'strata');
    const color = strata ? strategyColor('strata') : strategyColor(q.strategy);
    const label = `${group.map((g) => g.strategy).join(', ')}${q.cost > xMax ? ` (${q.cost.toFixed(2)})` : ''}${q.fits ? '' : ' (over window)'}`;
    const px = x(q.cost);
    const py = y(q.span);
    const anchor = px > left + PAD.left + plotW * 0.6 ? 'end' : 'start';
    const width = label.length * LABEL_CHAR_PX;
    const x1 = anchor === 'end' ? px - 7 - width : px + 7;
    // Above the dot, or below it at the top edge; then down past any label already placed there.
    let ly = py - 6 < top + PAD.top + 12 ? py + 15 : py - 6;
    while (placed.some((l) => Math.abs(l.y - ly) < LABEL_LINE_PX && l.x1 < x1 + width && x1 < l.x2)) ly += LABEL_LINE_PX;
    placed.push({ x1, x2: x1 + width, y: ly });
    parts.push(`<circle class="point" data-strategy="${escapeXml(group.map((g) => g.strategy).join(','))}" cx="${px.toFixed(1)}" cy="${py.toFixed(1)}" r="${strata ? 5 : 4}" ${q.fits ? `fill="${color}"` : `fill="white" stroke="${color}" stroke-width="1.5"`}/>`);
    parts.push(`<text x="${(anchor === 'end' ? px - 7 : px + 7).toFixed(1)}" y="${ly.toFixed(1)}" text-anchor="${anchor}" fill="${color}"${strata ? ' font-weight="bold"' : ''}>${escapeXml(label)}</text>`);
  }
  return parts.join('\n');
}

/** Points no other point beats on both axes (cheaper or equal and recalling as much or more), cheapest first. */
export function paretoFrontier(points: readonly FrontierPoint[]): FrontierPoint[] {
  const sorted = [...points].sort((a, b) => a.cost - b.cost || b.span - a.span);
  const out: FrontierPoint[] = [];
  for (const q of sorted) if (out.length === 0 || q.span > out[out.length - 1]!.span) out.push(q);
  return out;
}

/** Points drawn at (almost) the same place, so they share one dot and one label. */
function groupClose(points: readonly FrontierPoint[]): FrontierPoint[][] {
  const groups: FrontierPoint[][] = [];
  for (const q of points) {
    const near = groups.find((g) => g[0]!.fits === q.fits && Math.abs(g[0]!.cost - q.cost) < SAME && Math.abs(g[0]!.span - q.span) < SAME);
    if (near) near.push(q);
    else groups.push([q]);
  }
  return groups;
}
