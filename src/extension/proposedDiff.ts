import { posix } from 'node:path';
import * as vscode from 'vscode';
import type { Disposable } from './disposableStore';
import { diffTarget, proposedContent } from './proposedContent';

const SCHEME = 'strata-proposed';

/**
 * "Show diff" on a pending write or edit: VS Code's diff editor with the file as it is on the
 * left and what the call would make it on the right. The right side is a read-only virtual
 * document (this provider's scheme), so it cannot be saved by mistake; approving stays in the chat.
 */
export class ProposedDiff implements vscode.TextDocumentContentProvider, Disposable {
  private readonly texts = new Map<string, string>();
  private readonly registration = vscode.workspace.registerTextDocumentContentProvider(SCHEME, this);
  private counter = 0;

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '';
  }

  /** Opens the diff for a pending `tool` call with `input`; says why in a message when it cannot. */
  async show(tool: string, input: unknown): Promise<void> {
    const folder = vscode.workspace.workspaceFolders?.[0];
    const path = diffTarget(tool, input);
    if (!folder || path === undefined) {
      void vscode.window.showInformationMessage(`Strata: ${tool} does not change a file in the workspace, so there is no diff to show.`);
      return;
    }
    const rel = posix.normalize(path.replace(/\\/g, '/')).replace(/^\.\//, '');
    if (rel.startsWith('../') || rel === '..' || posix.isAbsolute(rel)) {
      void vscode.window.showWarningMessage(`Strata: ${path} is outside the workspace; the tool will refuse it, so there is no diff to show.`);
      return;
    }
    const file = vscode.Uri.joinPath(folder.uri, rel);
    const current = await readText(file);
    const proposed = proposedContent(tool, input, current);
    if (!proposed.ok) {
      void vscode.window.showWarningMessage(`Strata: ${proposed.message}`);
      return;
    }
    this.counter += 1;
    const right = this.remember(vscode.Uri.from({ scheme: SCHEME, path: `/${rel}`, query: `proposed-${this.counter}` }), proposed.text);
    const left = current === undefined ? this.remember(vscode.Uri.from({ scheme: SCHEME, path: `/${rel}`, query: `new-${this.counter}` }), '') : file;
    const title = `${rel} ${current === undefined ? '(new file)' : ''} ↔ proposed by Strata`.replace(/ {2}/, ' ');
    await vscode.commands.executeCommand('vscode.diff', left, right, title, { preview: true });
  }

  dispose(): void {
    this.registration.dispose();
    this.texts.clear();
  }

  private remember(uri: vscode.Uri, text: string): vscode.Uri {
    // Only the latest few diffs stay readable: each holds a whole file's text.
    if (this.texts.size >= 20) this.texts.delete(this.texts.keys().next().value!);
    this.texts.set(uri.toString(), text);
    return uri;
  }
}

/** The file's text as the tool will read it (from disk), or undefined when there is no such file. */
async function readText(uri: vscode.Uri): Promise<string | undefined> {
  try {
    return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  } catch {
    return undefined;
  }
}
