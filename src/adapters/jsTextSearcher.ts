import { StrataError } from '../shared/strataError';
import { compileGlob } from '../task/tools/globMatcher';
import { walkWorkspace } from '../task/tools/walkWorkspace';
import type { IgnoreMatcher, TextMatch, TextSearcher, TextSearchQuery, TextSearchResult, Workspace } from '../task/workspacePort';
import { MatchAborted, WorkerLineMatcher } from './workerLineMatcher';

/** Files larger than this (bytes) are not searched by the fallback: it holds a whole file in memory. */
const MAX_FILE_BYTES = 16 * 1024 * 1024;
/** Bytes looked at for a NUL, git's own test for a binary file. */
const BINARY_SNIFF_BYTES = 8000;

/**
 * The search used when ripgrep is not installed: the same walk as `list_files` (ignore rules,
 * no symbolic links followed, `.git/` skipped), JavaScript regular expressions line by line,
 * binary files skipped. Slower than ripgrep but gives the same matches for common patterns.
 * The matching runs on a worker thread (`WorkerLineMatcher`): a pattern that backtracks without
 * end is stopped by the query's signal, with the matches found so far.
 */
export class JsTextSearcher implements TextSearcher {
  constructor(
    private readonly workspace: Workspace,
    private readonly ignore: IgnoreMatcher,
  ) {}

  async search(query: TextSearchQuery): Promise<TextSearchResult> {
    const regex = compile(query.pattern);
    const glob = query.glob ? compileGlob(query.glob) : undefined;
    const matches: TextMatch[] = [];
    const stat = await this.workspace.stat(query.path);
    const files =
      stat?.kind === 'file'
        ? single(query.path)
        : walkWorkspace(this.workspace, this.ignore, query.path, { recursive: true, order: 'depth', includeIgnored: query.includeIgnored, signal: query.signal });
    const matcher = new WorkerLineMatcher(regex, query.signal);
    try {
      for await (const entry of files) {
        if (query.signal?.aborted) break;
        if (entry.kind !== 'file' || (glob && stat?.kind !== 'file' && !glob.test(entry.path))) continue;
        const text = await this.textOf(entry.path);
        if (text === undefined) continue;
        // One more than the room left: a hit past the cap means truncated.
        for (const [line, lineText] of await matcher.match(text, query.maxMatches - matches.length + 1)) {
          if (matches.length === query.maxMatches) return { matches, truncated: true, engine: 'javascript' };
          matches.push({ path: entry.path, line, text: lineText });
        }
      }
    } catch (error) {
      if (!(error instanceof MatchAborted)) throw error;
    } finally {
      matcher.close();
    }
    return { matches, truncated: false, engine: 'javascript' };
  }

  private async textOf(path: string): Promise<string | undefined> {
    const stat = await this.workspace.stat(path);
    if (!stat || stat.size > MAX_FILE_BYTES) return undefined;
    const head = await this.workspace.readBytes(path, 0, BINARY_SNIFF_BYTES);
    if (head.includes(0)) return undefined;
    return this.workspace.readText(path);
  }
}

async function* single(path: string): AsyncGenerator<{ path: string; kind: 'file' }> {
  yield { path, kind: 'file' };
}

/** A JavaScript RegExp for the pattern; ripgrep's leading `(?i)` becomes the `i` flag. */
function compile(pattern: string): RegExp {
  const insensitive = pattern.startsWith('(?i)');
  try {
    return new RegExp(insensitive ? pattern.slice(4) : pattern, insensitive ? 'i' : '');
  } catch (error) {
    throw new StrataError(`The search pattern is not a valid regular expression: ${(error as Error).message}. Escape special characters such as ( [ { . * + ? with a backslash.`, 'search-pattern');
  }
}
