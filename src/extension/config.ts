import * as vscode from 'vscode';
import type { Logger } from '../engine/ports';
import type { EngineSettings } from '../shared/engineSettings';
import type { SettingScope, SettingValue } from '../shared/settingsFields';
import { clampSettings, type ClampedSettings } from './clampSettings';
import { buildConfigurationContribution } from './settingsManifest';
import { engineSettingSpecs, settingName } from './settingsSpec';
import { settingsFileWritten } from './settingsTarget';
import type { Disposable } from './disposableStore';
import type { SettingsAccess } from './settingsHandler';

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

  /**
   * The engine settings the user set somewhere (user, workspace or folder), clamped. A Task
   * session gets only these: what is left unset comes from the model's profile (its window,
   * its output reserve), not from this manifest's defaults.
   */
  explicitEngineSettings(): Partial<EngineSettings> {
    const configuration = vscode.workspace.getConfiguration();
    const out: Partial<EngineSettings> = {};
    for (const spec of engineSettingSpecs()) {
      const seen = configuration.inspect(settingName(spec.key));
      const set = seen && [seen.globalValue, seen.workspaceValue, seen.workspaceFolderValue].some((v) => v !== undefined);
      if (set) Object.assign(out, { [spec.key]: this.current.engine[spec.key] });
    }
    return out;
  }

  /**
   * The settings panel's door to VS Code's configuration API: `inspect` and `update` at user
   * (`ConfigurationTarget.Global`, synced by Settings Sync) or workspace scope. Names are full
   * (`strata.autoCondensePercent`).
   */
  readonly access: SettingsAccess = {
    inspect: (name) => vscode.workspace.getConfiguration('strata').inspect(relative(name)),
    effective: (name) => vscode.workspace.getConfiguration('strata').get(relative(name)),
    update: async (name, value: SettingValue | undefined, scope: SettingScope) => {
      const target = scope === 'user' ? vscode.ConfigurationTarget.Global : vscode.ConfigurationTarget.Workspace;
      await vscode.workspace.getConfiguration('strata').update(relative(name), value, target);
    },
    writtenTo: (name, scope) => settingsFileWritten(scope, manifestScopes().get(name), vscode.env.remoteName),
    hasWorkspace: () => (vscode.workspace.workspaceFolders?.length ?? 0) > 0,
  };

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

let scopes: Map<string, unknown> | undefined;
/** Each Strata setting's manifest `scope`, read once. */
function manifestScopes(): Map<string, unknown> {
  scopes ??= new Map(buildConfigurationContribution().flatMap((g) => Object.entries(g.properties).map(([name, p]) => [name, p.scope] as const)));
  return scopes;
}

/** `strata.autoCondensePercent` -> `autoCondensePercent` (the key under `getConfiguration('strata')`). */
function relative(name: string): string {
  return name.replace(/^strata\./, '');
}
