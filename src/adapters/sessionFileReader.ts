import { readFileSync, statSync } from 'node:fs';
import type { ParsedSession } from '../shared/sessionSchema';
import { decodeSessionBytes, parseSessionText } from '../shared/sessionSchema';
import { StrataError } from '../shared/strataError';

/**
 * Reads and parses one session file (the only code that touches session files on disk).
 * Missing paths and folders raise StrataError 'session_missing'; other read failures 'session_unreadable'.
 */
export function readSessionFile(path: string): ParsedSession {
  const bytes = readBytes(path);
  const decoded = decodeSessionBytes(bytes, path);
  const parsed = parseSessionText(decoded.text, path);
  return { ...parsed, problems: [...decoded.problems, ...parsed.problems] };
}

function readBytes(path: string): Uint8Array {
  let isDirectory: boolean;
  try {
    isDirectory = statSync(path).isDirectory();
  } catch (error) {
    const code = errorCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      throw new StrataError(`Session file not found: ${path}. Check the path; a session is a .jsonl file.`, 'session_missing');
    }
    throw new StrataError(`Cannot read the session file ${path} (${code ?? String(error)}).`, 'session_unreadable');
  }
  if (isDirectory) throw new StrataError(`${path} is a folder, not a session file; give the path of one .jsonl session.`, 'session_missing');
  try {
    return readFileSync(path);
  } catch (error) {
    throw new StrataError(`Cannot read the session file ${path} (${errorCode(error) ?? String(error)}).`, 'session_unreadable');
  }
}

function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}
