import { mkdirSync } from 'node:fs';
import { basename } from 'node:path';
import * as vscode from 'vscode';
import type { ImportCandidate } from '../adapters/importCandidates';
import { claudeCodeProjectsDir, clineTasksDir, listClaudeCodeSessions, listClineTasks } from '../adapters/importCandidates';
import type { Logger } from '../engine/ports';
import type { EngineSettings } from '../shared/engineSettings';
import { resolveEngineSettings } from '../shared/engineSettings';
import type { ArchiveOpenResult } from './archiveStatus';
import { archiveAdvice, isNativeModuleError } from './archiveStatus';
import { candidateItems, importReport } from './importSummary';

export interface ImportSessionDeps {
  /** `context.globalStorageUri.fsPath`: the archive is there, and Cline's storage beside it. */
  storageDir: string;
  /** Engine settings the user set (headers and summaries are derived with them). */
  settings: () => Partial<EngineSettings>;
  logger: Logger;
  /** The archive chosen at activation (SQLite, or the plain-file fallback); imports go there. */
  archive: () => Promise<ArchiveOpenResult>;
  /** What imported messages are redacted of: the user's API key, and known formats unless `strata.redactSecrets` is off. */
  redaction: () => Promise<{ secrets: string[]; redactSecrets: boolean }>;
  /** Called after anything was imported (the archive tree refreshes). */
  onImported: () => void;
}

type Source = 'claude-code' | 'cline' | 'file';

/**
 * "Strata: Import Session": pick a Claude Code session, a Cline task, or any file or folder;
 * import it under a cancellable progress notification; say how many exchanges arrived (the
 * details, problems included, go to Output > Strata).
 */
export function importSessionCommand(deps: ImportSessionDeps): () => Promise<void> {
  return async () => {
    const claudeDir = claudeCodeProjectsDir();
    const clineDir = clineTasksDir(deps.storageDir);
    const source = await vscode.window.showQuickPick<vscode.QuickPickItem & { source: Source }>(
      [
        { label: '$(terminal) Claude Code sessions', description: claudeDir, source: 'claude-code' },
        { label: '$(hubot) Cline tasks', description: clineDir, source: 'cline' },
        { label: '$(folder-opened) Choose a file...', description: 'a transcript, a Cline task folder, or a folder of them', source: 'file' },
      ],
      { title: 'Strata: Import Session', placeHolder: 'Import from' },
    );
    if (!source) return;
    const picked = source.source === 'file' ? await chooseFile() : await chooseCandidate(source.source === 'cline' ? listClineTasks(clineDir) : listClaudeCodeSessions(claudeDir), source.source === 'cline' ? `No Cline tasks in ${clineDir}.` : `No Claude Code sessions in ${claudeDir}.`);
    if (picked) await runImport(picked.path, picked.label, deps);
  };
}

/** What to import and how the progress notification names it. */
interface Picked {
  path: string;
  label: string;
}

async function chooseCandidate(listing: Promise<ImportCandidate[]>, none: string): Promise<Picked | undefined> {
  const candidates = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: 'Strata: listing sessions' }, () => listing);
  if (candidates.length === 0) {
    void vscode.window.showInformationMessage(`Strata: ${none}`);
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(candidateItems(candidates, Date.now()), { title: 'Strata: Import Session', placeHolder: 'Newest first; type to filter by query or project', matchOnDescription: true, matchOnDetail: true });
  return picked ? { path: picked.candidate.path, label: `"${picked.candidate.title}"` } : undefined;
}

async function chooseFile(): Promise<Picked | undefined> {
  const picked = await vscode.window.showOpenDialog({ canSelectFiles: true, canSelectFolders: true, canSelectMany: false, openLabel: 'Import', title: 'Strata: a Claude Code transcript (.jsonl), a Cline api_conversation_history.json or task folder' });
  const path = picked?.[0]?.fsPath;
  return path ? { path, label: basename(path) } : undefined;
}

async function runImport(path: string, label: string, deps: ImportSessionDeps): Promise<void> {
  try {
    // The store the chat uses: SQLite, or the plain-file fallback when SQLite cannot load here.
    const archive = await deps.archive();
    if (!archive.ok) throw new Error(archive.message);
    const { path: archivePath, open: openArchive } = archive.backend;
    const result = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Strata: importing ${label}`, cancellable: true }, async (progress, token) => {
      const abort = new AbortController();
      const sub = token.onCancellationRequested(() => abort.abort());
      try {
        mkdirSync(deps.storageDir, { recursive: true });
        // Loaded on first use: the native SQLite driver may not load in this editor.
        const { importSessions } = await import('../host/importSession');
        return await importSessions(path, {
          ...(await deps.redaction()),
          archivePath,
          openArchive,
          settings: resolveEngineSettings(deps.settings()),
          logger: deps.logger,
          signal: abort.signal,
          // A folder: which of its sessions is being imported.
          onSession: (s, i, n) => (n > 1 ? progress.report({ message: `${i} of ${n}: ${basename(s.path)}` }) : undefined),
        });
      } finally {
        sub.dispose();
      }
    });
    const report = importReport(result);
    for (const line of report.log) deps.logger[line.level](line.text);
    if (result.imported.length > 0) deps.onImported();
    const show = report.severity === 'error' ? vscode.window.showErrorMessage : report.severity === 'warning' ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
    void show(report.message);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    deps.logger.error(`import of ${path} failed: ${reason}`);
    const advice = isNativeModuleError(error) ? ` ${archiveAdvice(error)}` : '';
    void vscode.window.showErrorMessage(`Strata: could not import ${basename(path)}: ${reason.split('\n')[0]}${advice}`);
  }
}
