import * as vscode from 'vscode';
import type { ApiKeyStore } from './apiKeyStore';
import { archiveCommandHandlers, type ArchiveCommandDeps } from './archiveCommands';
import type { ChatController } from './chatController';
import { COMMAND_IDS, type CommandId } from './commandIds';
import type { DisposableStore } from './disposableStore';
import type { LastRequestDocument } from './lastRequestDocument';

export function registerCommands(
  store: DisposableStore,
  deps: {
    chat: ChatController;
    apiKeys: ApiKeyStore;
    lastRequest: LastRequestDocument;
    extensionId: string;
    showSettingsPanel(): Promise<void>;
    importSession: () => Promise<void>;
    archive: ArchiveCommandDeps;
  },
): void {
  const handlers: Record<CommandId, (...args: unknown[]) => unknown> = {
    ...archiveCommandHandlers(deps.archive),
    'strata.newSession': async () => {
      await deps.chat.newSession();
      await vscode.commands.executeCommand('strata.chat.focus');
    },
    'strata.condenseNow': () => condenseNow(deps.chat),
    'strata.setApiKey': () => deps.apiKeys.promptAndStore(),
    'strata.showLastRequest': () => {
      const last = deps.chat.lastRequest();
      if (!last) return vscode.window.showInformationMessage('Strata: no request has been sent in this session yet.');
      return deps.lastRequest.show(last.body);
    },
    // The view's gear opens the panel in the webview; the Settings editor stays one click away.
    'strata.openSettings': () => deps.showSettingsPanel(),
    'strata.openSettingsEditor': () => vscode.commands.executeCommand('workbench.action.openSettings', `@ext:${deps.extensionId}`),
    'strata.importSession': deps.importSession,
  };
  for (const id of COMMAND_IDS) store.add(vscode.commands.registerCommand(id, handlers[id]));
}

/** Condense Now under a cancellable notification; the outcome also shows as a row in the chat. */
async function condenseNow(chat: ChatController): Promise<void> {
  const outcome = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: 'Strata: condensing the conversation', cancellable: true },
    async (_progress, token) => {
      const abort = new AbortController();
      const sub = token.onCancellationRequested(() => abort.abort());
      try {
        return await chat.condenseNow(abort.signal);
      } finally {
        sub.dispose();
      }
    },
  );
  if (outcome.kind === 'no_session') void vscode.window.showInformationMessage('Strata: nothing to condense yet: no message has been sent in this session.');
  else if (outcome.kind === 'busy') void vscode.window.showInformationMessage('Strata: a turn is running; stop it or wait for its answer, then condense.');
}
