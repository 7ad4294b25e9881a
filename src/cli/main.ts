import { join } from 'node:path';
import { StrataError } from '../engine/ports';
import { runBench } from './bench/benchCommand';
import { CHAT_USAGE, defaultArchivePath, runChat } from './chatCommand';
import { cliSettings, inCliTerms, parseSet } from './cliSettings';
import { BENCH_PANELS, BENCH_SPEC, commandHelp, COMMANDS, DEFAULT_LONG_WINDOWS, DEFAULT_SCALE, DEFAULT_WINDOWS, fullHelp, IMPORT_SPEC, REPLAY_SPEC } from './commandSpec';
import { runImport } from './importCommand';
import { parseArgs, positiveInt, positiveIntList, stringValue } from './parseArgs';
import { runReplay } from './replayCommand';
import { cliSqliteDriver, sqliteDriverChoice } from './sqliteDriverOption';
import { stderrLogger } from '../adapters/streamLogger';

const print = (line: string) => process.stdout.write(`${line}\n`);

/** Entry point of the `strata` bin: dispatches a subcommand; every usage error is found before anything is printed. */
async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined) throw new StrataError(`No command given.\n${fullHelp([CHAT_USAGE])}`, 'usage');
  if (command === 'help' || command === '--help' || command === '-h') {
    const topic = rest[0];
    const spec = COMMANDS.find((c) => c.name === topic);
    if (topic !== undefined && topic !== 'chat' && !spec) throw new StrataError(`No help on '${topic}': the commands are chat, ${COMMANDS.map((c) => c.name).join(', ')}.`, 'usage');
    print(topic === 'chat' ? CHAT_USAGE : spec ? commandHelp(spec) : fullHelp([CHAT_USAGE]));
    return 0;
  }
  if (command === 'chat') return runChat(rest, { stdin: process.stdin, out: (s) => process.stdout.write(s), err: (s) => process.stderr.write(s) });
  if (command === 'replay') return replay(rest);
  if (command === 'bench') return bench(rest);
  if (command === 'import') return importCommand(rest);
  throw new StrataError(`Unknown command '${command}'; the commands are help, chat, ${COMMANDS.map((c) => c.name).join(', ')}. Run 'strata help'.`, 'usage');
}

async function replay(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs(REPLAY_SPEC, argv);
  if (values.help) {
    print(commandHelp(REPLAY_SPEC));
    return 0;
  }
  if (positionals.length !== 1) throw new StrataError(`replay takes exactly one session file, got ${positionals.length}. Run 'strata replay --help'.`, 'usage');
  const window = positiveInt(values.window, 'window');
  const budget = positiveInt(values.budget, 'budget');
  const explicit = { ...(window !== undefined ? { contextWindow: window } : {}), ...(budget !== undefined ? { promptBudgetTokens: budget } : {}) };
  const settings = cliSettings(explicit);
  const dump = stringValue(values.dump);
  const archive = stringValue(values.archive);
  const resume = stringValue(values.resume);
  const driver = sqliteDriverChoice(stringValue(values['sqlite-driver']));
  const outcome = await runReplay({ session: positionals[0]!, settings, explicit, quiet: values.quiet === true, driver: cliSqliteDriver(driver), ...(dump ? { dump } : {}), ...(archive ? { archive } : {}), ...(resume ? { resume } : {}) }, print);
  return outcome.exitCode;
}

async function importCommand(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs(IMPORT_SPEC, argv);
  if (values.help) {
    print(commandHelp(IMPORT_SPEC));
    return 0;
  }
  if (positionals.length !== 1) throw new StrataError(`import takes exactly one file or folder, got ${positionals.length}. Run 'strata import --help'.`, 'usage');
  const from = stringValue(values.from);
  const driver = sqliteDriverChoice(stringValue(values['sqlite-driver']));
  return runImport({ path: positionals[0]!, archive: stringValue(values.archive) ?? defaultArchivePath(), ...(from ? { from } : {}), driver: cliSqliteDriver(driver) }, print, stderrLogger());
}

async function bench(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs(BENCH_SPEC, argv);
  if (values.help) {
    print(commandHelp(BENCH_SPEC));
    return 0;
  }
  if (positionals.length > 0) throw new StrataError(`bench takes no positional arguments, got '${positionals.join(' ')}'. Run 'strata bench --help'.`, 'usage');
  if (values.window !== undefined && values.windows !== undefined) throw new StrataError('Give --window or --windows, not both.', 'usage');
  if (values.scale !== undefined && values['no-scale']) throw new StrataError('Give --scale or --no-scale, not both.', 'usage');
  const window = positiveInt(values.window, 'window');
  const panels = (stringValue(values.panels) ?? BENCH_PANELS.join(',')).split(',').map((p) => p.trim());
  const unknownPanel = panels.find((p) => !(BENCH_PANELS as readonly string[]).includes(p));
  if (unknownPanel !== undefined) throw new StrataError(`--panels takes ${BENCH_PANELS.join(', ')} separated by commas, got '${unknownPanel}'.`, 'usage');
  const windows = panels.includes('short') ? (positiveIntList(values.windows, 'windows') ?? (window !== undefined ? [window] : DEFAULT_WINDOWS)) : [];
  const longWindows = positiveIntList(values['long-windows'], 'long-windows') ?? DEFAULT_LONG_WINDOWS;
  const scale = values['no-scale'] ? [] : (positiveIntList(values.scale, 'scale') ?? DEFAULT_SCALE);
  const budget = positiveInt(values.budget, 'budget');
  const input = { ...parseSet(stringValue(values.set)), ...(budget !== undefined ? { promptBudgetTokens: budget } : {}) };
  if ('contextWindow' in input) throw new StrataError('Set the window with --window or --windows, not --set contextWindow.', 'usage');
  // Exactly what --window has always done: the window goes into the engine settings, everything else as given.
  const settingsAt = (w: number) => cliSettings({ ...input, contextWindow: w });
  [...windows, ...longWindows].forEach(settingsAt);
  const plotSession = stringValue(values['plot-session']);
  const sessionPlot = stringValue(values['session-plot']);
  if (plotSession !== undefined && sessionPlot === undefined) throw new StrataError('--plot-session picks the session --session-plot draws; give --session-plot <file.svg> too.', 'usage');
  const json = stringValue(values.json);
  const plot = stringValue(values.plot);
  await runBench(
    {
      sessions: stringValue(values.sessions) ?? join(__dirname, '..', 'bench', 'sessions'),
      windows,
      settingsAt,
      ...(panels.includes('long') ? { long: { sessions: stringValue(values['long-sessions']) ?? join(__dirname, '..', 'bench', 'long'), windows: longWindows } } : {}),
      scale,
      ...(values.presets ? { presets: true } : {}),
      ...(json ? { json } : {}),
      ...(plot ? { plot } : {}),
      ...(sessionPlot ? { sessionPlot } : {}),
      ...(plotSession ? { plotSession } : {}),
    },
    print,
  );
  return 0;
}

// `strata bench | head` closes stdout early: stop quietly instead of dying on EPIPE with a stack trace.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  process.stderr.write(`strata: cannot write the output: ${error.message}\n`);
  process.exit(1);
});

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`strata: ${inCliTerms(message)}\n`);
    process.exitCode = error instanceof StrataError && error.code === 'usage' ? 2 : 1;
  },
);
