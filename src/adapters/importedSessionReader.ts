import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, extname, join } from 'node:path';
import { parseClaudeCodeTranscript } from '../shared/claudeCodeTranscript';
import { parseClineHistory } from '../shared/clineHistory';
import type { ParsedSession } from '../shared/sessionSchema';
import { decodeSessionBytes } from '../shared/sessionSchema';
import { StrataError } from '../shared/strataError';

/** The native formats `strata import` reads. */
export const IMPORT_FORMATS = ['claude-code', 'cline'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

/** Cline keeps each task's conversation in this file of its task folder. */
export const CLINE_HISTORY_FILE = 'api_conversation_history.json';

/** One session to import: a transcript file and the format it is read in. */
export interface ImportSource {
  path: string;
  format: ImportFormat;
}

/**
 * What `path` holds to import (the only code that looks for native sessions on disk): a file is
 * one session; a Cline task folder (it holds api_conversation_history.json) is one; any other
 * folder gives its Claude Code transcripts (`*.jsonl`, subagent `agent-*.jsonl` files left out:
 * they are sidechains) and its Cline task folders, sorted by path. `from` forces the format of
 * a file and limits a folder to that format. Throws StrataError 'session_missing' when there is
 * nothing there, 'session_format' when a file's format cannot be told.
 */
export function findImportSources(path: string, from?: ImportFormat): ImportSource[] {
  const kind = statKind(path);
  if (kind === 'file') return [{ path, format: from ?? detectFormat(path) }];
  if (kind === undefined) throw new StrataError(`Nothing to import at ${path}: it is neither a file nor a folder (a pipe, a socket or a device). Give a session file or a folder of sessions.`, 'session_missing');
  if (isClineTask(path)) return from === 'claude-code' ? [] : [{ path: join(path, CLINE_HISTORY_FILE), format: 'cline' }];
  const found: ImportSource[] = [];
  for (const name of readdirSync(path).sort()) {
    const child = join(path, name);
    const childKind = statKind(child, true);
    if (childKind === 'file' && extname(name) === '.jsonl' && !name.startsWith('agent-') && from !== 'cline') found.push({ path: child, format: 'claude-code' });
    if (childKind === 'folder' && from !== 'claude-code' && isClineTask(child)) found.push({ path: join(child, CLINE_HISTORY_FILE), format: 'cline' });
  }
  if (found.length === 0) {
    throw new StrataError(`${path} holds no session to import${from ? ` in the ${from} format` : ''}: no Claude Code transcript (*.jsonl) and no Cline task folder (with ${CLINE_HISTORY_FILE}).`, 'session_missing');
  }
  return found;
}

/** Reads and parses one native session; problems name the file and its line (or array index). */
export function readImportedSession(source: ImportSource): ParsedSession {
  const decoded = decodeSessionBytes(readBytes(source.path), source.path);
  const parse = source.format === 'cline' ? parseClineHistory : parseClaudeCodeTranscript;
  const parsed = parse(decoded.text, source.path);
  return { ...parsed, problems: [...decoded.problems, ...parsed.problems] };
}

/** Cline's file by its name or a leading `[`; Claude Code's transcripts are JSON Lines of objects. */
function detectFormat(path: string): ImportFormat {
  if (basename(path) === CLINE_HISTORY_FILE) return 'cline';
  const head = new TextDecoder().decode(readBytes(path).subarray(0, 4096)).replace(/^\uFEFF/, '').trimStart();
  if (head.startsWith('[')) return 'cline';
  if (head.startsWith('{') && /"type"\s*:/.test(head.split('\n')[0] ?? '')) return 'claude-code';
  throw new StrataError(`Cannot tell the format of ${path}: it is neither a Claude Code transcript (JSON Lines with "type" fields) nor Cline's ${CLINE_HISTORY_FILE} (a JSON array). Give --from claude-code or --from cline.`, 'session_format');
}

function isClineTask(folder: string): boolean {
  return statKind(join(folder, CLINE_HISTORY_FILE), true) === 'file';
}

function statKind(path: string, quiet = false): 'file' | 'folder' | undefined {
  try {
    const stat = statSync(path);
    return stat.isDirectory() ? 'folder' : stat.isFile() ? 'file' : undefined;
  } catch (error) {
    if (quiet) return undefined;
    const code = errorCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new StrataError(`Nothing to import at ${path}: no such file or folder.`, 'session_missing');
    throw new StrataError(`Cannot read ${path} (${code ?? String(error)}).`, 'session_unreadable');
  }
}

function readBytes(path: string): Uint8Array {
  try {
    return readFileSync(path);
  } catch (error) {
    const code = errorCode(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new StrataError(`Nothing to import at ${path}: no such file.`, 'session_missing');
    throw new StrataError(`Cannot read the session ${path} (${code ?? String(error)}).`, 'session_unreadable');
  }
}

function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}
