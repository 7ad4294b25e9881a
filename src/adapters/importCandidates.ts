import { open, readdir, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { parseClaudeCodeTranscript } from '../shared/claudeCodeTranscript';
import { titleFromText } from '../shared/sessionTitle';
import type { ImportFormat } from './importedSessionReader';
import { CLINE_HISTORY_FILE } from './importedSessionReader';

/** Bytes read from the start of each file to find its first query: listing stays fast on long sessions. */
const HEAD_BYTES = 65_536;

/** A session the import picker offers. */
export interface ImportCandidate {
  /** The file to import (a transcript, or a Cline task's history file). */
  path: string;
  format: ImportFormat;
  /** The first query, or a note that none was found near the start. */
  title: string;
  /** Claude Code: the working folder the session ran in; Cline tasks do not record one here. */
  project?: string;
  /** Last write, ms since epoch. */
  modifiedAt: number;
}

/** Claude Code's transcripts folder: `$CLAUDE_CONFIG_DIR/projects`, else `~/.claude/projects`. */
export function claudeCodeProjectsDir(env: NodeJS.ProcessEnv = process.env, home: string = homedir()): string {
  return join(env.CLAUDE_CONFIG_DIR ?? join(home, '.claude'), 'projects');
}

/** Cline's tasks folder beside this extension's global storage (`<globalStorage>/../saoudrizwan.claude-dev/tasks`). */
export function clineTasksDir(ownGlobalStorage: string): string {
  return join(ownGlobalStorage, '..', 'saoudrizwan.claude-dev', 'tasks');
}

/**
 * Every Claude Code session under `projectsDir` (`<project>/<session>.jsonl`; subagent
 * `agent-*.jsonl` files left out), newest first. A missing folder gives none.
 */
export async function listClaudeCodeSessions(projectsDir: string): Promise<ImportCandidate[]> {
  const found: ImportCandidate[] = [];
  for (const project of await entries(projectsDir)) {
    const folder = join(projectsDir, project);
    for (const name of await entries(folder)) {
      if (!name.endsWith('.jsonl') || name.startsWith('agent-')) continue;
      const path = join(folder, name);
      const modifiedAt = await modified(path);
      if (modifiedAt === undefined) continue;
      const head = await readHead(path);
      const info = claudeCodeHead(head.text, head.whole, path);
      found.push({ path, format: 'claude-code', title: info.title ?? noTitle(head.whole), project: info.cwd ?? project, modifiedAt });
    }
  }
  return newestFirst(found);
}

/** Every Cline task under `tasksDir` that holds a conversation, newest first. A missing folder gives none. */
export async function listClineTasks(tasksDir: string): Promise<ImportCandidate[]> {
  const found: ImportCandidate[] = [];
  for (const task of await entries(tasksDir)) {
    const path = join(tasksDir, task, CLINE_HISTORY_FILE);
    const modifiedAt = await modified(path);
    if (modifiedAt === undefined) continue;
    const head = await readHead(path);
    found.push({ path, format: 'cline', title: clineHeadTitle(head.text) ?? noTitle(head.whole), modifiedAt });
  }
  return newestFirst(found);
}

/** Title and working folder from a transcript's first lines (only whole lines are read). */
export function claudeCodeHead(text: string, whole: boolean, sourceName: string): { title?: string; cwd?: string } {
  const lines = whole ? text : text.slice(0, text.lastIndexOf('\n') + 1);
  try {
    const { meta } = parseClaudeCodeTranscript(lines, sourceName);
    return { ...(typeof meta.title === 'string' ? { title: meta.title } : {}), ...(typeof meta.cwd === 'string' ? { cwd: meta.cwd } : {}) };
  } catch {
    return {};
  }
}

/**
 * The first query in the start of a Cline history file: the first `"text"` (or string
 * `"content"`) value, decoded even when the head cuts it off, then made a title.
 */
export function clineHeadTitle(head: string): string | undefined {
  const key = /"(?:text|content)"\s*:\s*"/.exec(head);
  if (!key) return undefined;
  const start = key.index + key[0].length;
  let end = start;
  while (end < head.length && head[end] !== '"') end += head[end] === '\\' ? 2 : 1;
  return titleFromText(decodeJsonString(head.slice(start, Math.min(end, head.length))));
}

/** A JSON string body, possibly cut mid-escape at its end. */
function decodeJsonString(body: string): string {
  for (let cut = 0; cut <= 6 && cut < body.length; cut++) {
    try {
      return JSON.parse(`"${body.slice(0, body.length - cut)}"`) as string;
    } catch {
      // A cut escape (\u00 or a lone backslash) at the end: drop a character and try again.
    }
  }
  return '';
}

function noTitle(whole: boolean): string {
  return whole ? '(no query)' : `(no query in the first ${HEAD_BYTES / 1024} KB)`;
}

function newestFirst(list: ImportCandidate[]): ImportCandidate[] {
  return list.sort((a, b) => b.modifiedAt - a.modifiedAt || a.path.localeCompare(b.path));
}

async function entries(folder: string): Promise<string[]> {
  try {
    return (await readdir(folder)).sort();
  } catch {
    return [];
  }
}

async function modified(path: string): Promise<number | undefined> {
  try {
    const info = await stat(path);
    return info.isFile() ? info.mtimeMs : undefined;
  } catch {
    return undefined;
  }
}

/** The first HEAD_BYTES of a file as text; `whole` when that is all of it. */
async function readHead(path: string): Promise<{ text: string; whole: boolean }> {
  let file: Awaited<ReturnType<typeof open>>;
  try {
    file = await open(path, 'r');
  } catch {
    return { text: '', whole: false };
  }
  try {
    const buffer = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await file.read(buffer, 0, HEAD_BYTES, 0);
    const size = (await file.stat()).size;
    return { text: new TextDecoder().decode(buffer.subarray(0, bytesRead)), whole: bytesRead >= size };
  } catch {
    return { text: '', whole: false };
  } finally {
    await file.close();
  }
}
