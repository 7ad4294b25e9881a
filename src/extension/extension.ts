import './zodJitless';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { JsonFileState } from '../adapters/jsonFileState';
import { newSessionId } from '../host/newSessionId';
import { ApiKeyStore } from './apiKeyStore';
import type { ArchiveBrowser } from '../engine/archiveBrowser';
import { openArchive, openArchiveBrowser } from './archiveStatus';
import { ARCHIVE_VIEW_ID, ArchiveTreeProvider } from './archiveTreeProvider';
import { ChatController } from './chatController';
import { chatStatePath } from './chatStatePath';
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
import { restoreLastSession } from './openArchivedSession';
import { SessionMemory } from './sessionMemory';
import { sessionOpener } from './sessionOpener';
import { SettingsHandler } from './settingsHandler';
import { StrataStatusBar } from './statusBar';
import type { ConfirmStop } from './stopQuestion';
import { TerminalHistory } from './terminalHistory';
import { watchTerminals } from './terminalWatcher';
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
  // A probe: SQLite is opened and closed again, to say at once which driver works here (else the
  // plain-file fallback stands in; strata.archive.driver applies from the next activation). Each chat session then opens the chosen store for itself.
  const archiveProbe = openArchive(storageDir, logger, { driver: config.settings.archiveDriver });
  // A conservative token estimate (code runs about 3-4 characters a token); the Task caps it again.
  const terminal = new TerminalHistory((text) => Math.ceil(text.length / 3));
  s.add(watchTerminals(terminal, logger));
  // The archive the browser reads: its own connection to the archive file (each chat session opens another).
  let browsing: { ok: true; browser: ArchiveBrowser } | { ok: false; message: string } = { ok: false, message: 'The archive is still opening; try again in a moment.' };
  const browser = () => (browsing.ok ? browsing.browser : undefined);
  let tree: ArchiveTreeProvider | undefined;
  const confirmStop: ConfirmStop = async (q) => (await vscode.window.showWarningMessage(q.message, { modal: true, detail: q.detail }, q.confirm)) === q.confirm;
  chat = new ChatController({
    send: (message) => view?.send(message),
    apiKeySource: () => apiKeys.source(),
    runCommand: (command) => void vscode.commands.executeCommand(command),
    newSessionId: () => newSessionId(Date.now()),
    openSession: sessionOpener({ config, apiKeys, storageDir, archive: () => archiveProbe, terminal, logger }),
    autoApprove: () => ({ writes: config.settings.model.autoApproveWrites, commands: config.settings.model.autoApproveCommands }),
    showUsage: (usage) => statusBar.showUsage(usage),
    exchangeArchived: () => tree?.refreshSoon(),
    confirmStop,
    // A file per workspace (written at once) when a folder is open, else workspaceState.
    memory: new SessionMemory(workspaceChatState(context) ?? context.workspaceState, context.globalState, logger),
    logger,
  });
  const c = chat;
  const send = (message: Parameters<ChatViewProvider['send']>[0]) => view?.send(message);
  const settingsPanel = new SettingsHandler(config.access, send, logger);
  const diff = s.add(new ProposedDiff());
  const route = webviewRouter({ chat: c, settings: settingsPanel, searchMentions: (query) => searchMentions(query), showDiff: (tool, input) => diff.show(tool, input), send, logger });
  view = s.add(new ChatViewProvider(context.extensionUri, route, logger));
  s.add(vscode.window.registerWebviewViewProvider(CHAT_VIEW_ID, view, { webviewOptions: { retainContextWhenHidden: true } }));

  c.pushSettings(config.settings, config.explicitEngineSettings());
  // New settings or a new key apply from the next message: the session is reopened (resumed) then.
  s.add(
    config.onDidChange((settings) => {
      c.pushSettings(settings, config.explicitEngineSettings());
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
      if (archiveView && browsing.ok) archiveView.message = message;
    }),
  );
  tree = t;
  archiveView = s.add(vscode.window.createTreeView(ARCHIVE_VIEW_ID, { treeDataProvider: t, showCollapseAll: true }));
  const lastRequest = s.add(new LastRequestDocument());
  const documents = s.add(new ExchangeDocument(browser, logger));
  const archiveState = () => browsing;
  const showSettingsPanel = async () => {
    await vscode.commands.executeCommand(`${CHAT_VIEW_ID}.focus`);
    view?.send({ type: 'settings/show' });
  };
  const importSession = importSessionCommand({
    storageDir,
    archive: () => archiveProbe,
    settings: () => config.explicitEngineSettings(),
    logger,
    redaction: async () => {
      const key = await apiKeys.get();
      return { secrets: key ? [key.key] : [], redactSecrets: config.settings.model.redactSecrets };
    },
    onImported: () => t.refresh(),
  });
  registerCommands(s, { chat: c, apiKeys, lastRequest, extensionId: context.extension.id, showSettingsPanel, importSession, archive: { browser: archiveState, chat: c, tree: t, documents, confirmStop } });

  const archive = await archiveProbe;
  view.send({ type: 'storage/status', ok: archive.ok, message: archive.message, ...(archive.ok && archive.fallback ? { fallback: true } : {}) });
  browsing = openArchiveBrowser(archive, logger);
  // The view's title line names the store in use: SQLite (node:sqlite), SQLite (better-sqlite3), plain file.
  if (archive.ok) archiveView.description = archive.backend.label;
  if (browsing.ok) {
    const opened = browsing.browser;
    s.add({ dispose: () => opened.close() });
    t.refresh();
    // After a reload or a restart the chat goes back to the session the user was in.
    restoreLastSession(c, opened, logger);
  } else if (archive.ok) {
    archiveView.message = browsing.message;
  }
  if (!archive.ok) {
    archiveView.message = archive.message;
    statusBar.showIdle('archive unavailable, see Output > Strata');
    void vscode.window.showWarningMessage(`Strata: ${archive.message}`);
  } else if (archive.fallback) {
    // Said once per activation (the Output channel has the loader's full error).
    void vscode.window.showWarningMessage(`Strata: ${archive.message}`);
  } else if (archive.notice) {
    void vscode.window.showWarningMessage(`Strata: ${archive.notice}`);
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

/** The chat's per-workspace state file (see chatStatePath.ts); the one an earlier version kept in the workspace storage folder is read until the first write. */
function workspaceChatState(context: vscode.ExtensionContext): JsonFileState | undefined {
  const path = chatStatePath(context.globalStorageUri.fsPath, {
    ...(vscode.workspace.workspaceFile ? { file: vscode.workspace.workspaceFile.toString() } : {}),
    folders: (vscode.workspace.workspaceFolders ?? []).map((folder) => folder.uri.toString()),
  });
  if (!path) return undefined;
  return new JsonFileState(path, context.storageUri ? join(context.storageUri.fsPath, 'chat-state.json') : undefined);
}
