import * as vscode from 'vscode';
import type { ApiKeySource } from '../shared/webviewMessages';

/** SecretStorage slot of the Anthropic API key. The key is never written to settings or logs. */
const SECRET_KEY = 'strata.anthropicApiKey';

/**
 * The API key: SecretStorage first (set by "Strata: Set API Key"), then the
 * ANTHROPIC_API_KEY environment variable of the editor's process.
 */
export class ApiKeyStore {
  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  /** Fires when the stored key is set or removed (also from another window). */
  onDidChange(listener: () => void): vscode.Disposable {
    return this.secrets.onDidChange((e) => {
      if (e.key === SECRET_KEY) listener();
    });
  }

  async get(): Promise<{ key: string; source: ApiKeySource } | undefined> {
    const stored = await this.secrets.get(SECRET_KEY);
    if (stored) return { key: stored, source: 'secretStorage' };
    const fromEnv = this.env.ANTHROPIC_API_KEY?.trim();
    if (fromEnv) return { key: fromEnv, source: 'environment' };
    return undefined;
  }

  async source(): Promise<ApiKeySource> {
    return (await this.get())?.source ?? 'none';
  }

  /** Prompts with a password box; an empty answer removes the stored key, Escape changes nothing. */
  async promptAndStore(): Promise<void> {
    const value = await vscode.window.showInputBox({
      title: 'Strata: Set API Key',
      prompt: 'Anthropic API key, kept in VS Code SecretStorage (never in settings). Leave empty to remove the stored key.',
      password: true,
      ignoreFocusOut: true,
      validateInput: (v) => (/\s/.test(v.trim()) || (v.trim().length > 0 && v.trim().length < 20) ? 'That does not look like an API key (no spaces, at least 20 characters).' : undefined),
    });
    if (value === undefined) return;
    const key = value.trim();
    if (key === '') {
      await this.secrets.delete(SECRET_KEY);
      void vscode.window.showInformationMessage('Strata: the stored API key was removed.');
      return;
    }
    await this.secrets.store(SECRET_KEY, key);
    void vscode.window.showInformationMessage('Strata: API key stored in SecretStorage.');
  }
}
