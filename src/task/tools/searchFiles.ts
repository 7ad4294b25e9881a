import { z } from 'zod';
import { StrataError } from '../../shared/strataError';
import type { TextMatch } from '../workspacePort';
import { confinePath, isMentioned } from './confinePath';
import { defineTool, fail, ok } from './tool';
import type { ToolResult } from './tool';
import { deadline, DEFAULT_TOOL_LIMITS } from './toolLimits';
import { displayPath } from './workspacePath';

/** Matching lines returned by one call at most. */
export const SEARCH_MAX_MATCHES = 300;
/** Characters kept of one matching line. */
const MAX_LINE_CHARS = 300;

const input = z.object({
  regex: z.string().min(1).describe('Regular expression to find (Rust/ripgrep syntax; prefix (?i) to ignore case).'),
  path: z.string().default('.').describe('File or folder to search, relative to the workspace root (default: the root).'),
  file_pattern: z.string().min(1).optional().describe('Glob limiting which files are searched, e.g. "*.ts" or "src/**/*.test.ts".'),
});

/** Regex search over the workspace through the `TextSearcher` port (ripgrep or the JS fallback). */
export const searchFilesTool = defineTool({
  name: 'search_files',
  description:
    'Search file contents with a regular expression. Answers "path:line: text" grouped by file, ' +
    `at most ${SEARCH_MAX_MATCHES} matches. Files excluded by .gitignore or .strataignore and binary files are skipped.`,
  input,
  needsApproval: false,
  summarize: (v) => `search /${v.regex}/ in ${v.path}${v.file_pattern ? ` (${v.file_pattern})` : ''}`,
  async run(v, ctx): Promise<ToolResult> {
    const where = await confinePath(ctx, v.path, 'read');
    if (!where.ok) return fail(where.message);
    if (!(await ctx.workspace.exists(where.rel))) return fail(`No file or folder at '${v.path}'.`);
    const seconds = ctx.limits?.searchSeconds ?? DEFAULT_TOOL_LIMITS.searchSeconds;
    const limit = deadline(ctx.signal, seconds);
    let result;
    try {
      result = await ctx.searcher.search({
        pattern: v.regex,
        path: where.realRel,
        glob: v.file_pattern,
        maxMatches: SEARCH_MAX_MATCHES,
        includeIgnored: isMentioned(where.rel, ctx.mentionedPaths),
        signal: limit.signal,
      });
    } catch (error) {
      if (error instanceof StrataError) return fail(error.message);
      throw error;
    }
    const found = result.matches.length > 0 ? ` Matches found before it stopped:\n${render(result.matches)}` : ' No match had been found yet.';
    if (limit.timedOut()) {
      return fail(
        `search stopped after ${seconds} s: the pattern /${v.regex}/ took too long in '${displayPath(where.rel)}' ` +
          `(nested repeats such as (a+)+ can backtrack without end); simplify it or narrow the path or file_pattern.${found}`,
      );
    }
    if (ctx.signal.aborted) return fail(`The user stopped the search for /${v.regex}/.${found}`);
    if (result.matches.length === 0) return ok(`No matches for /${v.regex}/ in '${displayPath(where.rel)}'${v.file_pattern ? ` (files ${v.file_pattern})` : ''}.`);
    const files = new Set(result.matches.map((m) => m.path)).size;
    const head = `${plural(result.matches.length, 'match', 'matches')} in ${plural(files, 'file', 'files')}${result.truncated ? ` (stopped at ${SEARCH_MAX_MATCHES}: narrow the path, pattern or file_pattern)` : ''}`;
    return ok(`${head}\n${render(result.matches)}`);
  },
});

/** "path:line: text" lines, grouped by file with a blank line between files. */
function render(matches: readonly TextMatch[]): string {
  const out: string[] = [];
  let file = '';
  for (const m of matches) {
    if (m.path !== file) {
      if (file !== '') out.push('');
      file = m.path;
    }
    const text = m.text.length > MAX_LINE_CHARS ? `${m.text.slice(0, MAX_LINE_CHARS)} [...]` : m.text;
    out.push(`${m.path}:${m.line}: ${text}`);
  }
  return out.join('\n');
}

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}
