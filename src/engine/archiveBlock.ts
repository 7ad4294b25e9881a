import { basename } from './derive/exchangeActions';
import type { Tokenizer } from './ports';

/** What L2 keeps of every exchange: its header line and enough to describe it inside a range. */
export interface HeaderRecord {
  seq: number;
  line: string;
  tools: string[];
  files: string[];
}

/** Range sizes tried, smallest first, when headers outnumber `maxHeaders`. */
const RANGE_SIZES = [25, 100, 400, 1_600, 6_400, 25_600, 102_400];

/**
 * L2 lines for exchanges 1..records.length: one header each while they fit, else the oldest
 * folded into ranges aligned to multiples of their size (25, 100, 400, ...), largest first, so a
 * range line, once written, stays byte-identical at later re-layering steps. Returns the most
 * detailed layout within `maxHeaders` lines and `maxTokens`.
 */
export class HeaderLines {
  private readonly rangeCache = new Map<string, string>();

  /** An independent copy with the same range lines written so far (a resend checkpoint). */
  clone(): HeaderLines {
    const copy = new HeaderLines();
    for (const [key, line] of this.rangeCache) copy.rangeCache.set(key, line);
    return copy;
  }

  render(records: readonly HeaderRecord[], maxHeaders: number, maxTokens = Infinity, count: (s: string) => number = () => 0): string[] {
    const n = records.length;
    const fits = (lines: string[]) => lines.length <= maxHeaders && (maxTokens === Infinity || count(lines.join('\n')) <= maxTokens);
    const all = records.map((r) => r.line);
    if (fits(all)) return all;
    const keepIndividual = Math.floor(maxHeaders / 2);
    for (let top = 0; top < RANGE_SIZES.length; top++) {
      const lines = this.layout(records, RANGE_SIZES.slice(0, top + 1).reverse(), Math.max(0, n - keepIndividual));
      if (fits(lines)) return lines;
    }
    // Budgets too tight for aligned ranges: one range for all but the latest few, fewer until it fits.
    for (let individual = Math.min(n, Math.max(0, maxHeaders - 1)); ; individual = Math.floor(individual / 2)) {
      const start = n - individual;
      const lines = start > 0 ? [this.rangeLine(records, 0, start), ...all.slice(start)] : all;
      if (fits(lines) || individual === 0) return lines;
    }
  }

  /** Ranges of the given sizes (largest first) over records[0..rangedUpTo), then one line each. */
  private layout(records: readonly HeaderRecord[], sizes: number[], rangedUpTo: number): string[] {
    const out: string[] = [];
    let pos = 0;
    for (const size of sizes) {
      while (pos + size <= rangedUpTo) {
        out.push(this.rangeLine(records, pos, size));
        pos += size;
      }
    }
    for (let i = pos; i < records.length; i++) out.push(records[i]!.line);
    return out;
  }

  private rangeLine(records: readonly HeaderRecord[], start: number, size: number): string {
    const key = `${start}:${size}`;
    const cached = this.rangeCache.get(key);
    if (cached) return cached;
    const tools = new Map<string, number>();
    const files = new Map<string, number>();
    for (let i = start; i < start + size; i++) {
      const r = records[i]!;
      for (const t of r.tools) tools.set(t, (tools.get(t) ?? 0) + 1);
      for (const f of r.files) files.set(f, (files.get(f) ?? 0) + 1);
    }
    const top = (m: Map<string, number>, k: number) =>
      [...m.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, k);
    const toolText = top(tools, 3).map(([t, c]) => `${t}×${c}`).join(' ');
    const fileText = top(files, 2).map(([f]) => basename(f)).join(' ');
    const line = `e${records[start]!.seq}-e${records[start + size - 1]!.seq} (${size}): ${toolText}${fileText ? `; ${fileText}` : ''}`;
    this.rangeCache.set(key, line);
    return line;
  }
}

/** The pieces of <strata_context>, each already within its layer budget. */
export interface ArchiveBlockParts {
  /** L0, the story so far as of this step (what working memory shows came after it). */
  narrative?: string;
  index: string;
  /** Recently touched files as last shown, whose exchanges left working memory. */
  files?: string;
  headers: string[];
  summaries: string[];
  condensed?: { throughSeq: number; text: string };
}

/** The text of the <strata_context> block; stable for the same parts. */
export function renderArchiveBlock(parts: ArchiveBlockParts): string {
  const sections = ['<strata_context>'];
  if (parts.condensed) {
    sections.push(`## Condensed summary of e1-e${parts.condensed.throughSeq}`, parts.condensed.text);
  }
  if (parts.headers.length) sections.push('## Earlier exchanges (L2 headers)', ...parts.headers);
  if (parts.summaries.length) sections.push('## Recent summaries (L3)', ...parts.summaries);
  if (parts.index) sections.push('## Reference index (L4)', parts.index);
  if (parts.files) sections.push('## Files as last shown (older reads of recently used files)', parts.files);
  if (parts.narrative) sections.push(`<strata_narrative>\n${parts.narrative}\n</strata_narrative>`);
  sections.push('</strata_context>');
  return sections.join('\n');
}

/** Token count of the block text of each layer, for the usage breakdown (L4 counts the index and the file views). */
export function archiveLayerTokens(parts: ArchiveBlockParts, tokenizer: Tokenizer): { L0: number; L2: number; L3: number; L4: number } {
  return {
    L0: parts.narrative ? tokenizer.count(parts.narrative) : 0,
    L2: parts.headers.length ? tokenizer.count(parts.headers.join('\n')) : 0,
    L3: (parts.summaries.length ? tokenizer.count(parts.summaries.join('\n')) : 0) + (parts.condensed ? tokenizer.count(parts.condensed.text) : 0),
    L4: (parts.index ? tokenizer.count(parts.index) : 0) + (parts.files ? tokenizer.count(parts.files) : 0),
  };
}
