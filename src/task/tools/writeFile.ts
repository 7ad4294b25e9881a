import { z } from 'zod';
import { confinePath, writeProtection } from './confinePath';
import { formatBytes } from './readFile';
import { defineTool, fail, ok } from './tool';
import type { ToolResult } from './tool';

const input = z.object({
  path: z.string().min(1).describe('File path, relative to the workspace root. Missing folders are created.'),
  content: z.string().describe('The complete new content of the file.'),
});

function lineCount(text: string): number {
  return text === '' ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

/** Creates or replaces a whole file (needs approval). */
export const writeFileTool = defineTool({
  name: 'write_file',
  description: 'Create a file, or replace a file\'s whole content, in the workspace. Missing folders are created. To change part of an existing file, prefer edit_file.',
  input,
  needsApproval: true,
  summarize: (v) => `write ${v.path} (${lineCount(v.content)} lines)`,
  protection: (v, ctx) => writeProtection(ctx, v.path),
  async run(v, ctx): Promise<ToolResult> {
    const where = await confinePath(ctx, v.path, 'write');
    if (!where.ok) return fail(where.message);
    const before = await ctx.workspace.stat(where.rel);
    if (before?.kind === 'directory') return fail(`'${v.path}' is a folder; give a file path.`);
    if (before && before.kind !== 'file') return fail(`'${v.path}' is not a regular file (a pipe, socket or device); it is not written.`);
    await ctx.workspace.writeText(where.rel, v.content);
    const after = await ctx.workspace.stat(where.rel);
    if (after) ctx.tracker.recordEdit(where.rel, after, v.content);
    const verb = before ? 'Replaced' : 'Created';
    return ok(`${verb} ${where.rel} (${lineCount(v.content)} lines, ${formatBytes(after?.size ?? v.content.length)}).`);
  },
});
