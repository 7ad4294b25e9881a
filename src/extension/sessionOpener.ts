import { mkdirSync } from 'node:fs';
import * as vscode from 'vscode';
import { AnthropicModelClient } from '../adapters/anthropicModelClient';
import { findEditorRipgrep } from '../adapters/ripgrepSearcher';
import type { Logger } from '../engine/ports';
import { StrataError } from '../shared/strataError';
import type { ApprovalDecision, ApprovalRequest } from '../task/tools/tool';
import type { ApiKeyStore } from './apiKeyStore';
import type { ArchiveOpenResult } from './archiveStatus';
import { archiveAdvice, isNativeModuleError } from './archiveStatus';
import type { OpenedSession } from './chatController';
import type { StrataConfig } from './config';
import { editorProblems, editorTurnEnvironment } from './editorContext';
import { RecordingModelClient } from './recordingModelClient';
import type { TerminalHistory } from './terminalHistory';
import { VscodeLanguageService } from './vscodeLanguageService';

export interface SessionOpenerDeps {
  config: StrataConfig;
  apiKeys: ApiKeyStore;
  /** `context.globalStorageUri.fsPath`: the archive lives there, shared by every workspace. */
  storageDir: string;
  /** The activation's archive probe: SQLite, the plain-file fallback, or why neither opened. */
  archive: () => Promise<ArchiveOpenResult>;
  /** The last commands run in the editor's terminals, fed by shell integration. */
  terminal: TerminalHistory;
  logger: Logger;
}

/**
 * Opens a Task session the way the editor wants it: the key from SecretStorage (or
 * ANTHROPIC_API_KEY), `strata.*` settings, the first workspace folder as root, the archive in
 * global storage, the editor's turn environment and `@problems`. Every failure the user can
 * fix becomes a StrataError whose message says how.
 */
export function sessionOpener(deps: SessionOpenerDeps) {
  return async (sessionId: string, approve: (request: ApprovalRequest) => Promise<ApprovalDecision>): Promise<OpenedSession> => {
    const key = await deps.apiKeys.get();
    if (!key) throw new StrataError('No API key: run "Strata: Set API Key" or set ANTHROPIC_API_KEY, then send again.', 'no_api_key');
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (!folder || folder.uri.scheme !== 'file') throw new StrataError('Strata works inside a folder on disk: open one (File > Open Folder), then send again.', 'no_workspace');
    const { model } = deps.config.settings;
    const baseURL = model.baseUrl.trim() || undefined;
    const client = new RecordingModelClient(new AnthropicModelClient({ apiKey: key.key, ...(baseURL ? { baseURL } : {}) }));
    const archive = await deps.archive();
    if (!archive.ok) throw new StrataError(`The chat cannot start: ${archive.message}`, 'archive_unavailable');
    const archivePath = archive.backend.path;
    try {
      mkdirSync(deps.storageDir, { recursive: true });
      // Loaded on first use, inside the try: the native SQLite driver may not load in this editor.
      const { openTaskSession } = await import('../host/openTaskSession');
      const session = await openTaskSession({
        workspaceRoot: folder.uri.fsPath,
        archivePath,
        openArchive: archive.backend.open,
        sessionId,
        apiKey: key.key,
        redactSecrets: model.redactSecrets,
        ...(baseURL ? { baseURL } : {}),
        model: model.model,
        ...(model.condenseModel ? { condenseModel: model.condenseModel } : {}),
        settings: deps.config.explicitEngineSettings(),
        frontEnd: `VS Code ${vscode.version}`,
        approve,
        environment: () => editorTurnEnvironment(deps.terminal),
        // The LSP tools ask the editor's own language features: no server of our own is spawned.
        language: new VscodeLanguageService(folder.uri),
        extraMentionSources: { problems: editorProblems },
        logger: deps.logger,
        modelClient: client,
        // VS Code ships ripgrep; PATH inside the editor rarely has one, and the JS fallback is slower.
        ripgrepPath: findEditorRipgrep(vscode.env.appRoot),
      });
      return { session, lastRequest: () => client.lastRequest };
    } catch (error) {
      if (error instanceof StrataError && !isNativeModuleError(error)) throw error;
      const reason = error instanceof Error ? error.message : String(error);
      deps.logger.error(`opening the session failed: ${reason}`);
      if (isNativeModuleError(error) || /sqlite|archive/i.test(reason)) {
        throw new StrataError(`The chat cannot start: the archive at ${archivePath} could not be opened (${reason.split('\n')[0]}). ${archiveAdvice(error)}`, 'archive_unavailable');
      }
      throw new StrataError(`The chat session could not be opened: ${reason.split('\n')[0]}`, 'session_failed');
    }
  };
}
