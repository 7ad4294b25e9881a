import { basename, dirname } from 'node:path';
import type { ImportCandidate } from '../adapters/importCandidates';
import type { ImportResult } from '../host/importSession';

/** One row of the session picker (plain data; the vscode glue hands it to a QuickPick). */
export interface CandidateItem {
  label: string;
  description: string;
  detail: string;
  candidate: ImportCandidate;
}

/**
 * Picker rows in the order given (newest first): the first query, then the project (Claude Code)
 * or task id (Cline) and the last-write time, the file below. `now` gives "today" its meaning.
 */
export function candidateItems(candidates: readonly ImportCandidate[], now: number): CandidateItem[] {
  return candidates.map((candidate) => {
    const where = candidate.format === 'cline' ? `task ${basename(dirname(candidate.path))}` : (candidate.project ?? '');
    return { label: candidate.title, description: [where, when(candidate.modifiedAt, now)].filter((s) => s !== '').join(' · '), detail: candidate.path, candidate };
  });
}

/** What the editor says after an import: the message, its severity, and every line for the log. */
export interface ImportReport {
  severity: 'info' | 'warning' | 'error';
  message: string;
  /** For Output > Strata: each session imported (info), its problems (warn), each failure (error). */
  log: Array<{ level: 'info' | 'warn' | 'error'; text: string }>;
}

/**
 * Turns an import's result into one notification (how many exchanges, into which session; how
 * many lines were skipped or replaced, and that the details are in the log) and the log lines.
 */
export function importReport(result: ImportResult): ImportReport {
  const log: ImportReport['log'] = [
    ...result.imported.flatMap((s) => [
      { level: 'info' as const, text: `imported ${s.source.path} (${s.source.format}) as session ${s.sessionId}: ${plural(s.exchanges, 'exchange')}, "${s.title}"` },
      ...s.problems.map((p) => ({ level: 'warn' as const, text: p })),
    ]),
    ...result.failed.map((f) => ({ level: 'error' as const, text: `not imported: ${f.source.path}: ${f.error}` })),
  ];
  const problems = result.imported.reduce((n, s) => n + s.problems.length, 0);
  const lost = result.imported.reduce((n, s) => n + s.unarchived, 0);
  const exchanges = result.imported.reduce((n, s) => n + s.exchanges, 0);
  const failed = result.failed[0];
  if (result.imported.length === 0) {
    if (failed && result.failed.length === 1) return { severity: 'error', message: `Strata: could not import ${basename(failed.source.path)}: ${failed.error}`, log };
    return { severity: 'error', message: `Strata: no session was imported${result.failed.length > 0 ? ` (${result.failed.length} failed; see Output > Strata)` : ''}.`, log };
  }
  const [only] = result.imported;
  const what =
    result.imported.length === 1 && only
      ? `imported ${plural(exchanges, 'exchange')} from "${only.title}" as session ${only.sessionId}`
      : `imported ${plural(result.imported.length, 'session')} (${plural(exchanges, 'exchange')})`;
  const notes = [
    problems > 0 ? `${plural(problems, 'line')} skipped or replaced` : '',
    lost > 0 ? `${plural(lost, 'exchange')} could not be archived` : '',
    result.failed.length > 0 ? `${plural(result.failed.length, 'session')} failed` : '',
  ].filter((s) => s !== '');
  const severity = lost > 0 || result.failed.length > 0 ? 'warning' : 'info';
  return { severity, message: `Strata: ${what}.${notes.length > 0 ? ` ${notes.join(', ')}: see Output > Strata.` : ''}`, log };
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

/** "14:05" today, "2026-11-20" before, in local time. */
function when(ms: number, now: number): string {
  const at = new Date(ms);
  const two = (n: number) => String(n).padStart(2, '0');
  const day = (d: Date) => `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}`;
  return day(at) === day(new Date(now)) ? `${two(at.getHours())}:${two(at.getMinutes())}` : day(at);
}
