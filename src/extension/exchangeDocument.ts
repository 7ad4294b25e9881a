import * as vscode from 'vscode';
import type { ArchiveBrowser } from '../engine/archiveBrowser';
import type { Disposable } from './disposableStore';
import { ARCHIVE_SCHEME, exchangeDocumentPath, parseExchangeDocumentPath } from './archiveTreeModel';
import { exchangeMarkdown } from './exchangeMarkdown';

/**
 * Archived exchanges as read-only Markdown documents (`strata-archive:/<session>/e<seq>.md`):
 * a content provider's documents cannot be edited or saved by mistake.
 */
export class ExchangeDocument implements vscode.TextDocumentContentProvider, Disposable {
  private readonly registration = vscode.workspace.registerTextDocumentContentProvider(ARCHIVE_SCHEME, this);

  constructor(private readonly browser: () => ArchiveBrowser | undefined) {}

  provideTextDocumentContent(uri: vscode.Uri): string {
    const target = parseExchangeDocumentPath(uri.path);
    if (!target) return `# Not an archived exchange\n\n${uri.toString()} does not name one.\n`;
    const browser = this.browser();
    if (!browser) return '# The archive is not available\n\nOutput > Strata says why.\n';
    try {
      const exchange = browser.get(target.sessionId, target.seq);
      if (exchange) return exchangeMarkdown(exchange);
      return `# Not in the archive\n\nExchange e${target.seq} of session ${target.sessionId} is not in the archive (the session may have been deleted).\n`;
    } catch (error) {
      return `# The exchange could not be read\n\n${error instanceof Error ? error.message : String(error)}\n`;
    }
  }

  async open(sessionId: string, seq: number): Promise<void> {
    const uri = vscode.Uri.from({ scheme: ARCHIVE_SCHEME, path: exchangeDocumentPath(sessionId, seq) });
    const document = await vscode.languages.setTextDocumentLanguage(await vscode.workspace.openTextDocument(uri), 'markdown');
    await vscode.window.showTextDocument(document, { preview: true });
  }

  dispose(): void {
    this.registration.dispose();
  }
}
