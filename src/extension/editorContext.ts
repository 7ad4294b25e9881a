import * as vscode from 'vscode';
import type { TurnEnvironment } from '../task/environment';
import { diagnosticsText, type DiagnosticEntry } from './diagnosticsText';
import type { TerminalHistory } from './terminalHistory';

/**
 * What the editor tells the Task at each turn: open tabs, the active file and its selection
 * (workspace files only), the last commands run in its terminals with their output (through
 * shell integration: `terminalWatcher.ts`), and `@problems` from the language services.
 */
export function editorTurnEnvironment(terminal?: TerminalHistory): TurnEnvironment {
  const env: TurnEnvironment = {};
  const terminalOutput = terminal?.text();
  if (terminalOutput) env.terminalOutput = terminalOutput;
  const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs.flatMap((t) => (t.input instanceof vscode.TabInputText ? [relative(t.input.uri)] : [])));
  const openTabs = [...new Set(tabs.filter((p): p is string => p !== undefined))];
  if (openTabs.length > 0) env.openTabs = openTabs;
  const editor = vscode.window.activeTextEditor;
  const active = editor ? relative(editor.document.uri) : undefined;
  if (editor && active) {
    env.activeFile = active;
    const s = editor.selection;
    if (!s.isEmpty) env.selection = { lines: `${s.start.line + 1}-${s.end.line + 1}`, text: editor.document.getText(s) };
  }
  return env;
}

/** `@problems`: the workspace's errors and warnings as the language services report them now. */
export async function editorProblems(): Promise<string> {
  const entries: DiagnosticEntry[] = [];
  for (const [uri, diagnostics] of vscode.languages.getDiagnostics()) {
    const path = relative(uri) ?? uri.toString();
    for (const d of diagnostics) {
      entries.push({
        path,
        line: d.range.start.line + 1,
        column: d.range.start.character + 1,
        severity: SEVERITY[d.severity],
        message: d.message,
        ...(d.source ? { source: d.source } : {}),
      });
    }
  }
  return diagnosticsText(entries);
}

const SEVERITY: Record<vscode.DiagnosticSeverity, DiagnosticEntry['severity']> = {
  [vscode.DiagnosticSeverity.Error]: 'error',
  [vscode.DiagnosticSeverity.Warning]: 'warning',
  [vscode.DiagnosticSeverity.Information]: 'information',
  [vscode.DiagnosticSeverity.Hint]: 'hint',
};

/** Workspace-relative path of a file in the first workspace folder; undefined for anything else. */
function relative(uri: vscode.Uri): string | undefined {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder || uri.scheme !== 'file' || vscode.workspace.getWorkspaceFolder(uri)?.uri.toString() !== folder.uri.toString()) return undefined;
  return vscode.workspace.asRelativePath(uri, false);
}
