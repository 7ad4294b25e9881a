import { readFileSync, statSync } from 'node:fs';
import { StrataError } from '../shared/strataError';
import type { ParsedSession } from '../shared/sessionSchema';
import { decodeSessionBytes, parseSessionText } from '../shared/sessionSchema';

/** Reads and parses a session file; missing files and folders get a StrataError naming the path. */
export function readSessionFile(path: string): ParsedSession {
  let bytes: Buffer;
  try {
    if (statSync(path).isDirectory()) throw new StrataError(`${path} is a folder; give one session file (.jsonl).`, 'session_missing');
    bytes = readFileSync(path);
  } catch (error) {
    if (error instanceof StrataError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new StrataError(`Cannot read the session file ${path} (${code ?? String(error)}). Check the path.`, 'session_missing');
  }
  const decoded = decodeSessionBytes(bytes, path);
  const parsed = parseSessionText(decoded.text, path);
  return { ...parsed, problems: [...decoded.problems, ...parsed.problems] };
}
