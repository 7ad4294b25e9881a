import type { CodeLocation, DiagnosticInfo, DocumentSymbolInfo, LanguageService } from '../../src/task/languagePort';

/** One call the tools made, in order (line and column for the position requests). */
export interface LanguageCall {
  method: 'definition' | 'references' | 'documentSymbols' | 'hover' | 'diagnostics';
  path: string | undefined;
  line?: number;
  column?: number;
  signal: AbortSignal;
}

/** What the fake answers; a rejecting `diagnostics` stands for a server failing on one file. */
export interface LanguageAnswers {
  definition?: CodeLocation[];
  references?: CodeLocation[];
  documentSymbols?: DocumentSymbolInfo[];
  hover?: string;
  diagnostics?: (path: string | undefined) => Promise<DiagnosticInfo[]>;
}

export interface FakeLanguageService extends LanguageService {
  readonly calls: LanguageCall[];
  answers: LanguageAnswers;
}

/**
 * An in-process LanguageService whose answers a test sets and whose calls it reads back: the
 * tools' own formatting, limits and refusals without a server's timing or opinions. It handles
 * the file types in `handles` (".ts" by default).
 */
export function fakeLanguageService(answers: LanguageAnswers = {}, handles: readonly string[] = ['.ts']): FakeLanguageService {
  const calls: LanguageCall[] = [];
  const fake: FakeLanguageService = {
    calls,
    answers,
    supports: (path) => handles.some((ext) => path.endsWith(ext)),
    async definition(path, line, column, signal) {
      calls.push({ method: 'definition', path, line, column, signal });
      return fake.answers.definition ?? [];
    },
    async references(path, line, column, signal) {
      calls.push({ method: 'references', path, line, column, signal });
      return fake.answers.references ?? [];
    },
    async documentSymbols(path, signal) {
      calls.push({ method: 'documentSymbols', path, signal });
      return fake.answers.documentSymbols ?? [];
    },
    async hover(path, line, column, signal) {
      calls.push({ method: 'hover', path, line, column, signal });
      return fake.answers.hover;
    },
    async diagnostics(path, signal) {
      calls.push({ method: 'diagnostics', path, signal });
      return fake.answers.diagnostics ? fake.answers.diagnostics(path) : [];
    },
  };
  return fake;
}

/** A location in a workspace file, one line long unless `endLine` says more. */
export function at(path: string, line: number, column = 1, endLine = line): CodeLocation {
  return { path, outside: false, line, column, endLine, endColumn: column + 1 };
}

/** A diagnostic; `message` defaults to "problem <line>". */
export function diagnostic(path: string, line: number, severity: DiagnosticInfo['severity'], extra: Partial<DiagnosticInfo> = {}): DiagnosticInfo {
  return { path, line, column: 1, severity, message: `problem ${line}`, ...extra };
}
