/**
 * The Task tools' doors to the outside world: files, shell commands, text search and ignore
 * rules. Adapters in `src/adapters/` implement them (node:fs, child_process, ripgrep, the
 * `ignore` package); the editor may implement `Workspace` over its own file system API.
 *
 * Every path crossing these ports is workspace-relative, POSIX-separated and already confined
 * by the caller (`confinePath`): `''` is the root, `'src/a.ts'` a file. Adapters never see what
 * the model wrote.
 */

/** What a path is, following symbolic links. */
export interface FileStat {
  kind: 'file' | 'directory' | 'other';
  /** Bytes on disk. */
  size: number;
  /** Last modification, milliseconds since epoch. */
  mtimeMs: number;
}

/** One entry of a directory, without following symbolic links (so a walk never loops or leaves). */
export interface DirEntry {
  name: string;
  kind: 'file' | 'directory' | 'symlink' | 'other';
}

export interface Workspace {
  /** Absolute path of the workspace root in the host's own form (shown to the model, used to confine absolute paths). */
  readonly root: string;
  /** `undefined` when nothing is there (a dangling symlink counts as nothing). */
  stat(rel: string): Promise<FileStat | undefined>;
  exists(rel: string): Promise<boolean>;
  /** At most `length` bytes from byte `offset` (fewer at the end of the file). */
  readBytes(rel: string, offset: number, length: number): Promise<Uint8Array>;
  /** The whole file as UTF-8; callers check the size first. */
  readText(rel: string): Promise<string>;
  /** Entries sorted by name, so listings are deterministic (and cache-friendly). */
  listDir(rel: string): Promise<DirEntry[]>;
  /**
   * Absolute real path where `rel` lands once every symbolic link is followed, in the host's
   * form. For a path that does not exist yet it is where a write would land (the real parent
   * plus the rest, dangling links followed), so a write cannot be steered out through a link.
   */
  realpath(rel: string): Promise<string>;
  /** Writes UTF-8 text, creating missing parent directories. */
  writeText(rel: string, text: string): Promise<void>;
}

export interface CommandRequest {
  command: string;
  /** Workspace-relative working directory. */
  cwd: string;
  /** After this many milliseconds the whole process group is stopped. */
  timeoutMs: number;
  /** Aborting stops the whole process group, as a timeout does. */
  signal?: AbortSignal;
}

export interface CommandResult {
  /** stdout and stderr interleaved in arrival order, UTF-8; head and tail kept when over the cap. */
  output: string;
  /** `null` when the process was killed by a signal or never started. */
  exitCode: number | null;
  timedOut: boolean;
  aborted: boolean;
  /** True when output bytes were dropped from the middle to stay under the runner's cap. */
  truncated: boolean;
  /** Bytes dropped from the middle of the output (0 when not truncated). */
  omittedBytes: number;
  /** Why the command could not start (missing shell, missing cwd), when it could not. */
  startError?: string;
}

/** Runs one shell command line; never leaves a process behind after a timeout or an abort. */
export interface CommandRunner {
  /** The shell that interprets command lines (for the model's environment details). */
  readonly shell: string;
  run(request: CommandRequest): Promise<CommandResult>;
}

export interface TextSearchQuery {
  /** A regular expression (ripgrep's Rust syntax, or JavaScript's in the fallback; the common subset is safe). */
  pattern: string;
  /** Workspace-relative file or directory to search. */
  path: string;
  /** Optional file glob such as `*.ts` or `src/**\/*.test.ts` (a glob without `/` matches base names). */
  glob?: string;
  /** Stop after this many matching lines. */
  maxMatches: number;
  /** Search files that `.gitignore` / `.strataignore` exclude (the user mentioned them). */
  includeIgnored: boolean;
  signal?: AbortSignal;
}

export interface TextMatch {
  /** Workspace-relative POSIX path. */
  path: string;
  /** 1-based line number. */
  line: number;
  /** The matching line without its line break. */
  text: string;
}

export interface TextSearchResult {
  /** Sorted by path, then line. */
  matches: TextMatch[];
  /** More matches existed than `maxMatches`. */
  truncated: boolean;
  /** Which implementation answered. */
  engine: 'ripgrep' | 'javascript';
}

/** ripgrep-like search. Throws `StrataError` (code `search-pattern`) for a pattern it cannot compile. */
export interface TextSearcher {
  search(query: TextSearchQuery): Promise<TextSearchResult>;
}

/** The workspace's ignore rules: `.gitignore` files (root and nested), `.strataignore` at the root, and `.git/`. */
export interface IgnoreMatcher {
  /**
   * `parentsClear`: the caller already knows no folder above `rel` is ignored (a walk that
   * prunes ignored folders), so only `rel` itself is tested.
   */
  isIgnored(rel: string, isDirectory: boolean, parentsClear?: boolean): Promise<boolean>;
}
