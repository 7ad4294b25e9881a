import { z } from 'zod';
import type { FileStat, Workspace } from '../workspacePort';
import { confinePath } from './confinePath';
import { defineTool, fail, ok } from './tool';
import type { ToolResult } from './tool';
import { deadline, DEFAULT_TOOL_LIMITS } from './toolLimits';

/** Bytes above which a file is not read whole: the model must ask for a line range. */
export const READ_FILE_MAX_BYTES = 1024 * 1024;
/** Lines returned by one call at most; the answer says how to read on. */
export const READ_FILE_MAX_LINES = 2_000;
/** Characters kept of one line (minified files have lines of megabytes). */
const MAX_LINE_CHARS = 2_000;
/** Bytes looked at for a NUL, git's own test for a binary file. */
const BINARY_SNIFF_BYTES = 8_000;
/** Bytes read at a time when scanning a large file for a line range. */
const SCAN_CHUNK_BYTES = 64 * 1024;

const input = z
  .object({
    path: z.string().min(1).describe('File path, relative to the workspace root.'),
    start_line: z.number().int().min(1).optional().describe('First line to read, 1-based (default 1).'),
    end_line: z.number().int().min(1).optional().describe('Last line to read, inclusive (default: the end, at most 2000 lines).'),
  })
  .refine((v) => v.start_line === undefined || v.end_line === undefined || v.end_line >= v.start_line, {
    message: 'end_line must be at least start_line',
    path: ['end_line'],
  });

/** Reads a text file with line numbers; refuses binary files, and large files unless a line range is given. */
export const readFileTool = defineTool({
  name: 'read_file',
  description:
    'Read a text file in the workspace. Lines come numbered ("  12 | text"). Give start_line/end_line to read part of a file; ' +
    `one call returns at most ${READ_FILE_MAX_LINES} lines. Files over ${READ_FILE_MAX_BYTES / 1024 / 1024} MB must be read by line range. Binary files are not shown.`,
  input,
  needsApproval: false,
  summarize: (v) => `read ${v.path}`,
  async run(v, ctx): Promise<ToolResult> {
    const where = await confinePath(ctx, v.path, 'read');
    if (!where.ok) return fail(where.message);
    const stat = await ctx.workspace.stat(where.rel);
    if (!stat) return fail(`No file at '${v.path}'. Use list_files to see what exists.`);
    if (stat.kind === 'directory') return fail(`'${v.path}' is a folder, not a file. Use list_files to see its contents.`);
    // A FIFO, socket or device would block the read or never end: only regular files are read.
    if (stat.kind !== 'file') return fail(`'${v.path}' is not a regular file (a pipe, socket or device); only files can be read.`);
    const head = await ctx.workspace.readBytes(where.rel, 0, BINARY_SNIFF_BYTES);
    if (head.includes(0)) return fail(`'${v.path}' is a binary file (${formatBytes(stat.size)}); its content is not shown.`);
    const ranged = v.start_line !== undefined || v.end_line !== undefined;
    if (stat.size > READ_FILE_MAX_BYTES && !ranged) {
      return fail(
        `'${v.path}' is ${formatBytes(stat.size)}, over the ${formatBytes(READ_FILE_MAX_BYTES)} limit for reading a whole file. ` +
          `Read a part with start_line and end_line, or find lines with search_files.`,
      );
    }
    const start = v.start_line ?? 1;
    const end = Math.min(v.end_line ?? Number.MAX_SAFE_INTEGER, start + READ_FILE_MAX_LINES - 1);
    if (stat.size > READ_FILE_MAX_BYTES) {
      const seconds = ctx.limits?.readSeconds ?? DEFAULT_TOOL_LIMITS.readSeconds;
      const limit = deadline(ctx.signal, seconds);
      const scan = await scanLines(ctx.workspace, where.rel, stat, start, end, limit.signal);
      if (limit.signal.aborted) {
        const why = limit.timedOut() ? `read stopped after ${seconds} s` : 'the user stopped the read';
        return fail(`${why}: '${v.path}' (${formatBytes(stat.size)}) was scanned to line ${scan.total}, short of line ${start}. Find the lines you need with search_files, then read a range near them.`);
      }
      ctx.tracker.recordRead(where.rel, stat);
      return render(v.path, scan.lines, start, v.end_line, scan.total, scan.complete);
    }
    const text = await ctx.workspace.readText(where.rel);
    ctx.tracker.recordRead(where.rel, stat, text);
    const all = splitLines(text);
    return render(v.path, all.slice(start - 1, end).map((line) => clip(line)), start, v.end_line, all.length, true);
  },
});

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n').map((l) => l.replace(/\r$/, ''));
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** Numbered lines (each already clipped) plus a note when more remain; `total` is unknown (`complete` false) when a scan stopped early. */
function render(path: string, lines: string[], start: number, askedEnd: number | undefined, total: number, complete: boolean): ToolResult {
  if (total === 0) return ok(`${path} is empty.`);
  if (lines.length === 0) return fail(`'${path}' has ${total} lines; start_line ${start} is past its end.`);
  const last = start + lines.length - 1;
  const width = String(last).length;
  const body = lines.map((line, i) => `${String(start + i).padStart(width)} | ${line}`).join('\n');
  const of = complete ? `of ${total}` : 'of a large file';
  const header = `${path} (lines ${start}-${last} ${of})`;
  const more = (!complete || last < total) && (askedEnd === undefined || last < askedEnd);
  const note = more ? `\n[more lines follow: read on with start_line ${last + 1}]` : '';
  return ok(`${header}\n${body}${note}`);
}

/** `line` cut to MAX_LINE_CHARS; `dropped`: characters of it a scan already let go of. */
function clip(line: string, dropped = 0): string {
  const more = Math.max(0, line.length - MAX_LINE_CHARS) + dropped;
  return more > 0 ? `${line.slice(0, MAX_LINE_CHARS)} [... ${more} more characters]` : line;
}

/** Lines `start..end` of a large file, read chunk by chunk so the whole file is never held. */
async function scanLines(workspace: Workspace, rel: string, stat: FileStat, start: number, end: number, signal: AbortSignal): Promise<{ lines: string[]; total: number; complete: boolean }> {
  const decoder = new TextDecoder('utf-8');
  const lines: string[] = [];
  let lineNo = 1;
  let partial = '';
  // Characters of the current line let go of already (a runaway line), for its "more characters" note.
  let dropped = 0;
  for (let offset = 0; offset < stat.size; offset += SCAN_CHUNK_BYTES) {
    if (signal.aborted) return { lines, total: lineNo - 1, complete: false };
    const bytes = await workspace.readBytes(rel, offset, SCAN_CHUNK_BYTES);
    if (bytes.length === 0) break;
    const pieces = (partial + decoder.decode(bytes, { stream: true })).split('\n');
    partial = pieces.pop() ?? '';
    for (const piece of pieces) {
      if (lineNo >= start && lineNo <= end) lines.push(clip(piece.replace(/\r$/, ''), dropped));
      lineNo++;
      dropped = 0;
      if (lineNo > end) return { lines, total: lineNo - 1, complete: false };
    }
    // Keep a runaway line (no newline for megabytes) from growing without bound: what clip() keeps
    // stays, and a last "\r" (the line's CRLF ending if a newline comes next), the rest is only counted.
    if (partial.length > MAX_LINE_CHARS * 2) {
      const cr = partial.endsWith('\r') ? '\r' : '';
      dropped += partial.length - MAX_LINE_CHARS - cr.length;
      partial = partial.slice(0, MAX_LINE_CHARS) + cr;
    }
  }
  partial += decoder.decode();
  if (partial !== '') {
    if (lineNo >= start && lineNo <= end) lines.push(clip(partial.replace(/\r$/, ''), dropped));
    lineNo++;
  }
  return { lines, total: lineNo - 1, complete: true };
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
