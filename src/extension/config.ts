import * as vscode from 'vscode';
import type { Logger } from '../engine/ports';
import { clampSettings, type ClampedSettings } from './clampSettings';
import type { Disposable } from './disposableStore';

/**
 * The one place that reads `strata.*` (STYLE.md rule 1): parses `getConfiguration('strata')`
 * into `EngineSettings` + `ModelSettings`, clamping bad values with a warning, and pushes
 * the new value to listeners when the user changes a setting. Nothing else calls
 * `getConfiguration`.
 */
export class StrataConfig implements Disposable {
  private current: ClampedSettings;
  private readonly listeners = new Set<(settings: ClampedSettings) => void>();
  private readonly subscription: vscode.Disposable;

  constructor(private readonly logger: Logger) {
    this.current = this.read();
    this.subscription = vscode.workspace.onDidChangeConfiguration((e) => {
      if (!e.affectsConfiguration('strata')) return;
      this.current = this.read();
      for (const listener of this.listeners) listener(this.current);
    });
  }

  get settings(): ClampedSettings {
    return this.current;
  }

  onDidChange(listener: (settings: ClampedSettings) => void): Disposable {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  dispose(): void {
    this.subscription.dispose();
    this.listeners.clear();
  }

  private read(): ClampedSettings {
    const configuration = vscode.workspace.getConfiguration();
    const result = clampSettings((name) => configuration.get(name));
    if (result.warnings.length > 0) {
      for (const w of result.warnings) this.logger.warn(`settings: ${w}`);
      void vscode.window.showWarningMessage(`Strata: ${result.warnings[0]}${result.warnings.length > 1 ? ` (and ${result.warnings.length - 1} more in Output > Strata)` : ''}`);
    }
    return result;
  }
}
