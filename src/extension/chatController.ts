import type { Logger } from '../engine/ports';
import type { ApiKeySource, HostToWebview, WebviewToHost } from '../shared/webviewMessages';
import type { ClampedSettings } from './clampSettings';

/** What the controller needs from the host; the view provider and extension.ts supply it. */
export interface ChatHost {
  send(message: HostToWebview): void;
  apiKeySource(): Promise<ApiKeySource>;
  runCommand(command: string): void;
  newSessionId(): string;
  logger: Logger;
}

/** Shown when a message is sent before the Task loop is wired in: honest, no made-up answer. */
export const CHAT_UNAVAILABLE =
  'Chat is not available yet in this build: the Task loop that talks to the model is not wired into the extension. Your message was not sent anywhere.';

/**
 * Thin coordinator between the webview and the (future) Task loop: it routes validated
 * webview messages, owns one AbortController per running request (Stop), and pushes
 * settings, key status and storage status. It never holds the webview itself.
 */
export class ChatController {
  private sessionId: string;
  private readonly running = new Map<string, AbortController>();

  constructor(private readonly host: ChatHost) {
    this.sessionId = host.newSessionId();
  }

  get currentSessionId(): string {
    return this.sessionId;
  }

  handle(message: WebviewToHost): void {
    switch (message.type) {
      case 'webview/ready':
        this.host.send({ type: 'session/started', sessionId: this.sessionId });
        void this.pushApiKeyStatus();
        return;
      case 'chat/send':
        void this.startTurn(message.requestId);
        return;
      case 'chat/stop':
        this.running.get(message.requestId)?.abort();
        return;
      case 'session/new':
        this.newSession(message.requestId);
        return;
      case 'command/run':
        this.host.runCommand(message.command);
        return;
    }
  }

  /** Starts an empty session: stops whatever runs and tells the webview to clear its list. */
  newSession(requestId?: string): void {
    for (const controller of this.running.values()) controller.abort();
    this.running.clear();
    this.sessionId = this.host.newSessionId();
    this.host.logger.info(`session ${this.sessionId} started`);
    this.host.send(requestId ? { type: 'session/started', requestId, sessionId: this.sessionId } : { type: 'session/started', sessionId: this.sessionId });
  }

  pushSettings(settings: ClampedSettings): void {
    this.host.send({ type: 'settings/changed', engine: settings.engine, model: settings.model });
  }

  async pushApiKeyStatus(): Promise<void> {
    this.host.send({ type: 'apiKey/status', source: await this.host.apiKeySource() });
  }

  private async startTurn(requestId: string): Promise<void> {
    const abort = new AbortController();
    this.running.set(requestId, abort);
    try {
      if ((await this.host.apiKeySource()) === 'none') {
        this.host.send({ type: 'chat/error', requestId, code: 'no_api_key', message: 'No API key: run "Strata: Set API Key" or set ANTHROPIC_API_KEY, then send again.' });
        return;
      }
      // The Task loop (src/task) plugs in here: task.send(text, abort.signal) with its events
      // mapped to chat/textDelta, chat/toolCall, chat/toolResult, chat/turnDone, chat/engineEvent.
      this.host.send({ type: 'chat/error', requestId, code: 'chat_unavailable', message: CHAT_UNAVAILABLE });
    } finally {
      this.running.delete(requestId);
      this.host.send({ type: 'chat/idle', requestId });
    }
  }
}
