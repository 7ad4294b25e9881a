import { z } from 'zod';
import { applyEditBlocks } from './applyEditBlocks';
import { confinePath, writeProtection } from './confinePath';
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

/** Applies search/replace blocks all-or-nothing: each SEARCH must match exactly once, else the file is untouched. */
export const editFileTool = defineTool({
  name: 'edit_file',
  description:
    'Edit a file with search/replace blocks. Each search text must match exactly once in the current file (copy it exactly, ' +
    'with enough surrounding lines to be unique); blocks must not overlap. If any block fails, no change is made and the answer says which and why.',
  input,
  needsApproval: true,
  summarize: (v) => `edit ${v.path} (${v.edits.length} block${v.edits.length === 1 ? '' : 's'})`,
  protection: (v, ctx) => writeProtection(ctx, v.path),
  async run(v, ctx): Promise<ToolResult> {
    const where = await confinePath(ctx, v.path, 'write');
    if (!where.ok) return fail(where.message);
    const stat = await ctx.workspace.stat(where.rel);
    if (!stat) return fail(`No file at '${v.path}'. Use write_file to create it.`);
    if (stat.kind !== 'file') return fail(`'${v.path}' is a folder, not a file.`);
    if (stat.size > EDIT_MAX_BYTES) return fail(`'${v.path}' is too large to edit here (${stat.size} bytes); use a command such as sed.`);
    const text = await ctx.workspace.readText(where.rel);
    if (text.includes('\0')) return fail(`'${v.path}' is a binary file; edit_file works on text only.`);
    const edited = applyEditBlocks(text, v.edits);
    if (!edited.ok) return fail(`No change made to ${where.rel}:\n${edited.problems.join('\n')}\nRead the file again if it may have changed, then retry.`);
    const out = edited.text;
    await ctx.workspace.writeText(where.rel, out);
    const after = await ctx.workspace.stat(where.rel);
    if (after) ctx.tracker.recordEdit(where.rel, after, out);
    return ok(`Edited ${where.rel}: ${edited.applied} block${edited.applied === 1 ? '' : 's'} applied (the file now has ${out.split('\n').length} lines).`);
  },
});
