import { StrataError } from '../engine/ports';
import { parseArgs } from './parseArgs';
import { runReplay } from './replayCommand';

const USAGE = `usage:
  strata replay <session.jsonl> [--dump <requests.jsonl>] [--window <tokens>] [--budget <tokens>] [--archive <file.sqlite>] [--quiet]`;

/** Entry point of the `strata` bin: dispatches a subcommand, turns errors into readable messages. */
async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === 'replay') {
    const args = parseArgs(rest, { dump: 'string', window: 'number', budget: 'number', archive: 'string', quiet: 'boolean' });
    const session = args.positional[0];
    if (!session || args.positional.length > 1) throw new StrataError(`replay takes exactly one session file.\n${USAGE}`, 'usage');
    const totals = await runReplay({ session, ...args.options }, (line) => process.stdout.write(`${line}\n`));
    return totals.overBudget > 0 ? 1 : 0;
  }
  if (command === '--help' || command === '-h' || command === undefined) {
    process.stdout.write(`${USAGE}\n`);
    return command === undefined ? 2 : 0;
  }
  throw new StrataError(`Unknown command '${command}'.\n${USAGE}`, 'usage');
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
