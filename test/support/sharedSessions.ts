import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** The team's real sessions, beside the repo as in CI (`../shared/data/sessions`). Never edited. */
export const SHARED_SESSIONS_DIR = join(__dirname, '..', '..', '..', 'shared', 'data', 'sessions');

export function sharedSessionFiles(): string[] {
  if (!existsSync(SHARED_SESSIONS_DIR)) throw new Error(`Shared sessions not found at ${SHARED_SESSIONS_DIR}: clone the repo beside shared/.`);
  return readdirSync(SHARED_SESSIONS_DIR)
    .filter((f) => f.endsWith('.jsonl'))
    .sort()
    .map((f) => join(SHARED_SESSIONS_DIR, f));
}
