import { StrataError } from '../engine/ports';
import { parseArgs } from './parseArgs';
import { join } from 'node:path';
import { resolveEngineSettings } from '../shared/engineSettings';
import { runBench } from './bench/benchCommand';
import { runReplay } from './replayCommand';
import { runChat } from './chatCommand';

const USAGE = `usage:
  strata chat [--workspace <dir>] [--model <id>] [--base-url <url>] [--archive <file>] [--resume <id>] [--record <file.jsonl>] [--yes] [--verbose]
  strata replay <session.jsonl> [--dump <requests.jsonl>] [--window <tokens>] [--budget <tokens>] [--archive <file.sqlite> [--resume <sessionId>|last]] [--quiet]
  strata bench [--sessions <dir>] [--json <file>] [--plot <file.svg>] [--plot-session <name>] [--window <tokens>] [--budget <tokens>] [--scale 100,1000,10000 | --no-scale] [--set name=value,name=value (engine settings, e.g. workingMemoryMax=15)]`;

/** Entry point of the `strata` bin: dispatches a subcommand, turns errors into readable messages. */
async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === 'chat') return runChat(rest, { stdin: process.stdin, out: (s) => process.stdout.write(s), err: (s) => process.stderr.write(s) });
  if (command === 'replay') {
    const args = parseArgs(rest, { dump: 'string', window: 'number', budget: 'number', archive: 'string', resume: 'string', quiet: 'boolean' });
    const session = args.positional[0];
    if (!session || args.positional.length > 1) throw new StrataError(`replay takes exactly one session file.\n${USAGE}`, 'usage');
    return (await runReplay({ session, ...args.options }, (line) => process.stdout.write(`${line}\n`))).exitCode;
  }
  if (command === 'bench') {
    const args = parseArgs(rest, { sessions: 'string', json: 'string', plot: 'string', 'plot-session': 'string', window: 'number', budget: 'number', scale: 'string', 'no-scale': 'boolean', set: 'string' });
    if (args.positional.length > 0) throw new StrataError(`bench takes no positional arguments.\n${USAGE}`, 'usage');
    const o = args.options;
    const scale = o['no-scale'] ? [] : (o.scale ?? '100,1000,10000').split(',').map((x) => Number(x.trim()));
    if (scale.some((n) => !Number.isInteger(n) || n <= 0)) throw new StrataError(`--scale takes positive whole numbers separated by commas, got '${o.scale}'.`, 'usage');
    const settings = resolveEngineSettings({ ...parseSet(o.set), ...(o.window !== undefined ? { contextWindow: o.window } : {}), ...(o.budget !== undefined ? { promptBudgetTokens: o.budget } : {}) });
    const sessions = o.sessions ?? join(__dirname, '..', 'bench', 'sessions');
    await runBench({ sessions, scale, settings, ...(o.json ? { json: o.json } : {}), ...(o.plot ? { plot: o.plot } : {}), ...(o['plot-session'] ? { plotSession: o['plot-session'] } : {}) }, (line) => process.stdout.write(`${line}\n`));
    return 0;
  }
  if (command === '--help' || command === '-h' || command === undefined) {
    process.stdout.write(`${USAGE}\n`);
    return command === undefined ? 2 : 0;
  }
  throw new StrataError(`Unknown command '${command}'.\n${USAGE}`, 'usage');
}

/** `a=1,b=2` -> { a: 1, b: 2 } (numbers where they parse); the settings schema validates the rest. */
function parseSet(spec: string | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const pair of (spec ?? '').split(',').filter(Boolean)) {
    const [key, value] = pair.split('=');
    if (!key || value === undefined) throw new StrataError(`--set takes name=value pairs separated by commas, got '${pair}'.`, 'usage');
    out[key.trim()] = Number.isFinite(Number(value)) ? Number(value) : value;
  }
  return out;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`strata: ${message}\n`);
    process.exitCode = error instanceof StrataError && error.code === 'usage' ? 2 : 1;
  },
);
