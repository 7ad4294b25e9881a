import * as vscode from 'vscode';
import type { ArchiveBrowser } from '../engine/archiveBrowser';
import type { Logger } from '../engine/ports';
import type { Disposable } from './disposableStore';
import { ARCHIVE_SCHEME, exchangeDocumentPath, parseExchangeDocumentPath } from './archiveTreeModel';
import { exchangeMarkdown } from './exchangeMarkdown';

/** The built-in Markdown extension's command: renders a document (any scheme) in a preview tab. */
const MARKDOWN_PREVIEW = 'markdown.showPreview';

/**
 * Archived exchanges as read-only Markdown documents (`strata-archive:/<session>/e<seq>.md`):
 * a content provider's documents cannot be edited or saved by mistake.
 */
export class ExchangeDocument implements vscode.TextDocumentContentProvider, Disposable {
  private readonly registration = vscode.workspace.registerTextDocumentContentProvider(ARCHIVE_SCHEME, this);

  constructor(
    private readonly browser: () => ArchiveBrowser | undefined,
    private readonly logger: Logger,
  ) {}

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

  /**
   * Opens the exchange rendered (the built-in Markdown preview, whose "Open Source" shows the
   * text); as a read-only Markdown editor when the preview is not available (the Markdown
   * extension disabled).
   */
  async open(sessionId: string, seq: number): Promise<void> {
    const uri = vscode.Uri.from({ scheme: ARCHIVE_SCHEME, path: exchangeDocumentPath(sessionId, seq) });
    const document = await vscode.languages.setTextDocumentLanguage(await vscode.workspace.openTextDocument(uri), 'markdown');
    try {
      // Not looked up in getCommands(): the Markdown extension registers it only once activated, which this call does.
      await vscode.commands.executeCommand(MARKDOWN_PREVIEW, uri);
      return;
    } catch (error) {
      this.logger.warn(`the Markdown preview did not open ${uri.toString()} (${error instanceof Error ? error.message : String(error)}); showing the Markdown text`);
    }
    await vscode.window.showTextDocument(document, { preview: true });
  }

  dispose(): void {
    this.registration.dispose();
  }
}
