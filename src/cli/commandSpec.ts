/** One command-line option: how node:util's parseArgs reads it and how `--help` describes it. */
export interface OptionSpec {
  type: 'string' | 'boolean';
  /** Placeholder shown in help for a string option, e.g. `<tokens>`. */
  value?: string;
  /** The default as help shows it (`none` / `off` when the option does nothing unless given). */
  default: string;
  description: string;
}

/** A subcommand: its positionals, its options and what its exit codes mean. */
export interface CommandSpec {
  name: string;
  positionals: string;
  summary: string;
  options: Record<string, OptionSpec>;
  exitCodes: string[];
}

import { SQLITE_DRIVER_OPTION } from './sqliteDriverOption';

const HELP: OptionSpec = { type: 'boolean', default: 'off', description: 'print this help and exit 0' };

export const DEFAULT_WINDOWS = [32_000, 64_000, 128_000, 200_000];
export const DEFAULT_SCALE = [100, 1_000, 10_000];
/** Windows of the long-session panel: where a long session outgrows the window, and where it does not yet. */
export const DEFAULT_LONG_WINDOWS = [128_000, 200_000];
export const BENCH_PANELS = ['short', 'long'] as const;

export const REPLAY_SPEC: CommandSpec = {
  name: 'replay',
  positionals: '<session.jsonl>',
  summary: 'Drives the engine over a recorded session and prints one row per exchange.',
  options: {
    dump: { type: 'string', value: '<requests.jsonl>', default: 'none', description: 'write every request the engine would send (docs/cli.md, "The dump contract")' },
    window: { type: 'string', value: '<tokens>', default: '200000', description: "the model's context window" },
    budget: { type: 'string', value: '<tokens>', default: '40000', description: "Strata's prompt budget ceiling while the session is short; in force: min(budget, 80% of (window - 8192)), less 5% until API usage corrects the token counts; a long session's grows with its history up to that 80%" },
    archive: { type: 'string', value: '<file.sqlite>', default: 'a temporary file', description: 'the SQLite archive to write; each replay is a new session in it, earlier ones are kept' },
    resume: { type: 'string', value: '<sessionId|last>', default: 'none: a new session', description: 'continue that session of this file in --archive (last: the latest one, or a new one if none) after the exchanges it holds' },
    quiet: { type: 'boolean', default: 'off', description: 'print only the total line' },
    'sqlite-driver': SQLITE_DRIVER_OPTION,
    help: HELP,
  },
  exitCodes: [
    '0  every request fitted the budget',
    '1  a request exceeded the budget, an exchange could not be archived, or a file could not be read',
    '2  usage error (nothing else is printed)',
    '130, 143  stopped by SIGINT, SIGTERM (the turn in progress finished and the archive was flushed first)',
  ],
};

export const BENCH_SPEC: CommandSpec = {
  name: 'bench',
  positionals: '',
  summary: 'Runs every strategy on every session at each window; prints a table, a verdict and the moonshot per window.',
  options: {
    sessions: { type: 'string', value: '<dir>', default: 'bench/sessions', description: 'folder of .jsonl sessions' },
    windows: { type: 'string', value: '<tokens,...>', default: DEFAULT_WINDOWS.join(','), description: 'context windows of the pressure sweep' },
    window: { type: 'string', value: '<tokens>', default: 'the --windows list', description: 'one window only (same as --windows <tokens>)' },
    panels: { type: 'string', value: '<short,long>', default: BENCH_PANELS.join(','), description: 'which panels to run: short (the sweep on --sessions), long (--long-sessions and the day sessions built from --sessions)' },
    'long-sessions': { type: 'string', value: '<dir>', default: 'bench/long', description: 'folder of .jsonl sessions longer than the window, for the long panel' },
    'long-windows': { type: 'string', value: '<tokens,...>', default: DEFAULT_LONG_WINDOWS.join(','), description: 'context windows of the long panel' },
    budget: { type: 'string', value: '<tokens>', default: '40000', description: "Strata's prompt budget ceiling while the session is short; in force at each window: min(budget, 80% of (window - 8192)), less 5% (token counts uncorrected); a long session's grows with its history up to that 80%" },
    set: { type: 'string', value: '<name=value,...>', default: 'none', description: 'engine settings, e.g. workingMemoryMax=15 (unknown names are an error)' },
    json: { type: 'string', value: '<file>', default: 'none', description: "write every window's figures, verdicts and the moonshot as JSON" },
    plot: { type: 'string', value: '<file.svg>', default: 'none', description: 'draw cost against span recall, one panel per window (the frontier)' },
    'session-plot': { type: 'string', value: '<file.svg>', default: 'none', description: 'draw prompt tokens and cost per turn of one session, at the smallest window' },
    'plot-session': { type: 'string', value: '<name>', default: 'the longest session', description: 'the session --session-plot draws' },
    scale: { type: 'string', value: '<n,...>', default: DEFAULT_SCALE.join(','), description: 'exchanges of the scaling run (Strata on concatenated sessions, at the largest window)' },
    'no-scale': { type: 'boolean', default: 'off', description: 'skip the scaling run' },
    presets: { type: 'boolean', default: 'off', description: 'also run Strata under every strata.contextPreset at every window of both panels (the rivals once) and print one line per preset per window' },
    help: HELP,
  },
  exitCodes: ['0  the bench ran (the verdicts are in its output, not its exit code)', '1  a session or output file could not be read or written', '2  usage error (nothing else is printed)'],
};

export const IMPORT_SPEC: CommandSpec = {
  name: 'import',
  positionals: '<file|folder>',
  summary:
    "Imports Claude Code transcripts (~/.claude/projects/<project>/<session>.jsonl) or Cline tasks (<task>/api_conversation_history.json) into the archive, each as a new session; a folder imports every session in it.",
  options: {
    archive: { type: 'string', value: '<file.sqlite>', default: '$XDG_DATA_HOME/strata/archive.sqlite or ~/.local/share/strata/archive.sqlite', description: 'the SQLite archive to import into (the one strata chat uses)' },
    from: { type: 'string', value: '<claude-code|cline>', default: 'detected per file', description: 'read the files in this format; a folder imports only its sessions of this format' },
    'sqlite-driver': SQLITE_DRIVER_OPTION,
    help: HELP,
  },
  exitCodes: [
    '0  every session was imported',
    '1  a session could not be read or archived (the others were imported), nothing to import, or the archive could not be opened',
    '2  usage error (nothing else is printed)',
    '130, 143  stopped by SIGINT, SIGTERM (what was archived stays)',
  ],
};

export const COMMANDS = [REPLAY_SPEC, BENCH_SPEC, IMPORT_SPEC];

/** `strata <command> --help`: usage line, every option with its default, exit codes. */
export function commandHelp(spec: CommandSpec): string {
  const rows = Object.entries(spec.options).map(([name, o]) => [`--${name}${o.value ? ` ${o.value}` : ''}`, `${o.description} (default: ${o.default})`] as const);
  const width = Math.max(...rows.map(([flag]) => flag.length));
  return [
    `usage: strata ${spec.name}${spec.positionals ? ` ${spec.positionals}` : ''} [options]`,
    `  ${spec.summary}`,
    '',
    'options (--name value or --name=value):',
    ...rows.map(([flag, text]) => `  ${flag.padEnd(width)}  ${text}`),
    '',
    'exit codes:',
    ...spec.exitCodes.map((c) => `  ${c}`),
  ].join('\n');
}

/** `strata help`: every command's help; `others` are the help texts of commands not described by a spec (chat). */
export function fullHelp(others: string[] = []): string {
  return ['strata: the Strata context engine on the command line.', 'commands: help, chat, replay, bench, import', '', [...others, ...COMMANDS.map(commandHelp)].join('\n\n')].join('\n');
}
