import { randomInt } from 'node:crypto';
import * as vscode from 'vscode';
import type { Logger } from '../engine/ports';
import type { HostToWebview, WebviewToHost } from '../shared/webviewMessages';
import { DisposableStore, type Disposable } from './disposableStore';
import { WebviewChannel } from './webviewChannel';
import { makeNonce, webviewHtml } from './webviewHtml';

/** Id of the chat webview view in package.json `contributes.views`. */
export const CHAT_VIEW_ID = 'strata.chat';

/**
 * Hosts the React chat app (dist/webview/) in the sidebar. Resources load only from
 * dist/webview (bundle, styles, codicons); messages go through a `WebviewChannel`, which
 * queues until `webview/ready` and validates what comes back. The provider holds the view;
 * the ChatController never does.
 */
export class ChatViewProvider implements vscode.WebviewViewProvider, Disposable {
  private readonly channel: WebviewChannel;
  private readonly viewStore = new DisposableStore();
  private view: vscode.WebviewView | undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    handle: (message: WebviewToHost) => void,
    logger: Logger,
  ) {
    this.channel = new WebviewChannel(
      (message) => this.view?.webview.postMessage(message) ?? Promise.resolve(false),
      handle,
      logger,
    );
  }

  send(message: HostToWebview): void {
    this.channel.send(message);
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    this.channel.reset();
    const root = vscode.Uri.joinPath(this.extensionUri, 'dist', 'webview');
    view.webview.options = { enableScripts: true, localResourceRoots: [root] };
    const asset = (...path: string[]): string => view.webview.asWebviewUri(vscode.Uri.joinPath(root, ...path)).toString();
    view.webview.html = webviewHtml(
      { script: asset('main.js'), style: asset('main.css'), codicons: asset('codicons', 'codicon.css'), cspSource: view.webview.cspSource },
      makeNonce((bound) => randomInt(bound)),
    );
    this.viewStore.add(view.webview.onDidReceiveMessage((raw: unknown) => this.channel.receive(raw)));
    this.viewStore.add(
      view.onDidDispose(() => {
        this.view = undefined;
        this.channel.reset();
      }),
    );
  }

  dispose(): void {
    this.viewStore.dispose();
  }
}
