/** A one-line progress bar on stderr (only when stderr is a terminal, or when forced). */
export class ProgressBar {
  private done = 0;
  private lastDrawn = 0;

  constructor(
    private readonly total: number,
    private readonly label: string,
    private readonly enabled = process.stderr.isTTY === true,
  ) {}

  tick(n = 1): void {
    this.done += n;
    const now = Date.now();
    if (!this.enabled || (now - this.lastDrawn < 100 && this.done < this.total)) return;
    this.lastDrawn = now;
    const share = Math.min(1, this.done / Math.max(1, this.total));
    const width = 30;
    const filled = Math.round(share * width);
    process.stderr.write(`\r${this.label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${Math.round(share * 100)}% (${this.done}/${this.total})`);
  }

  finish(): void {
    if (this.enabled) process.stderr.write('\n');
  }
}
