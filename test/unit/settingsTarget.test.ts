import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SettingsHandler, type SettingsAccess } from '../../src/extension/settingsHandler';
import { buildConfigurationContribution } from '../../src/extension/settingsManifest';
import { settingsFileWritten } from '../../src/extension/settingsTarget';
import type { HostToWebview } from '../../src/shared/webviewMessages';

/**
 * The settings panel's User scope lands in the user's settings, also in a remote window
 * (code-server is one): VS Code sends a User-scope update of a machine-scoped setting to the
 * remote machine's settings file instead. And the log names the file really written.
 */
describe('where a setting saved from the settings panel lands', () => {
  const properties = buildConfigurationContribution().flatMap((g) => Object.entries(g.properties));

  it('every Strata setting saved at User scope in a remote window goes to the user settings, as the manifest declares it', () => {
    const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as { contributes: { configuration: Array<{ properties: Record<string, { scope?: string }> }> } };
    const declared = manifest.contributes.configuration.flatMap((g) => Object.entries(g.properties));
    expect(declared.length).toBe(properties.length);
    for (const [name, property] of declared) expect([name, settingsFileWritten('user', property.scope, '127.0.0.1:8080')]).toEqual([name, 'user settings']);
  });

  it('names the machine settings for a machine-overridable setting in a remote window, the user settings locally', () => {
    expect(settingsFileWritten('user', 'machine-overridable', 'ssh-remote+box')).toBe('remote machine settings (ssh-remote+box)');
    for (const scope of ['machine', 'application-machine']) expect(settingsFileWritten('user', scope, 'box')).toBe('remote machine settings (box)');
    expect(settingsFileWritten('user', 'application', 'box')).toBe('user settings');
    expect(settingsFileWritten('user', 'machine', 'wsl+Ubuntu')).toBe('remote machine settings (wsl+Ubuntu)');
    expect(settingsFileWritten('user', 'machine-overridable', undefined)).toBe('user settings');
    expect(settingsFileWritten('workspace', 'machine-overridable', 'ssh-remote+box')).toBe('workspace settings');
  });

  it('logs the file the configuration API reports, not the scope asked for', async () => {
    const lines: string[] = [];
    const access: SettingsAccess = {
      inspect: () => undefined,
      effective: () => undefined,
      update: async () => {},
      writtenTo: (name, scope) => settingsFileWritten(scope, name === 'strata.baseUrl' ? 'machine-overridable' : 'resource', 'box'),
      hasWorkspace: () => true,
    };
    const sent: HostToWebview[] = [];
    const handler = new SettingsHandler(access, (m) => sent.push(m), { info: (m) => lines.push(m), warn: (m) => lines.push(m), error: (m) => lines.push(m) });
    await handler.handle({ type: 'settings/update', requestId: 'u1', key: 'strata.baseUrl', scope: 'user', value: 'http://127.0.0.1:9999' });
    expect(lines).toEqual(['settings panel: strata.baseUrl = "http://127.0.0.1:9999" in remote machine settings (box)']);
    expect(sent).toEqual([{ type: 'settings/updated', requestId: 'u1', key: 'strata.baseUrl', ok: true }]);
  });
});

describe('the Archive view', () => {
  it('starts collapsed and smaller than the chat, so the chat keeps its room', () => {
    const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as { contributes: { views: Record<string, Array<{ id: string; initialSize?: number; visibility?: string }>> } };
    const views = Object.values(manifest.contributes.views).flat();
    const archive = views.find((v) => v.id === 'strata.archive');
    const chat = views.find((v) => v.id === 'strata.chat');
    expect(archive?.visibility).toBe('collapsed');
    expect(archive?.initialSize ?? 1).toBeLessThan(chat?.initialSize ?? 1);
  });
});
