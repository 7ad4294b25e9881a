import { extname, isAbsolute, relative, sep } from 'node:path';
import * as vscode from 'vscode';
import { StrataError } from '../shared/strataError';
import { raceAbort, waitForFirst } from './raceAbort';
import type { CodeLocation, DiagnosticInfo, DocumentSymbolInfo, LanguageService } from '../task/languagePort';
import {
  fromEditorDiagnostic,
  fromEditorHovers,
  fromEditorLocations,
  fromEditorSymbols,
  languageFileExtensions,
  type EditorDocumentSymbol,
  type EditorHover,
  type EditorLocation,
  type EditorLocationLink,
  type EditorSymbolInformation,
} from './vscodeLanguageConversions';

/** How long diagnostics of a file just opened may take to arrive from its language service, ms. */
const FIRST_DIAGNOSTICS_MS = 3_000;

/**
 * The LSP tools answered by the editor's own language features (the servers VS Code already
 * runs), so the extension spawns none of its own. `supports` is true for files of a language some
 * installed extension declares; a file whose language has no provider answers "nothing found".
 */
export class VscodeLanguageService implements LanguageService {
  private extensions: Set<string> | undefined;

  constructor(private readonly root: vscode.Uri) {}

  supports(path: string): boolean {
    this.extensions ??= languageFileExtensions(vscode.extensions.all.map((e) => e.packageJSON as unknown));
    return this.extensions.has(extname(path).toLowerCase());
  }

  async definition(path: string, line: number, column: number, signal: AbortSignal): Promise<CodeLocation[]> {
    const result = await this.run<Array<EditorLocation | EditorLocationLink>>('vscode.executeDefinitionProvider', signal, this.uri(path), position(line, column));
    return fromEditorLocations(result, (u) => this.toPath(u));
  }

  async references(path: string, line: number, column: number, signal: AbortSignal): Promise<CodeLocation[]> {
    const result = await this.run<EditorLocation[]>('vscode.executeReferenceProvider', signal, this.uri(path), position(line, column));
    return fromEditorLocations(result, (u) => this.toPath(u));
  }

  async documentSymbols(path: string, signal: AbortSignal): Promise<DocumentSymbolInfo[]> {
    const result = await this.run<Array<EditorDocumentSymbol | EditorSymbolInformation>>('vscode.executeDocumentSymbolProvider', signal, this.uri(path));
    return fromEditorSymbols(result);
  }

  async hover(path: string, line: number, column: number, signal: AbortSignal): Promise<string | undefined> {
    return fromEditorHovers(await this.run<EditorHover[]>('vscode.executeHoverProvider', signal, this.uri(path), position(line, column)));
  }

  /** One file's diagnostics (opened first, so its language service checks it), or all the editor has. */
  async diagnostics(path: string | undefined, signal: AbortSignal): Promise<DiagnosticInfo[]> {
    const entries: Array<[vscode.Uri, readonly vscode.Diagnostic[]]> =
      path === undefined ? vscode.languages.getDiagnostics() : [[this.uri(path), await this.fileDiagnostics(this.uri(path), signal)]];
    const out = entries.flatMap(([uri, list]) => list.map((d) => fromEditorDiagnostic(this.toPath(uri.toString()), d)));
    return out.sort((a, b) => a.path.localeCompare(b.path) || a.line - b.line || a.column - b.column);
  }

  private async fileDiagnostics(uri: vscode.Uri, signal: AbortSignal): Promise<readonly vscode.Diagnostic[]> {
    const changed = waitForFirst(signal, FIRST_DIAGNOSTICS_MS, (fire) => vscode.languages.onDidChangeDiagnostics((e) => e.uris.some((u) => u.toString() === uri.toString()) && fire()));
    try {
      await vscode.workspace.openTextDocument(uri);
      if (vscode.languages.getDiagnostics(uri).length === 0) await changed.done;
    } finally {
      changed.cancel();
    }
    return vscode.languages.getDiagnostics(uri);
  }

  /** A language-feature command, given up (the provider keeps running) when the turn is stopped. */
  private async run<T>(command: string, signal: AbortSignal, ...args: unknown[]): Promise<T | undefined> {
    return raceAbort(Promise.resolve(vscode.commands.executeCommand<T | undefined>(command, ...args)), signal, () => new StrataError('Stopped.', 'aborted'));
  }

  private uri(path: string): vscode.Uri {
    return vscode.Uri.joinPath(this.root, ...path.split('/'));
  }

  /** Workspace-relative POSIX path of a URI, or its absolute path (or URI) when outside the workspace. */
  private toPath(uri: string): { path: string; outside: boolean } {
    const parsed = vscode.Uri.parse(uri);
    if (parsed.scheme !== 'file') return { path: uri, outside: true };
    const rel = relative(this.root.fsPath, parsed.fsPath);
    if (rel !== '' && !rel.startsWith('..') && !isAbsolute(rel)) return { path: rel.split(sep).join('/'), outside: false };
    return { path: parsed.fsPath, outside: true };
  }
}

/** The port's 1-based line and column (UTF-16 units) as VS Code's 0-based Position. */
function position(line: number, column: number): vscode.Position {
  return new vscode.Position(Math.max(0, line - 1), Math.max(0, column - 1));
}
