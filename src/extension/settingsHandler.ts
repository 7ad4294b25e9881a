import type { Logger } from '../engine/ports';
import type { SettingScope, SettingValue } from '../shared/settingsFields';
import type { HostToWebview, WebviewToHost } from '../shared/webviewMessages';
import { buildConfigurationContribution, type ConfigurationGroup } from './settingsManifest';
import { checkSettingWrite, settingsPanelGroups, type InspectedSetting } from './settingsPanelModel';

/** VS Code's configuration API as the settings panel uses it; config.ts supplies it. */
export interface SettingsAccess {
  inspect(name: string): InspectedSetting | undefined;
  effective(name: string): unknown;
  /** `value` undefined removes the setting from `scope`. Rejects with VS Code's reason when it cannot write. */
  update(name: string, value: SettingValue | undefined, scope: SettingScope): Promise<void>;
  /** The settings file an update of `name` at `scope` lands in, as the log names it ("user settings"...). */
  writtenTo(name: string, scope: SettingScope): string;
  hasWorkspace(): boolean;
}

type SettingsMessage = Extract<WebviewToHost, { type: 'settings/get' | 'settings/update' }>;

/**
 * The host's end of the webview settings panel: answers `settings/get` with every Strata setting
 * (grouped as in the manifest, values per scope), writes `settings/update` through VS Code's
 * configuration API after checking type and range again, and pushes a fresh snapshot when the
 * settings change (the panel edited them, or settings.json was edited). No `vscode` import.
 */
export class SettingsHandler {
  private readonly manifest: ConfigurationGroup[] = buildConfigurationContribution();

  constructor(
    private readonly access: SettingsAccess,
    private readonly send: (message: HostToWebview) => void,
    private readonly logger: Logger,
  ) {}

  handle(message: SettingsMessage): Promise<void> {
    if (message.type === 'settings/get') {
      this.send(this.snapshot(message.requestId));
      return Promise.resolve();
    }
    return this.update(message.requestId, message.key, message.scope, message.value);
  }

  /** Settings changed somewhere: the open panel shows the new values. */
  pushSnapshot(): void {
    this.send(this.snapshot());
  }

  private snapshot(requestId?: string): HostToWebview {
    const groups = settingsPanelGroups(this.manifest, (name) => this.access.inspect(name), (name) => this.access.effective(name));
    return { type: 'settings/snapshot', ...(requestId !== undefined && { requestId }), groups, hasWorkspace: this.access.hasWorkspace() };
  }

  private async update(requestId: string, key: string, scope: SettingScope, value: SettingValue | null): Promise<void> {
    const reply = (ok: boolean, message?: string) => this.send({ type: 'settings/updated', requestId, key, ok, ...(message !== undefined && { message }) });
    if (scope === 'workspace' && !this.access.hasWorkspace()) return reply(false, 'No folder is open, so there are no workspace settings; choose User, or open a folder.');
    let write: SettingValue | undefined;
    if (value !== null) {
      const checked = checkSettingWrite(this.manifest, key, value);
      if (!checked.ok) {
        this.logger.warn(`settings panel: refused ${key} = ${JSON.stringify(value).slice(0, 80)}: ${checked.message}`);
        return reply(false, checked.message);
      }
      write = checked.value;
    } else if (!this.isKnown(key)) {
      return reply(false, `${key} is not a Strata setting.`);
    }
    try {
      await this.access.update(key, write, scope);
      this.logger.info(`settings panel: ${key} ${write === undefined ? 'reset' : `= ${JSON.stringify(write).slice(0, 80)}`} in ${this.access.writtenTo(key, scope)}`);
      reply(true);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      this.logger.error(`settings panel: writing ${key}: ${reason}`);
      reply(false, `VS Code could not write ${key} to the ${scope} settings (${reason}). Fix settings.json if it has a syntax error, or use the Settings editor.`);
    }
  }

  private isKnown(key: string): boolean {
    return this.manifest.some((g) => key in g.properties);
  }
}
