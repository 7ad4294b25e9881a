import * as vscode from 'vscode';
import type { UsageView as Usage } from '../shared/webviewMessages';
import type { Disposable } from './disposableStore';

/** The status bar item: the context meter of the last prompt; a click opens the chat view. */
export class StrataStatusBar implements Disposable {
  private readonly item = vscode.window.createStatusBarItem('strata.contextMeter', vscode.StatusBarAlignment.Right, 100);

  constructor() {
    this.item.name = 'Strata context meter';
    this.item.command = 'strata.chat.focus';
    this.showIdle('no prompt sent yet');
    this.item.show();
  }

  showIdle(reason: string): void {
    this.item.text = '$(layers) Strata';
    this.item.tooltip = `Strata: ${reason}. Click to open the chat.`;
    this.item.backgroundColor = undefined;
  }

  /** Percent of (window - reserved output) the last prompt used; yellow and red bands colour the item. */
  showUsage(usage: Usage): void {
    this.item.text = `$(layers) ${usage.percent.toFixed(0)}%`;
    this.item.tooltip = `Strata: last prompt ${usage.used.toLocaleString()} tokens of ${(usage.window - usage.reservedOutput).toLocaleString()} usable (${usage.band}).`;
    this.item.backgroundColor =
      usage.band === 'red' ? new vscode.ThemeColor('statusBarItem.errorBackground') : usage.band === 'yellow' ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
  }

  dispose(): void {
    this.item.dispose();
  }
}
