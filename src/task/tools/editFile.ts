import { z } from 'zod';
import { confinePath } from './confinePath';
import { defineTool, fail, ok } from './tool';
import type { ToolResult } from './tool';

/** Bytes above which a file is not edited in memory. */
const EDIT_MAX_BYTES = 8 * 1024 * 1024;

const block = z.object({
  search: z.string().describe('Exact text to find: must occur exactly once in the file, whitespace included.'),
  replace: z.string().describe('Text that takes its place (may be empty to delete).'),
});

const input = z.object({
  path: z.string().min(1).describe('File to edit, relative to the workspace root.'),
  edits: z.array(block).min(1).describe('Search/replace blocks, applied together: all or none.'),
});

/** Where a block's SEARCH text sits, or why it cannot be used. */
type Located = { start: number; end: number; replace: string } | { problem: string };

/** Applies search/replace blocks all-or-nothing: each SEARCH must match exactly once, else the file is untouched. */
export const editFileTool = defineTool({
  name: 'edit_file',
  description:
    'Edit a file with search/replace blocks. Each search text must match exactly once in the current file (copy it exactly, ' +
    'with enough surrounding lines to be unique); blocks must not overlap. If any block fails, no change is made and the answer says which and why.',
  input,
  needsApproval: true,
  summarize: (v) => `edit ${v.path} (${v.edits.length} block${v.edits.length === 1 ? '' : 's'})`,
  async run(v, ctx): Promise<ToolResult> {
    const where = await confinePath(ctx, v.path, 'write');
    if (!where.ok) return fail(where.message);
    const stat = await ctx.workspace.stat(where.rel);
    if (!stat) return fail(`No file at '${v.path}'. Use write_file to create it.`);
    if (stat.kind !== 'file') return fail(`'${v.path}' is a folder, not a file.`);
    if (stat.size > EDIT_MAX_BYTES) return fail(`'${v.path}' is too large to edit here (${stat.size} bytes); use a command such as sed.`);
    const text = await ctx.workspace.readText(where.rel);
    if (text.includes('\0')) return fail(`'${v.path}' is a binary file; edit_file works on text only.`);
    const crlf = text.includes('\r\n');
    const located = v.edits.map((e) => locate(text, toEol(e.search, crlf), toEol(e.replace, crlf)));
    const problems = located.flatMap((l, i) => ('problem' in l ? [`- block ${i + 1}: ${l.problem}`] : []));
    const spans = located
      .map((l, i) => ({ l, i }))
      .flatMap(({ l, i }) => ('problem' in l ? [] : [{ ...l, block: i + 1 }]))
      .sort((a, b) => a.start - b.start);
    for (let k = 1; k < spans.length; k++) {
      if (spans[k]!.start < spans[k - 1]!.end) problems.push(`- blocks ${spans[k - 1]!.block} and ${spans[k]!.block} overlap; merge them into one block.`);
    }
    if (problems.length > 0) return fail(`No change made to ${where.rel}:\n${problems.join('\n')}\nRead the file again if it may have changed, then retry.`);
    let out = '';
    let at = 0;
    for (const s of spans) {
      out += text.slice(at, s.start) + s.replace;
      at = s.end;
    }
    out += text.slice(at);
    await ctx.workspace.writeText(where.rel, out);
    const after = await ctx.workspace.stat(where.rel);
    if (after) ctx.tracker.recordEdit(where.rel, after, out);
    return ok(`Edited ${where.rel}: ${spans.length} block${spans.length === 1 ? '' : 's'} applied (the file now has ${out.split('\n').length} lines).`);
  },
});

/** With a CRLF file, LF line breaks in the model's text become CRLF (models write LF). */
function toEol(s: string, crlf: boolean): string {
  return crlf ? s.replace(/\r?\n/g, '\r\n') : s;
}

function lineAt(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < index; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

function locate(text: string, search: string, replace: string): Located {
  if (search === '') return { problem: 'the search text is empty; give the exact text to replace.' };
  const hits: number[] = [];
  for (let i = text.indexOf(search); i >= 0 && hits.length < 6; i = text.indexOf(search, i + 1)) hits.push(i);
  if (hits.length === 1) return { start: hits[0]!, end: hits[0]! + search.length, replace };
  if (hits.length > 1) {
    const lines = hits.slice(0, 5).map((h) => lineAt(text, h));
    return { problem: `the search text matches ${hits.length > 5 ? 'more than 5' : hits.length} times (lines ${lines.join(', ')}); add surrounding lines so it matches once.` };
  }
  const first = search.split(/\r?\n/).find((l) => l.trim() !== '')?.trim();
  const near = first ? text.split('\n').findIndex((l) => l.includes(first)) : -1;
  const hint = near >= 0 ? ` Its first line appears at line ${near + 1}, so the rest differs (whitespace, or later lines).` : '';
  return { problem: `the search text was not found.${hint}` };
}
