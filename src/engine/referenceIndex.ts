/** What kind of thing an index entry points at. */
export type ReferenceKind = 'file' | 'symbol' | 'error';

interface Entry {
  kind: ReferenceKind;
  key: string;
  /** Exchange seqs where the key occurs, ascending, at most MAX_IDS_PER_KEY of the latest. */
  seqs: number[];
  hits: number;
  lastSeq: number;
}

const MAX_IDS_PER_KEY = 6;
const KIND_ORDER: ReferenceKind[] = ['file', 'symbol', 'error'];

/** Code-unit order of keys, the same on every machine (unlike localeCompare). */
function byKey(a: Entry, b: Entry): number {
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}

/**
 * L4: file paths, symbols and error signatures -> the exchanges where they occur. Updated
 * incrementally per exchange; rendering ranks by hits and recency and stops at the budget.
 */
export class ReferenceIndex {
  private readonly entries = new Map<string, Entry>();

  add(seq: number, kind: ReferenceKind, key: string): void {
    const id = `${kind}\u0000${key}`;
    let entry = this.entries.get(id);
    if (!entry) {
      entry = { kind, key, seqs: [], hits: 0, lastSeq: seq };
      this.entries.set(id, entry);
    }
    entry.hits += 1;
    entry.lastSeq = Math.max(entry.lastSeq, seq);
    if (entry.seqs[entry.seqs.length - 1] !== seq) {
      entry.seqs.push(seq);
      if (entry.seqs.length > MAX_IDS_PER_KEY) entry.seqs.shift();
    }
  }

  /** An independent copy (a resend checkpoint): adding to one never changes the other. */
  clone(): ReferenceIndex {
    const copy = new ReferenceIndex();
    for (const [id, e] of this.entries) copy.entries.set(id, { ...e, seqs: [...e.seqs] });
    return copy;
  }

  /** Exchange seqs recorded for a key (the latest few). */
  lookup(kind: ReferenceKind, key: string): readonly number[] {
    return this.entries.get(`${kind}\u0000${key}`)?.seqs ?? [];
  }

  get size(): number {
    return this.entries.size;
  }

  /**
   * Index lines within `maxTokens`, most useful first: score = hits, boosted by recency
   * relative to `currentSeq`. Ties break on the key so the output is deterministic.
   */
  render(maxTokens: number, currentSeq: number, count: (s: string) => number, maxEntries = 400): string {
    if (maxTokens <= 0 || this.entries.size === 0) return '';
    const ranked = [...this.entries.values()]
      .map((e) => ({ e, score: e.hits + 8 / (1 + Math.max(0, currentSeq - e.lastSeq) / 10) }))
      .sort((a, b) => b.score - a.score || byKey(a.e, b.e))
      .slice(0, maxEntries);
    const chosen: Entry[] = [];
    let used = 0;
    for (const { e } of ranked) {
      const cost = count(`${e.key} ${e.seqs.map((s) => `e${s}`).join(',')}; `);
      if (used + cost > maxTokens - 6) continue;
      chosen.push(e);
      used += cost;
    }
    const lines: string[] = [];
    for (const kind of KIND_ORDER) {
      const ofKind = chosen.filter((e) => e.kind === kind).sort(byKey);
      if (ofKind.length === 0) continue;
      lines.push(`${kind}s: ${ofKind.map((e) => `${e.key} ${e.seqs.map((s) => `e${s}`).join(',')}`).join('; ')}`);
    }
    return lines.join('\n');
  }
}
