/**
 * The LSP tools' door to a language server: VS Code's language features in the editor, a real
 * server spoken to over LSP outside it (`src/adapters/lspLanguageService.ts`).
 *
 * Plain data both ways. Paths going in are workspace-relative, POSIX-separated and already
 * confined by the caller (`confinePath`). Lines and columns are 1-based, as an editor shows them;
 * columns count UTF-16 code units, as LSP and VS Code do (so `column - 1` is LSP's `character`).
 */

/** A place in a file. */
export interface CodeLocation {
  /** Workspace-relative POSIX path; the absolute path when `outside` (a library's typings, say). */
  path: string;
  /** True when the file is not under the workspace root: its text is not shown to the model. */
  outside: boolean;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
}

/** One symbol of a document outline; `children` are the symbols nested in it (a class's methods). */
export interface DocumentSymbolInfo {
  name: string;
  /** LSP's symbol kind in words: `function`, `class`, `method`, `variable`... */
  kind: string;
  /** What the server adds (a signature, a type), when anything. */
  detail?: string;
  line: number;
  endLine: number;
  children: DocumentSymbolInfo[];
}

export type DiagnosticSeverity = 'error' | 'warning' | 'info' | 'hint';

export interface DiagnosticInfo {
  /** Workspace-relative POSIX path (absolute when outside the workspace). */
  path: string;
  line: number;
  column: number;
  severity: DiagnosticSeverity;
  message: string;
  /** Who reported it (`typescript`) and its code (`2322`), when the server says. */
  source?: string;
  code?: string;
}

export interface LanguageService {
  /**
   * True when a language server handles this file (by its type). Cheap and synchronous: the
   * tools ask first and answer "no language server for .xyz files" without starting anything.
   */
  supports(path: string): boolean;
  /** Where the symbol at this position is defined (several places for overloads; none is an answer). */
  definition(path: string, line: number, column: number, signal: AbortSignal): Promise<CodeLocation[]>;
  /** Every use of the symbol at this position, its declaration included. */
  references(path: string, line: number, column: number, signal: AbortSignal): Promise<CodeLocation[]>;
  /** The file's outline. */
  documentSymbols(path: string, signal: AbortSignal): Promise<DocumentSymbolInfo[]>;
  /** The hover text (type, signature, doc comment) as Markdown; `undefined` when the server has none. */
  hover(path: string, line: number, column: number, signal: AbortSignal): Promise<string | undefined>;
  /**
   * Current diagnostics of one file (its text as on disk now), or with no path of every file the
   * server has reported on, sorted by path then line.
   */
  diagnostics(path: string | undefined, signal: AbortSignal): Promise<DiagnosticInfo[]>;
}
