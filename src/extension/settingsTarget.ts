import type { SettingScope } from '../shared/settingsFields';

/** Setting scopes (package.json `scope`) that VS Code writes to the remote machine's settings for a User-scope update. */
const MACHINE_SCOPES = new Set(['machine', 'machine-overridable', 'application-machine']);

/**
 * The settings file VS Code writes when a setting of manifest scope `manifestScope` is updated
 * at `scope` (`ConfigurationTarget.Global` for user): in a remote window (code-server, SSH,
 * `remoteName` set) a machine-scoped setting goes to that machine's settings, not the user's.
 * What the log and the panel say, so they say where the value really is. Pure; no `vscode` import.
 */
export function settingsFileWritten(scope: SettingScope, manifestScope: unknown, remoteName: string | undefined): string {
  if (scope === 'workspace') return 'workspace settings';
  if (remoteName !== undefined && typeof manifestScope === 'string' && MACHINE_SCOPES.has(manifestScope)) return `remote machine settings (${remoteName})`;
  return 'user settings';
}
