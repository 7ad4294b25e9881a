import type { StrategyTotals } from './ledger';

const COLORS = ['#6b7280', '#2563eb', '#059669', '#d97706', '#9333ea', '#0891b2', '#dc2626'];
const ORDER = ['full', 'window', 'cline', 'condense', 'masking', 'clear-tool-uses', 'strata'];

/** One colour per strategy, the same in every plot (strata red). */
export function strategyColor(name: string): string {
  const i = ORDER.indexOf(name);
  return COLORS[(i < 0 ? 0 : i) % COLORS.length]!;
}
const W = 900;
const H = 300;
const PAD = { left: 70, right: 160, top: 36, bottom: 40 };

/**
 * Two stacked line charts for one session: prompt tokens per turn and cumulative cost, one
 * line per strategy. Plain SVG, no dependencies.
 */
export function plotSvg(session: string, series: Array<{ name: string; totals: StrategyTotals }>): string {
  const tokens = chart('prompt tokens per turn', series.map((s) => ({ name: s.name, values: s.totals.perTurn.map((p) => p.tokens) })), 0);
  const cost = chart('cumulative cost (units of one input token)', series.map((s) => ({ name: s.name, values: s.totals.perTurn.map((p) => p.cost) })), H);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${2 * H + 30}" font-family="sans-serif" font-size="12">
<rect width="100%" height="100%" fill="white"/>
<text x="${PAD.left}" y="20" font-size="15" font-weight="bold">${escapeXml(session)}</text>
${tokens}
${cost}
</svg>
`;
}

function chart(title: string, lines: Array<{ name: string; values: number[] }>, top: number): string {
  const maxX = Math.max(1, ...lines.map((l) => l.values.length));
  const maxY = Math.max(1, ...lines.flatMap((l) => l.values));
  const x = (i: number) => PAD.left + (i / Math.max(1, maxX - 1)) * (W - PAD.left - PAD.right);
  const y = (v: number) => top + 30 + PAD.top + (1 - v / maxY) * (H - PAD.top - PAD.bottom - 30);
  const parts: string[] = [`<text x="${PAD.left}" y="${top + 50}" font-weight="bold">${escapeXml(title)}</text>`];
  for (let k = 0; k <= 4; k++) {
    const v = (maxY * k) / 4;
    parts.push(`<line x1="${PAD.left}" x2="${W - PAD.right}" y1="${y(v).toFixed(1)}" y2="${y(v).toFixed(1)}" stroke="#e5e7eb"/>`);
    parts.push(`<text x="${PAD.left - 6}" y="${(y(v) + 4).toFixed(1)}" text-anchor="end">${Math.round(v).toLocaleString('en-US')}</text>`);
  }
  parts.push(`<text x="${(W - PAD.right + PAD.left) / 2}" y="${top + H - 8}" text-anchor="middle">turn (1-${maxX})</text>`);
  lines.forEach((line, n) => {
    const color = strategyColor(line.name);
    const points = line.values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
    parts.push(`<polyline fill="none" stroke="${color}" stroke-width="${line.name === 'strata' ? 2.5 : 1.5}" points="${points}"/>`);
    parts.push(`<text x="${W - PAD.right + 10}" y="${top + 70 + n * 16}" fill="${color}">${escapeXml(line.name)}</text>`);
  });
  return parts.join('\n');
}

export function escapeXml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
