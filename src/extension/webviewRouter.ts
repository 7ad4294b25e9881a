import type { Logger } from '../engine/ports';
import type { MentionItem } from '../shared/mentionItems';
import type { HostToWebview, WebviewToHost } from '../shared/webviewMessages';
import type { ChatController } from './chatController';
import type { SettingsHandler } from './settingsHandler';

/** Where each kind of webview message goes; extension.ts supplies the editor-backed parts. */
export interface WebviewRoutes {
  chat: Pick<ChatController, 'handle' | 'pendingApproval'>;
  settings: Pick<SettingsHandler, 'handle'>;
  /** The `@`-mention list for a query (mentionSearch.ts). */
  searchMentions(query: string): Promise<MentionItem[]>;
  /** Opens the diff of a pending write/edit (proposedDiff.ts). */
  showDiff(tool: string, input: unknown): Promise<void>;
  send(message: HostToWebview): void;
  logger: Logger;
}

/**
 * Sends each validated webview message to its handler: settings to the settings panel's
 * handler, mention queries to the file search, "Show diff" to the diff editor, the rest to the
 * ChatController. Keeps the controller about chat turns only.
 */
export function webviewRouter(routes: WebviewRoutes): (message: WebviewToHost) => void {
  const failed = (what: string) => (error: unknown) => routes.logger.error(`${what}: ${error instanceof Error ? error.message : String(error)}`);
  return (message) => {
    switch (message.type) {
      case 'settings/get':
      case 'settings/update':
        routes.settings.handle(message).catch(failed(message.type));
        return;
      case 'mentions/query':
        routes.searchMentions(message.query).then(
          (items) => routes.send({ type: 'mentions/results', requestId: message.requestId, items }),
          (error: unknown) => {
            failed('mentions/query')(error);
            routes.send({ type: 'mentions/results', requestId: message.requestId, items: [] });
          },
        );
        return;
      case 'approval/showDiff': {
        const pending = routes.chat.pendingApproval(message.requestId);
        if (!pending) {
          routes.logger.warn(`approval ${message.requestId} is not open; no diff to show`);
          return;
        }
        routes.showDiff(pending.tool, pending.input).catch(failed('approval/showDiff'));
        return;
      }
      default:
        routes.chat.handle(message);
    }
  };
}
