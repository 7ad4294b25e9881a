import * as vscode from 'vscode';
import type { ArchiveBrowser } from '../engine/archiveBrowser';
import { type DebounceDelays, Debouncer } from './debouncer';
import type { Disposable } from './disposableStore';
import { type ArchiveNode, exchangeNodes, sessionNodes, treeRow } from './archiveTreeModel';

/** Id of the archive tree view in package.json `contributes.views`. */
export const ARCHIVE_VIEW_ID = 'strata.archive';

/** The command a click on an exchange runs (arguments: session id, seq). */
export const OPEN_EXCHANGE_COMMAND = 'strata.archive.openExchange';

/**
 * Archived exchanges refresh the tree at most this often: once 1 s after the last of a burst, and
 * during a long run of tool rounds at least every 5 s.
 */
const EXCHANGE_REFRESH: DebounceDelays = { quietMs: 1_000, maxWaitMs: 5_000 };

/**
 * The archive tree: sessions (newest first), then their exchanges (label = header, tooltip =
 * summary, description = time). A click on an exchange opens it as a read-only Markdown
 * document. `refresh()` re-reads the archive at once (an import, a delete, the Refresh button);
 * `refreshSoon()` once for a burst of archived exchanges.
 */
export class ArchiveTreeProvider implements vscode.TreeDataProvider<ArchiveNode>, Disposable {
  private readonly changed = new vscode.EventEmitter<ArchiveNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;

  /**
   * `browser` is undefined while the archive cannot open (the view's message says why);
   * `onStatus` gets a read failure's message (which says what to do), and undefined once the
   * sessions read again.
   */
  constructor(
    private readonly browser: () => ArchiveBrowser | undefined,
    private readonly onStatus: (message: string | undefined) => void,
  ) {}

  private readonly soon = new Debouncer(() => this.changed.fire(undefined), EXCHANGE_REFRESH);

  refresh(): void {
    this.soon.cancel(); // this refresh covers a pending one
    this.changed.fire(undefined);
  }

  refreshSoon(): void {
    this.soon.schedule();
  }

  getTreeItem(node: ArchiveNode): vscode.TreeItem {
    const row = treeRow(node);
    const item = new vscode.TreeItem(row.label, row.collapsible ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
    item.id = row.id;
    item.description = row.description;
    item.tooltip = row.tooltip;
    item.contextValue = row.contextValue;
    item.iconPath = new vscode.ThemeIcon(node.kind === 'session' ? 'comment-discussion' : 'note');
    if (node.kind === 'exchange') {
      item.command = { command: OPEN_EXCHANGE_COMMAND, title: 'Open Exchange', arguments: [node.exchange.sessionId, node.exchange.seq] };
    }
    return item;
  }

  getChildren(node?: ArchiveNode): ArchiveNode[] {
    const browser = this.browser();
    if (!browser || node?.kind === 'exchange') return [];
    try {
      if (node) return exchangeNodes(browser.exchanges(node.session.id));
      const sessions = sessionNodes(browser.sessions());
      this.onStatus(undefined);
      return sessions;
    } catch (error) {
      this.onStatus(error instanceof Error ? error.message : String(error));
      return [];
    }
  }

  dispose(): void {
    this.soon.dispose();
    this.changed.dispose();
  }
}
