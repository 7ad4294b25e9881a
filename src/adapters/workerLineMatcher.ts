import { Worker } from 'node:worker_threads';

/** One matching line: 1-based number and its text without the line end. */
export type LineHit = [line: number, text: string];

/**
 * The worker's whole program, as source text: the bundle stays one file and a test or a
 * mutation tool instruments nothing inside it. It answers each text with its matching lines
 * (CRLF's CR dropped, so `$` anchors at the line end), at most `max` of them.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const regex = new RegExp(workerData.source, workerData.flags);
parentPort.on('message', ({ text, max }) => {
  const lines = text.split('\\n');
  const hits = [];
  for (let i = 0; i < lines.length && hits.length < max; i++) {
    const line = lines[i].replace(/\\r$/, '');
    if (regex.test(line)) hits.push([i + 1, line]);
  }
  parentPort.postMessage(hits);
});
`;

/** Thrown by `match` once the signal has fired: the worker was terminated mid-match. */
export class MatchAborted extends Error {
  constructor() {
    super('The regular expression match was stopped.');
    this.name = 'MatchAborted';
  }
}

/**
 * Runs a JavaScript regular expression line by line on a worker thread, so a pattern that
 * backtracks without end (`(a+)+$`) blocks only that thread: the signal terminates it, and
 * the calling thread (the extension host) never freezes. One worker per instance, started on
 * first use; `close` ends it.
 */
export class WorkerLineMatcher {
  private worker: Worker | undefined;
  private pending: { resolve(hits: LineHit[]): void; reject(error: Error): void } | undefined;
  private readonly onAbort = (): void => this.fail(new MatchAborted());

  constructor(
    private readonly regex: RegExp,
    private readonly signal?: AbortSignal,
  ) {
    signal?.addEventListener('abort', this.onAbort, { once: true });
  }

  /** The lines of `text` the pattern matches, at most `max`; rejects with `MatchAborted` once stopped. */
  match(text: string, max: number): Promise<LineHit[]> {
    if (this.signal?.aborted) return Promise.reject(new MatchAborted());
    const worker = this.start();
    return new Promise<LineHit[]>((resolve, reject) => {
      this.pending = { resolve, reject };
      worker.postMessage({ text, max });
    });
  }

  /** Ends the worker (terminated mid-match if need be). */
  close(): void {
    this.signal?.removeEventListener('abort', this.onAbort);
    void this.worker?.terminate();
    this.worker = undefined;
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { source: this.regex.source, flags: this.regex.flags } });
    worker.on('message', (hits: LineHit[]) => {
      const p = this.pending;
      this.pending = undefined;
      p?.resolve(hits);
    });
    worker.on('error', (error) => this.fail(error));
    worker.on('exit', () => this.fail(new Error('the search worker exited')));
    this.worker = worker;
    return worker;
  }

  private fail(error: Error): void {
    const p = this.pending;
    this.pending = undefined;
    if (error instanceof MatchAborted) this.close();
    p?.reject(error);
  }
}
