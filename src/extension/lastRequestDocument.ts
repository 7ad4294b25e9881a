import * as vscode from 'vscode';
import type { Disposable } from './disposableStore';

const SCHEME = 'strata-request';

/**
 * "Strata: Show Last Request": the latest Messages API request body, as sent, in a read-only
 * JSON document (a content provider's documents cannot be edited or saved by mistake).
 */
export class LastRequestDocument implements vscode.TextDocumentContentProvider, Disposable {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  private readonly registration = vscode.workspace.registerTextDocumentContentProvider(SCHEME, this);
  private readonly uri = vscode.Uri.from({ scheme: SCHEME, path: '/last-request.json' });
  private text = '';

  readonly onDidChange = this.changed.event;

  provideTextDocumentContent(): string {
    return this.text;
  }

  /** Shows `body` (pretty JSON); the document is refreshed if it is already open. */
  async show(body: unknown): Promise<void> {
    this.text = `${JSON.stringify(body, null, 2)}\n`;
    this.changed.fire(this.uri);
    const document = await vscode.languages.setTextDocumentLanguage(await vscode.workspace.openTextDocument(this.uri), 'json');
    await vscode.window.showTextDocument(document, { preview: true });
  }

  dispose(): void {
    this.registration.dispose();
    this.changed.dispose();
  }
}
