/**
 * Which exchanges an edited and resent message superseded, and by which exchange: the alias
 * map. A superseded exchange leaves every layer but stays in the archive, fetchable by its id
 * with a note; `e5 -> e9` reads "e5 and what followed were replaced by e9".
 */
export class Supersessions {
  private readonly by = new Map<number, number>();

  /** `seqs` were superseded by exchange `by` (the resent message). */
  add(seqs: readonly number[], by: number): void {
    for (const seq of seqs) this.by.set(seq, by);
  }

  /** The exchange that superseded `seq`, or undefined while `seq` is in the conversation. */
  supersededBy(seq: number): number | undefined {
    return this.by.get(seq);
  }

  /** Every old id and its replacement, ascending by old id: `{ e5: 'e9', e6: 'e9' }`. */
  aliases(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [seq, by] of [...this.by.entries()].sort((a, b) => a[0] - b[0])) out[`e${seq}`] = `e${by}`;
    return out;
  }

  /**
   * What a retrieval of `seq` says before its text, or undefined for an exchange still in the
   * conversation. Follows the chain when the replacement was itself superseded later.
   */
  note(seq: number): string | undefined {
    const first = this.by.get(seq);
    if (first === undefined) return undefined;
    const chain = [first];
    for (let next = this.by.get(first); next !== undefined && !chain.includes(next); next = this.by.get(next)) chain.push(next);
    const later = chain.length > 1 ? ` (itself superseded, now ${chain.slice(1).map((s) => `e${s}`).join(' -> ')})` : '';
    return `[e${seq} is superseded: the user edited an earlier message and resent it as e${first}${later}; e${seq} is no longer part of the conversation and is shown for reference only]`;
  }
}
