import * as vscode from 'vscode';
import { newSessionId } from '../host/newSessionId';
import { ApiKeyStore } from './apiKeyStore';
import { type ArchiveOpenResult, openArchive } from './archiveStatus';
import { ARCHIVE_VIEW_ID, ArchiveTreeProvider } from './archiveTreeProvider';
import { ChatController } from './chatController';
import { CHAT_VIEW_ID, ChatViewProvider } from './chatViewProvider';
import { registerCommands } from './commands';
import { StrataConfig } from './config';
import { DisposableStore } from './disposableStore';
import { ExchangeDocument } from './exchangeDocument';
import { LastRequestDocument } from './lastRequestDocument';
import { searchMentions } from './mentionSearch';
import { importSessionCommand } from './importSessionCommand';
import { createOutputLogger } from './outputLogger';
import { ProposedDiff } from './proposedDiff';
import { sessionOpener } from './sessionOpener';
import { SettingsHandler } from './settingsHandler';
import { StrataStatusBar } from './statusBar';
import { webviewRouter } from './webviewRouter';

/** Everything activate() creates; disposed in reverse order by deactivate(). */
let store: DisposableStore | undefined;
let chat: ChatController | undefined;

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
  const storageDir = context.globalStorageUri.fsPath;
  // The archive the browser reads (the chat's session opens its own connection to the same file).
  let archive: ArchiveOpenResult | undefined;
  const browser = () => (archive?.ok ? archive.store : undefined);
  let tree: ArchiveTreeProvider | undefined;
  chat = new ChatController({
    send: (message) => view?.send(message),
    apiKeySource: () => apiKeys.source(),
    runCommand: (command) => void vscode.commands.executeCommand(command),
    newSessionId: () => newSessionId(Date.now()),
    openSession: sessionOpener({ config, apiKeys, storageDir, logger }),
    autoApprove: () => ({ writes: config.settings.model.autoApproveWrites, commands: config.settings.model.autoApproveCommands }),
    showUsage: (usage) => statusBar.showUsage(usage),
    exchangeArchived: () => tree?.refresh(),
    logger,
  });
  const c = chat;
  const send = (message: Parameters<ChatViewProvider['send']>[0]) => view?.send(message);
  const settingsPanel = new SettingsHandler(config.access, send, logger);
  const diff = s.add(new ProposedDiff());
  const route = webviewRouter({ chat: c, settings: settingsPanel, searchMentions: (query) => searchMentions(query), showDiff: (tool, input) => diff.show(tool, input), send, logger });
  view = s.add(new ChatViewProvider(context.extensionUri, route, logger));
  s.add(vscode.window.registerWebviewViewProvider(CHAT_VIEW_ID, view, { webviewOptions: { retainContextWhenHidden: true } }));

  c.pushSettings(config.settings);
  // New settings or a new key apply from the next message: the session is reopened (resumed) then.
  s.add(
    config.onDidChange((settings) => {
      c.pushSettings(settings);
      settingsPanel.pushSnapshot();
      c.invalidateSession();
    }),
  );
  s.add(
    apiKeys.onDidChange(() => {
      void c.pushApiKeyStatus();
      c.invalidateSession();
    }),
  );

  let archiveView: vscode.TreeView<unknown> | undefined;
  const t = s.add(
    new ArchiveTreeProvider(browser, (message) => {
      if (message) logger.error(`archive view: ${message}`);
      if (archiveView && archive?.ok) archiveView.message = message;
    }),
  );
  tree = t;
  archiveView = s.add(vscode.window.createTreeView(ARCHIVE_VIEW_ID, { treeDataProvider: t, showCollapseAll: true }));
  const lastRequest = s.add(new LastRequestDocument());
  const documents = s.add(new ExchangeDocument(browser));
  const archiveState = () => {
    if (archive?.ok) return { ok: true as const, browser: archive.store };
    return { ok: false as const, message: archive?.message ?? 'The archive is still opening; try again in a moment.' };
  };
  const showSettingsPanel = async () => {
    await vscode.commands.executeCommand(`${CHAT_VIEW_ID}.focus`);
    view?.send({ type: 'settings/show' });
  };
  const importSession = importSessionCommand({
    storageDir,
    settings: () => config.explicitEngineSettings(),
    logger,
    onImported: () => t.refresh(),
  });
  registerCommands(s, { chat: c, apiKeys, lastRequest, extensionId: context.extension.id, showSettingsPanel, importSession, archive: { browser: archiveState, chat: c, tree: t, documents } });

  // Opened here, inside a try, to say at once whether SQLite loads in this editor; kept open for
  // the archive view. Each chat session opens the same file for itself (openTaskSession).
  archive = await openArchive(storageDir, logger);
  view.send({ type: 'storage/status', ok: archive.ok, message: archive.message });
  if (archive.ok) {
    const opened = archive.store;
    s.add({ dispose: () => opened.close() });
    t.refresh();
  } else {
    archiveView.message = archive.message;
    statusBar.showIdle('archive unavailable, see Output > Strata');
    void vscode.window.showWarningMessage(`Strata: ${archive.message}`);
  }
  logger.info(`activated (session ${c.currentSessionId})`);
}

/** Stops a running turn and closes the session (its archive) before the rest is disposed. */
export async function deactivate(): Promise<void> {
  await chat?.dispose();
  chat = undefined;
  store?.dispose();
  store = undefined;
}
