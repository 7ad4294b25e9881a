import * as vscode from 'vscode';

/** Id of the archive tree view in package.json `contributes.views`. */
export const ARCHIVE_VIEW_ID = 'strata.archive';

/**
 * The archive tree. Empty in this build: the view's `viewsWelcome` text (package.json) says
 * the browser is not available yet, and the view's message says whether the archive opened.
 */
export class ArchiveTreeProvider implements vscode.TreeDataProvider<never> {
  getTreeItem(element: never): vscode.TreeItem {
    return element;
  }

  getChildren(): never[] {
    return [];
  }
}
