import type { Logger } from '../engine/ports';
import { hostToWebviewSchema, parseWebviewToHost, type HostToWebview, type WebviewToHost } from '../shared/webviewMessages';

/** Posts one message to the webview; resolves false when the webview is gone. */
export type PostMessage = (message: HostToWebview) => PromiseLike<boolean>;

/** Messages kept while the webview is loading; beyond this the oldest are dropped. */
const MAX_QUEUED = 500;

/**
 * The host's end of the webview conversation. Outbound messages wait in a queue until the
 * webview says `webview/ready` (a webview drops what arrives before its script runs);
 * inbound ones are `safeParse`d and invalid ones dropped with a logged reason.
 * No `vscode` import: the view provider hands it `webview.postMessage`.
 */
export class WebviewChannel {
  private queue: HostToWebview[] = [];
  private ready = false;

  constructor(
    private readonly post: PostMessage,
    private readonly handle: (message: WebviewToHost) => void,
    private readonly logger: Logger,
  ) {}

  /** Sends now if the webview is ready, else queues. Invalid outbound messages are a bug: thrown. */
  send(message: HostToWebview): void {
    const checked = hostToWebviewSchema.safeParse(message);
    if (!checked.success) throw new Error(`Strata tried to send an invalid ${message.type} message to the webview: ${checked.error.message}`);
    if (!this.ready) {
      this.queue.push(message);
      if (this.queue.length > MAX_QUEUED) this.queue.shift();
      return;
    }
    this.deliver(message);
  }

  /** Entry point for `webview.onDidReceiveMessage`. */
  receive(raw: unknown): void {
    const parsed = parseWebviewToHost(raw);
    if (!parsed.ok) {
      this.logger.warn(`webview: ${parsed.reason}`);
      return;
    }
    if (parsed.message.type === 'webview/ready') {
      this.ready = true;
      const pending = this.queue;
      this.queue = [];
      for (const m of pending) this.deliver(m);
    }
    this.handle(parsed.message);
  }

  /** The webview was reloaded or hidden with its context dropped: queue again until it is ready. */
  reset(): void {
    this.ready = false;
  }

  private deliver(message: HostToWebview): void {
    Promise.resolve(this.post(message)).then(
      (delivered) => {
        if (!delivered) this.logger.warn(`webview: ${message.type} was not delivered (the view is closed)`);
      },
      (error: unknown) => this.logger.warn(`webview: posting ${message.type} failed: ${String(error)}`),
    );
  }
}
