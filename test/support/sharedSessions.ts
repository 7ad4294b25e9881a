import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** The real sessions vendored into the repository (`bench/sessions/`, MIT, attribution in its README). Never edited. */
export const SHARED_SESSIONS_DIR = join(__dirname, '..', '..', 'bench', 'sessions');

export function sharedSessionFiles(): string[] {
  if (!existsSync(SHARED_SESSIONS_DIR)) throw new Error(`Shared sessions not found at ${SHARED_SESSIONS_DIR}: they ship with the repository; restore bench/sessions from git.`);
  return readdirSync(SHARED_SESSIONS_DIR)
    .filter((f) => f.endsWith('.jsonl'))
    .sort()
    .map((f) => join(SHARED_SESSIONS_DIR, f));
}
