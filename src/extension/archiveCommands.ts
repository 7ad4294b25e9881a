import { homedir } from 'node:os';
import * as vscode from 'vscode';
import type { ArchiveBrowser, ArchivedSessionInfo } from '../engine/archiveBrowser';
import type { ArchiveCommandId } from './commandIds';
import type { ChatController } from './chatController';
import { searchPickRow, sessionIdOf, sessionLabel, sessionPickRow } from './archiveTreeModel';
import type { ArchiveTreeProvider } from './archiveTreeProvider';
import type { ExchangeDocument } from './exchangeDocument';
import { sessionMarkdown } from './exchangeMarkdown';
import { openArchivedSession } from './openArchivedSession';
import { writePrivateFile } from '../adapters/privateFiles';
import { loadSession, sessionJsonl } from './sessionExport';
import { sessionHistory } from './sessionHistory';
import type { ConfirmStop } from './stopQuestion';

export interface ArchiveCommandDeps {
  /** The open archive, or why there is none (a message that says what to do). */
  browser(): { ok: true; browser: ArchiveBrowser } | { ok: false; message: string };
  chat: ChatController;
  tree: ArchiveTreeProvider;
  documents: ExchangeDocument;
  confirmStop: ConfirmStop;
}

/** Most search hits listed at once. */
const SEARCH_LIMIT = 50;
/** Pause after the last keystroke before searching, ms. */
const SEARCH_DEBOUNCE_MS = 150;

/**
 * The archive's commands: open an exchange, search, delete or export a session, and Open Session
 * (resume it in the chat). Each takes a session from the tree's context menu or asks for one.
 * Every archive failure becomes an error message that says what happened; nothing is half-done
 * (a delete is one transaction).
 */
export function archiveCommandHandlers(deps: ArchiveCommandDeps): Record<ArchiveCommandId, (...args: unknown[]) => unknown> {
  /** Runs `work` with the archive, reporting its absence or failure to the user. */
  const withArchive = async (work: (browser: ArchiveBrowser) => Promise<unknown>): Promise<void> => {
    const archive = deps.browser();
    if (!archive.ok) {
      void vscode.window.showErrorMessage(`Strata: ${archive.message}`);
      return;
    }
    try {
      await work(archive.browser);
    } catch (error) {
      void vscode.window.showErrorMessage(`Strata: ${error instanceof Error ? error.message : String(error)}`);
    }
  };

  return {
    'strata.archive.refresh': () => deps.tree.refresh(),
    'strata.archive.openExchange': (sessionId, seq) =>
      withArchive(async () => {
        if (typeof sessionId !== 'string' || typeof seq !== 'number') throw new Error('Open an exchange from the Archive view or through Search Archive.');
        await deps.documents.open(sessionId, seq);
      }),
    'strata.archive.search': () => withArchive((browser) => searchArchive(browser, deps.documents)),
    'strata.archive.deleteSession': (arg) =>
      withArchive(async (browser) => {
        const session = await chooseSession(browser, arg, 'Delete which archived session?');
        if (!session) return;
        if (session.id === deps.chat.currentSessionId) {
          void vscode.window.showWarningMessage(`Strata: "${sessionLabel(session)}" is the session the chat is using now, so it cannot be deleted. Start a new session (Strata: New Session), then delete it.`);
          return;
        }
        const answer = await vscode.window.showWarningMessage(
          `Delete "${sessionLabel(session)}" from the archive?`,
          { modal: true, detail: `Its ${session.exchanges} exchange(s) will be removed from ${browser.path}. This cannot be undone; export it first to keep a copy.` },
          'Delete',
        );
        if (answer !== 'Delete') return;
        const deleted = browser.deleteSession(session.id);
        deps.tree.refresh();
        void vscode.window.showInformationMessage(`Strata: deleted "${sessionLabel(session)}" (${deleted.exchanges} exchange(s)).`);
      }),
    'strata.archive.exportSession': (arg) =>
      withArchive(async (browser) => {
        const session = await chooseSession(browser, arg, 'Export which archived session?');
        if (!session) return;
        const format = await vscode.window.showQuickPick(
          [
            { label: 'Markdown', description: 'to read: messages, tool calls and results', ext: 'md' },
            { label: 'JSON Lines', description: 'the session file format: `strata replay` replays it', ext: 'jsonl' },
          ],
          { title: `Export "${sessionLabel(session)}"`, placeHolder: 'Format' },
        );
        if (!format) return;
        const folder = vscode.workspace.workspaceFolders?.[0]?.uri ?? vscode.Uri.file(homedir());
        const target = await vscode.window.showSaveDialog({
          defaultUri: vscode.Uri.joinPath(folder, `${session.id}.${format.ext}`),
          filters: format.ext === 'md' ? { Markdown: ['md'] } : { 'JSON Lines': ['jsonl'] },
          saveLabel: 'Export',
        });
        if (!target) return;
        const exchanges = loadSession(browser, session.id);
        const text = format.ext === 'md' ? sessionMarkdown(session, exchanges) : sessionJsonl(session.id, exchanges);
        // A file on disk is written 0600 (it holds what the session's tools printed); another scheme goes through the editor.
        if (target.scheme === 'file') writePrivateFile(target.fsPath, text);
        else await vscode.workspace.fs.writeFile(target, Buffer.from(text, 'utf8'));
        void vscode.window.showInformationMessage(`Strata: exported ${exchanges.length} exchange(s) to ${target.fsPath}.`);
      }),
    'strata.openSession': (arg) =>
      withArchive(async (browser) => {
        const session = await chooseSession(browser, arg, 'Open which session in the chat?');
        if (!session) return;
        const outcome = await openArchivedSession(deps.chat, session, {
          history: () => sessionHistory(loadSession(browser, session.id)),
          confirmStop: deps.confirmStop,
        });
        if (outcome !== 'cancelled') await vscode.commands.executeCommand('strata.chat.focus');
      }),
  };
}

/** The session a context menu named, else one the user picks (newest first); undefined when cancelled. */
async function chooseSession(browser: ArchiveBrowser, arg: unknown, title: string): Promise<ArchivedSessionInfo | undefined> {
  const sessions = browser.sessions();
  const id = sessionIdOf(arg);
  if (id !== undefined) {
    const found = sessions.find((s) => s.id === id);
    if (!found) throw new Error(`Session ${id} is not in the archive (it may have been deleted); refresh the Archive view.`);
    return found;
  }
  if (sessions.length === 0) {
    void vscode.window.showInformationMessage('Strata: the archive holds no session yet. Chat in the Strata view: each exchange is archived.');
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    sessions.map((s) => ({ ...sessionPickRow(s), session: s })),
    { title, placeHolder: 'Type to filter by title', matchOnDescription: true, matchOnDetail: true },
  );
  return picked?.session;
}

/** A QuickPick that runs an FTS search as the user types; accepting a hit opens its exchange. */
async function searchArchive(browser: ArchiveBrowser, documents: ExchangeDocument): Promise<void> {
  const titles = new Map(browser.sessions().map((s) => [s.id, s.title]));
  const pick = vscode.window.createQuickPick<vscode.QuickPickItem & { sessionId: string; seq: number }>();
  pick.title = 'Search the archive';
  pick.placeholder = 'Words to find in any session (headers, summaries, messages, tool output)';
  pick.matchOnDescription = true;
  pick.matchOnDetail = true;
  let timer: NodeJS.Timeout | undefined;
  const run = (query: string) => {
    try {
      const hits = browser.searchAll(query, SEARCH_LIMIT);
      // alwaysShow: the QuickPick's own filter must not hide hits FTS found by stem or body text.
      pick.items = hits.map((h) => ({ ...searchPickRow(h, titles), alwaysShow: true, sessionId: h.sessionId, seq: h.seq }));
      pick.placeholder = query.trim() === '' || hits.length > 0 ? pick.placeholder : `Nothing archived matches "${query.trim()}"`;
    } catch (error) {
      pick.items = [];
      void vscode.window.showErrorMessage(`Strata: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      pick.busy = false;
    }
  };
  const done = new Promise<void>((resolve) => {
    pick.onDidChangeValue((value) => {
      clearTimeout(timer);
      pick.busy = true;
      timer = setTimeout(() => run(value), SEARCH_DEBOUNCE_MS);
    });
    pick.onDidAccept(() => {
      const item = pick.selectedItems[0];
      pick.hide();
      if (item) void documents.open(item.sessionId, item.seq);
    });
    pick.onDidHide(() => {
      clearTimeout(timer);
      pick.dispose();
      resolve();
    });
  });
  pick.show();
  await done;
}

