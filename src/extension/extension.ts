import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { ApiKeyStore } from './apiKeyStore';
import { openArchive } from './archiveStatus';
import { ARCHIVE_VIEW_ID, ArchiveTreeProvider } from './archiveTreeProvider';
import { ChatController } from './chatController';
import { CHAT_VIEW_ID, ChatViewProvider } from './chatViewProvider';
import { registerCommands } from './commands';
import { StrataConfig } from './config';
import { DisposableStore } from './disposableStore';
import { createOutputLogger } from './outputLogger';
import { StrataStatusBar } from './statusBar';

/** Everything activate() creates; disposed in reverse order by deactivate(). */
let store: DisposableStore | undefined;

/**
 * Wires the pieces: settings, API key, status bar, chat view, archive view, commands.
 * Must not throw for anything the user's machine can cause (a bad setting, a native module
 * that does not load): each such problem is reported and the rest keeps working.
 */
export async function activate(context: vscode.ExtensionContext): Promise<void> {
  store = new DisposableStore();
  const s = store;
  const logger = s.add(createOutputLogger());
  const config = s.add(new StrataConfig(logger));
  const apiKeys = new ApiKeyStore(context.secrets, process.env);
  const statusBar = s.add(new StrataStatusBar());

  let view: ChatViewProvider | undefined;
  const chat = new ChatController({
    send: (message) => view?.send(message),
    apiKeySource: () => apiKeys.source(),
    runCommand: (command) => void vscode.commands.executeCommand(command),
    newSessionId: () => randomUUID(),
    logger,
  });
  view = s.add(new ChatViewProvider(context.extensionUri, (message) => chat.handle(message), logger));
  s.add(vscode.window.registerWebviewViewProvider(CHAT_VIEW_ID, view, { webviewOptions: { retainContextWhenHidden: true } }));

  chat.pushSettings(config.settings);
  s.add(config.onDidChange((settings) => chat.pushSettings(settings)));
  s.add(apiKeys.onDidChange(() => void chat.pushApiKeyStatus()));

  const archiveView = s.add(vscode.window.createTreeView(ARCHIVE_VIEW_ID, { treeDataProvider: new ArchiveTreeProvider() }));
  registerCommands(s, { chat, apiKeys, extensionId: context.extension.id });

  const archive = await openArchive(context.globalStorageUri.fsPath, logger);
  view.send({ type: 'storage/status', ok: archive.ok, message: archive.message });
  if (archive.ok) {
    s.add({ dispose: () => archive.store.close() });
  } else {
    archiveView.message = archive.message;
    statusBar.showIdle('archive unavailable, see Output > Strata');
    void vscode.window.showWarningMessage(`Strata: ${archive.message}`);
  }
  logger.info(`activated (session ${chat.currentSessionId})`);
}

export function deactivate(): void {
  store?.dispose();
  store = undefined;
}
