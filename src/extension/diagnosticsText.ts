/** One diagnostic as the editor reports it, already made workspace-relative. Lines and columns 1-based. */
export interface DiagnosticEntry {
  path: string;
  line: number;
  column: number;
  severity: 'error' | 'warning' | 'information' | 'hint';
  message: string;
  source?: string;
}

/** Diagnostics listed at most for `@problems`; the rest are counted (a broken build can report thousands). */
export const MAX_PROBLEMS = 200;

/**
 * The text `@problems` resolves to: errors first, then warnings (information and hints are left
 * out: they rarely matter to a task and would crowd the prompt), one per line as
 * `path:line:column error message (source)`, sorted by path and position. Empty when none.
 */
export function diagnosticsText(entries: readonly DiagnosticEntry[]): string {
  const rank = { error: 0, warning: 1 } as const;
  const kept = entries
    .filter((e): e is DiagnosticEntry & { severity: 'error' | 'warning' } => e.severity === 'error' || e.severity === 'warning')
    .sort((a, b) => rank[a.severity] - rank[b.severity] || a.path.localeCompare(b.path) || a.line - b.line || a.column - b.column);
  const lines = kept.slice(0, MAX_PROBLEMS).map((e) => `${e.path}:${e.line}:${e.column} ${e.severity} ${e.message.replace(/\s*\n\s*/g, ' ')}${e.source ? ` (${e.source})` : ''}`);
  if (kept.length > MAX_PROBLEMS) lines.push(`… ${kept.length - MAX_PROBLEMS} more not listed`);
  return lines.join('\n');
}
