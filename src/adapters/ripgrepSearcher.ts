import { spawn } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { createInterface } from 'node:readline';
import { z } from 'zod';
import { StrataError } from '../shared/strataError';
import { compileGlob } from '../task/tools/globMatcher';
import type { IgnoreMatcher, TextMatch, TextSearcher, TextSearchQuery, TextSearchResult, Workspace } from '../task/workspacePort';
import { JsTextSearcher } from './jsTextSearcher';

/** One line of `rg --json`; only `match` lines are used, paths and text given as UTF-8 `text`. */
const rgLine = z.object({
  type: z.string(),
  data: z
    .object({
      path: z.object({ text: z.string() }).optional(),
      lines: z.object({ text: z.string() }).optional(),
      line_number: z.number().optional(),
    })
    .optional(),
});

/** Characters of rg's stderr kept for an error message. */
const MAX_STDERR_CHARS = 2_000;

/** The `rg` executable on `PATH` (as given), or `undefined`. */
export function findRipgrep(pathVariable = process.env.PATH ?? ''): string | undefined {
  const names = process.platform === 'win32' ? ['rg.exe', 'rg.cmd'] : ['rg'];
  for (const dir of pathVariable.split(delimiter)) {
    for (const name of names) {
      const candidate = join(dir, name);
      try {
        accessSync(candidate, constants.X_OK);
        return candidate;
      } catch {
        // not here
      }
    }
  }
  return undefined;
}

/**
 * Where VS Code keeps its own ripgrep under its `appRoot` (`vscode.env.appRoot`), newest layout
 * first: packaged builds unpack it from the asar archive, source builds do not.
 */
export function vscodeRipgrepCandidates(appRoot: string, platform: NodeJS.Platform = process.platform): string[] {
  const exe = platform === 'win32' ? 'rg.exe' : 'rg';
  return ['node_modules.asar.unpacked', 'node_modules'].flatMap((modules) =>
    ['@vscode/ripgrep', 'vscode-ripgrep'].map((pkg) => join(appRoot, modules, pkg, 'bin', exe)),
  );
}

/** The editor's bundled ripgrep, if one of `vscodeRipgrepCandidates` is executable; else the one on PATH. */
export function findEditorRipgrep(appRoot: string, pathVariable = process.env.PATH ?? ''): string | undefined {
  for (const candidate of vscodeRipgrepCandidates(appRoot)) {
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not this layout
    }
  }
  return findRipgrep(pathVariable);
}

/**
 * Builds the searcher: ripgrep at `rgPath` (default: the one on PATH) when there is one, else
 * the JavaScript fallback. Pass `rgPath: null` to force the fallback.
 */
export function createTextSearcher(workspace: Workspace, ignore: IgnoreMatcher, options: { rgPath?: string | null } = {}): TextSearcher {
  const rgPath = options.rgPath === undefined ? findRipgrep() : options.rgPath;
  return rgPath ? new RipgrepSearcher(workspace.root, rgPath) : new JsTextSearcher(workspace, ignore);
}

/**
 * Search through ripgrep, run in the workspace root. Its ignore handling is made to match the
 * fallback's: hidden files searched, `.git/` skipped, `.gitignore` honoured with or without a
 * git repository, `.strataignore` added, and global, parent and `.ignore` files left out.
 * `--sort path` keeps results deterministic (so identical searches give identical prompts).
 */
export class RipgrepSearcher implements TextSearcher {
  constructor(
    private readonly root: string,
    private readonly rgPath: string,
  ) {}

  search(query: TextSearchQuery): Promise<TextSearchResult> {
    const args = ['--json', '--no-config', '--hidden', '--sort', 'path', '--glob', '!.git'];
    if (query.includeIgnored) args.push('--no-ignore');
    else {
      args.push('--no-require-git', '--no-ignore-global', '--no-ignore-parent', '--no-ignore-dot', '--no-ignore-exclude');
      if (existsSync(join(this.root, '.strataignore'))) args.push('--ignore-file', '.strataignore');
    }
    args.push('--regexp', query.pattern, '--', query.path === '' ? '.' : query.path);
    return this.run(args, query);
  }

  private run(args: string[], query: TextSearchQuery): Promise<TextSearchResult> {
    // Stopped before it began: the abort event has fired already and would never reach rg.
    if (query.signal?.aborted) return Promise.resolve({ matches: [], truncated: false, engine: 'ripgrep' });
    return new Promise((resolve, reject) => {
      const child = spawn(this.rgPath, args, { cwd: this.root, stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
      // rg's own --glob would override ignore rules (a whitelist glob re-includes ignored files),
      // so the glob filters rg's answers here, with the fallback's matcher: one glob semantics.
      const glob = query.glob ? compileGlob(query.glob) : undefined;
      const matches: TextMatch[] = [];
      let truncated = false;
      let stderr = '';
      const stop = (): void => {
        child.kill();
      };
      query.signal?.addEventListener('abort', stop, { once: true });
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
        if (stderr.length < MAX_STDERR_CHARS) stderr += chunk;
      });
      createInterface({ input: child.stdout }).on('line', (line) => {
        if (truncated) return;
        const parsed = rgLine.safeParse(safeJson(line));
        const data = parsed.success && parsed.data.type === 'match' ? parsed.data.data : undefined;
        if (!data?.path || !data.lines || data.line_number === undefined) return;
        const path = data.path.text.replace(/\\/g, '/').replace(/^\.\//, '');
        if (glob && path !== query.path && !glob.test(path)) return;
        if (matches.length === query.maxMatches) {
          truncated = true;
          stop();
          return;
        }
        matches.push({ path, line: data.line_number, text: data.lines.text.replace(/\r?\n$/, '') });
      });
      child.on('error', (error) => {
        query.signal?.removeEventListener('abort', stop);
        reject(new StrataError(`ripgrep (${this.rgPath}) could not run: ${error.message}.`, 'search-failed'));
      });
      child.on('close', (code) => {
        query.signal?.removeEventListener('abort', stop);
        // rg exits 2 for a bad pattern, and also when some files could not be read (matches still valid).
        if (code === 2 && matches.length === 0 && !truncated && !query.signal?.aborted) {
          reject(new StrataError(`The search failed: ${stderr.trim().slice(0, MAX_STDERR_CHARS)}`, 'search-pattern'));
          return;
        }
        resolve({ matches, truncated, engine: 'ripgrep' });
      });
    });
  }
}

function safeJson(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}
