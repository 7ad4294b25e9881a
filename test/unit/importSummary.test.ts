import { describe, expect, it } from 'vitest';
import type { ImportCandidate } from '../../src/adapters/importCandidates';
import { candidateItems, importReport } from '../../src/extension/importSummary';
import type { ImportedSession, ImportResult } from '../../src/host/importSession';

function imported(over: Partial<ImportedSession> = {}): ImportedSession {
  return { source: { path: '/p/a.jsonl', format: 'claude-code' }, sessionId: 's-2026-11-22-0000abcd', title: 'Fix it', exchanges: 12, problems: [], unarchived: 0, interrupted: false, ...over };
}
const result = (over: Partial<ImportResult>): ImportResult => ({ imported: [], failed: [], ...over });

describe('importReport', () => {
  it('one clean session: how many exchanges, from which query, into which session', () => {
    const report = importReport(result({ imported: [imported()] }));
    expect(report).toEqual({ severity: 'info', message: 'Strata: imported 12 exchanges from "Fix it" as session s-2026-11-22-0000abcd.', log: [{ level: 'info', text: 'imported /p/a.jsonl (claude-code) as session s-2026-11-22-0000abcd: 12 exchanges, "Fix it"' }] });
  });

  it('problems are counted in the message and each logged as a warning', () => {
    const report = importReport(result({ imported: [imported({ exchanges: 1, problems: ['/p/a.jsonl:3: not valid JSON; line skipped', '/p/a.jsonl: 2 meta lines not imported'] })] }));
    expect(report.severity).toBe('info');
    expect(report.message).toBe('Strata: imported 1 exchange from "Fix it" as session s-2026-11-22-0000abcd. 2 lines skipped or replaced: see Output > Strata.');
    expect(report.log.filter((l) => l.level === 'warn').map((l) => l.text)).toEqual(['/p/a.jsonl:3: not valid JSON; line skipped', '/p/a.jsonl: 2 meta lines not imported']);
  });

  it('several sessions, one failed, exchanges lost: a warning naming each', () => {
    const report = importReport(
      result({
        imported: [imported(), imported({ exchanges: 3, unarchived: 1, source: { path: '/p/t/api_conversation_history.json', format: 'cline' } })],
        failed: [{ source: { path: '/p/b.jsonl', format: 'claude-code' }, error: 'Transcript /p/b.jsonl is empty.' }],
      }),
    );
    expect(report.severity).toBe('warning');
    expect(report.message).toBe('Strata: imported 2 sessions (15 exchanges). 1 exchange could not be archived, 1 session failed: see Output > Strata.');
    expect(report.log.at(-1)).toEqual({ level: 'error', text: 'not imported: /p/b.jsonl: Transcript /p/b.jsonl is empty.' });
  });

  it('nothing imported: an error with the reason when one file failed, a count otherwise', () => {
    const one = importReport(result({ failed: [{ source: { path: '/p/b.jsonl', format: 'claude-code' }, error: 'Transcript /p/b.jsonl is empty.' }] }));
    expect(one).toMatchObject({ severity: 'error', message: 'Strata: could not import b.jsonl: Transcript /p/b.jsonl is empty.' });
    const none = importReport(result({}));
    expect(none).toMatchObject({ severity: 'error', message: 'Strata: no session was imported.' });
  });
});

describe('importReport: severity and counts', () => {
  it('a lost exchange alone, or a failed session alone, makes it a warning', () => {
    expect(importReport(result({ imported: [imported({ unarchived: 2 })] }))).toMatchObject({ severity: 'warning', message: 'Strata: imported 12 exchanges from "Fix it" as session s-2026-11-22-0000abcd. 2 exchanges could not be archived: see Output > Strata.' });
    const failed = importReport(result({ imported: [imported()], failed: [{ source: { path: '/p/b.jsonl', format: 'claude-code' }, error: 'empty' }] }));
    expect(failed).toMatchObject({ severity: 'warning', message: 'Strata: imported 12 exchanges from "Fix it" as session s-2026-11-22-0000abcd. 1 session failed: see Output > Strata.' });
  });

  it('nothing imported and several failed: counts them', () => {
    const two = importReport(result({ failed: ['a', 'b'].map((n) => ({ source: { path: `/p/${n}.jsonl`, format: 'claude-code' as const }, error: 'empty' })) }));
    expect(two).toMatchObject({ severity: 'error', message: 'Strata: no session was imported (2 failed; see Output > Strata).' });
  });
});

describe('candidateItems', () => {
  it('labels rows by query, then project or task and the time (today) or date (before), the file below', () => {
    const now = new Date(2026, 10, 22, 18, 0).getTime();
    const candidates: ImportCandidate[] = [
      { path: '/h/.claude/projects/-home-dev-calc/s.jsonl', format: 'claude-code', title: 'Fix the test', project: '/home/dev/calc', modifiedAt: new Date(2026, 10, 22, 9, 7).getTime() },
      { path: '/g/saoudrizwan.claude-dev/tasks/1732280000000/api_conversation_history.json', format: 'cline', title: 'Add a flag', modifiedAt: new Date(2026, 10, 20, 23, 59).getTime() },
    ];
    expect(candidateItems(candidates, now).map(({ label, description, detail }) => ({ label, description, detail }))).toEqual([
      { label: 'Fix the test', description: '/home/dev/calc · 09:07', detail: candidates[0]!.path },
      { label: 'Add a flag', description: 'task 1732280000000 · 2026-11-20', detail: candidates[1]!.path },
    ]);
  });

  it('leaves out a project it does not know', () => {
    const now = new Date(2026, 10, 22, 18, 0).getTime();
    const [row] = candidateItems([{ path: '/h/s.jsonl', format: 'claude-code', title: 'T', modifiedAt: new Date(2026, 10, 22, 9, 7).getTime() }], now);
    expect(row!.description).toBe('09:07');
  });
});

