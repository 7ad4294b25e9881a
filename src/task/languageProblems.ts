import type { LanguageService } from './languagePort';
import type { MentionSources } from './mentions';
import { formatDiagnostics } from './tools/lspTools';

/** Files checked for one `@problems` at most (each is opened in the language server). */
export const PROBLEMS_MAX_FILES = 50;

/**
 * `@problems` from a language server: the diagnostics of the files the session has read or
 * edited (`files()`, which the server opens if it has not yet) and of every file it already
 * holds open. A server checks only the files it has open, so this is not the whole workspace.
 */
export function languageProblems(language: LanguageService, files: () => readonly string[]): NonNullable<MentionSources['problems']> {
  return async (signal) => {
    const stop = signal ?? new AbortController().signal;
    const checked = files().filter((f) => language.supports(f)).slice(0, PROBLEMS_MAX_FILES);
    // Concurrent: the waits for each file's diagnostics overlap instead of adding up. Only the
    // asking matters (the server then holds the file's diagnostics); one file failing stops no other.
    await Promise.allSettled(checked.map((f) => language.diagnostics(f, stop)));
    return formatDiagnostics(await language.diagnostics(undefined, stop), 'the files read or edited in this session');
  };
}
