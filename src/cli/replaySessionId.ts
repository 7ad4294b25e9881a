import { createHash } from 'node:crypto';
import { basename } from 'node:path';
import type { ParsedSession } from '../shared/sessionSchema';
import { StrataError } from '../engine/ports';

/** `--resume last`: the latest session replayed from the same file content. */
export const RESUME_LAST = 'last';

/**
 * What names a replayed file: its base name and a hash of what it replays (system text and
 * messages), so two different files of the same name never share sessions.
 * Example: `session.jsonl@3fa2b1c0`.
 */
export function replayFileKey(file: string, session: ParsedSession): string {
  const hash = createHash('sha256').update(JSON.stringify({ system: session.meta.system ?? null, messages: session.messages })).digest('hex');
  return `${basename(file)}@${hash.slice(0, 8)}`;
}

/** The run number of `id` when it is a replay session of `key` (`key#n`), else undefined. */
function runOf(id: string, key: string): number | undefined {
  if (!id.startsWith(`${key}#`)) return undefined;
  const n = Number(id.slice(key.length + 1));
  return Number.isInteger(n) && n > 0 ? n : undefined;
}

/**
 * Picks the session a replay writes: a new one (`key#n`, n one above the highest in the
 * archive) unless `resume` names one. `resume` is a session id of this file, or `last` for the
 * latest run of this file (a new session when there is none yet).
 */
export function chooseReplaySession(existing: readonly string[], key: string, resume: string | undefined): { sessionId: string; resume: boolean } {
  const runs = existing.map((id) => runOf(id, key)).filter((n): n is number => n !== undefined);
  const latest = runs.length > 0 ? Math.max(...runs) : 0;
  if (resume === undefined) return { sessionId: `${key}#${latest + 1}`, resume: false };
  if (resume === RESUME_LAST) return latest > 0 ? { sessionId: `${key}#${latest}`, resume: true } : { sessionId: `${key}#1`, resume: false };
  if (!existing.includes(resume)) {
    const mine = runs.sort((a, b) => a - b).map((n) => `${key}#${n}`);
    throw new StrataError(`--resume ${resume}: no such session in the archive. ${mine.length > 0 ? `Sessions of this file: ${mine.join(', ')}.` : 'The archive holds no session of this file; drop --resume to start one.'}`, 'usage');
  }
  if (runOf(resume, key) === undefined) {
    throw new StrataError(`--resume ${resume}: that session was not replayed from this file (its sessions are named ${key}#n). Give the file it came from, or drop --resume.`, 'usage');
  }
  return { sessionId: resume, resume: true };
}
