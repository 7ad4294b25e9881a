import { z } from 'zod';
import { confinePath, isMentioned } from './confinePath';
import { defineTool, fail, ok } from './tool';
import type { ToolResult } from './tool';
import { deadline, DEFAULT_TOOL_LIMITS } from './toolLimits';
import { walkWorkspace } from './walkWorkspace';
import { displayPath } from './workspacePath';

/** Entries listed by one call at most (breadth-first, so the top levels come first). */
export const LIST_FILES_MAX_ENTRIES = 500;

const input = z.object({
  path: z.string().default('.').describe('Folder to list, relative to the workspace root (default: the root).'),
  recursive: z.boolean().default(false).describe('List sub-folders too (breadth-first).'),
});

/** Lists a folder (optionally recursively), ignored entries and `.git/` left out, capped. */
export const listFilesTool = defineTool({
  name: 'list_files',
  description:
    'List files and folders in a workspace folder; folders end with "/", symbolic links with "@". Entries excluded by .gitignore or .strataignore are left out. ' +
    `recursive lists sub-folders too, top levels first, at most ${LIST_FILES_MAX_ENTRIES} entries.`,
  input,
  needsApproval: false,
  summarize: (v) => `list ${v.path}${v.recursive ? ' (recursive)' : ''}`,
  async run(v, ctx): Promise<ToolResult> {
    const where = await confinePath(ctx, v.path, 'read');
    if (!where.ok) return fail(where.message);
    const stat = await ctx.workspace.stat(where.rel);
    if (!stat) return fail(`No folder at '${v.path}'.`);
    if (stat.kind !== 'directory') return fail(`'${v.path}' is a file, not a folder; use read_file to read it.`);
    const includeIgnored = isMentioned(where.rel, ctx.mentionedPaths);
    const lines: string[] = [];
    let truncated = false;
    const seconds = ctx.limits?.listSeconds ?? DEFAULT_TOOL_LIMITS.listSeconds;
    const limit = deadline(ctx.signal, seconds);
    for await (const entry of walkWorkspace(ctx.workspace, ctx.ignore, where.realRel, { recursive: v.recursive, order: 'breadth', includeIgnored, signal: limit.signal })) {
      if (lines.length === LIST_FILES_MAX_ENTRIES) {
        truncated = true;
        break;
      }
      lines.push(entry.path + (entry.kind === 'directory' ? '/' : entry.kind === 'symlink' ? '@' : ''));
    }
    const folder = displayPath(where.rel);
    if (limit.signal.aborted) {
      const why = limit.timedOut() ? `listing stopped after ${seconds} s: the tree is too large to walk; list a sub-folder, or without recursive` : 'the user stopped the listing';
      return fail(`${why}. Entries found before it stopped: ${lines.length}.${lines.length > 0 ? `\n${lines.sort().join('\n')}` : ''}`);
    }
    if (lines.length === 0) return ok(`${folder} is empty (or holds only ignored entries).`);
    lines.sort();
    const note = truncated ? `\n[listing stopped at ${LIST_FILES_MAX_ENTRIES} entries: list a sub-folder to see more]` : '';
    return ok(`${lines.join('\n')}${note}`);
  },
});
