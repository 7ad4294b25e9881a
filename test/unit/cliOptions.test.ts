import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../src/adapters/tempFiles';
import type { CommandSpec } from '../../src/cli/commandSpec';
import { BENCH_SPEC, IMPORT_SPEC, REPLAY_SPEC } from '../../src/cli/commandSpec';
import { inCliTerms } from '../../src/cli/cliSettings';
import { sharedSessionFiles } from '../support/sharedSessions';

const CLI = join(__dirname, '..', '..', 'dist', 'cli.js');
const temp = makeTempDir('strata-cli-options-');
afterAll(() => temp.remove());

function strata(...args: string[]) {
  return spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 120_000 });
}

const bySize = sharedSessionFiles().sort((a, b) => statSync(a).size - statSync(b).size);
const smallest = bySize[0]!;
const largest = bySize[bySize.length - 1]!;

describe('help', () => {
  const cases: Array<{ args: string; specs: CommandSpec[] }> = [
    { args: 'help', specs: [REPLAY_SPEC, BENCH_SPEC, IMPORT_SPEC] },
    { args: 'import --help', specs: [IMPORT_SPEC] },
    { args: 'replay --help', specs: [REPLAY_SPEC] },
    { args: 'bench --help', specs: [BENCH_SPEC] },
  ];
  it.each(cases)('`strata $args` lists every option with its default, and the exit codes', ({ args, specs }) => {
    const run = strata(...args.split(' '));
    expect(run.status).toBe(0);
    expect(run.stderr).toBe('');
    for (const spec of specs) {
      const section = run.stdout.split('usage: strata ').find((part) => part.startsWith(`${spec.name} `));
      expect(section, spec.name).toBeDefined();
      for (const [name, option] of Object.entries(spec.options)) {
        const line = section!.split('\n').find((l) => l.trimStart().startsWith(`--${name} `) || l.trim() === `--${name}`);
        expect(line, `--${name}`).toBeDefined();
        expect(line).toContain(`(default: ${option.default})`);
      }
    }
    expect(run.stdout).toMatch(/exit codes:\n {2}0 .*\n {2}1 .*\n {2}2 {2}usage error/);
  });

  it('includes chat, which reads its own options', () => {
    const all = strata('help');
    expect(all.stdout).toContain('commands: help, chat, replay, bench, import');
    expect(all.stdout).toContain('usage: strata chat');
    const chat = strata('help', 'chat');
    expect(chat.status).toBe(0);
    expect(chat.stdout).toMatch(/^usage: strata chat/);
  });

  it('shows the sweep windows as the bench default', () => {
    expect(strata('bench', '--help').stdout).toMatch(/--windows <tokens,\.\.\.> +.*\(default: 32000,64000,128000,200000\)/);
  });
});

describe('flags', () => {
  it('reads --name=value as well as --name value', () => {
    const spaced = strata('replay', smallest, '--budget', '5000', '--quiet');
    const joined = strata('replay', smallest, '--budget=5000', '--quiet');
    const byDefault = strata('replay', smallest, '--quiet');
    expect(joined.status).toBe(0);
    expect(joined.stdout).toMatch(/^total: /);
    expect(joined.stdout).toBe(spaced.stdout);
    expect(joined.stdout).not.toBe(byDefault.stdout);
  });
});

describe('usage errors exit 2 before anything is printed', () => {
  const session = temp.dir;
  it.each([
    [['frobnicate'], "Unknown command 'frobnicate'"],
    [[], 'No command given'],
    [['help', 'nope'], "No help on 'nope'"],
    [['replay'], 'exactly one session file'],
    [['replay', smallest, '--frobnicate'], 'Unknown option --frobnicate'],
    [['replay', smallest, '--dump'], "'--dump <value>' argument missing"],
    [['replay', smallest, '--budget', 'lots'], "--budget takes a positive whole number, got 'lots'"],
    [['replay', smallest, '--budget=1000'], '--budget: Too small'],
    [['replay', smallest, '--window', '9000'], 'Raise --window'],
    [['bench', 'extra'], 'bench takes no positional arguments'],
    [['bench', '--windows', '32000,,64000'], '--windows takes positive whole numbers'],
    [['bench', '--window', '32000', '--windows', '64000'], 'Give --window or --windows, not both'],
    [['bench', '--scale', '100', '--no-scale'], 'Give --scale or --no-scale, not both'],
    [['bench', '--set', 'workingMemoryMx=3'], "--set: unknown setting 'workingMemoryMx'"],
    [['bench', '--set', 'workingMemoryMax'], '--set takes name=value pairs'],
    [['bench', '--set', 'contextWindow=64000'], 'not --set contextWindow'],
    [['bench', '--set', 'summaryCount=900'], '--set summaryCount=<value>: Too big'],
    [['bench', '--set', 'workingMemoryMax=1'], 'workingMemoryMax (1, --set workingMemoryMax=<value>) is below workingMemoryMin (2, --set workingMemoryMin=<value>)'],
    [['bench', '--sessions', join(session, 'missing')], 'Cannot read the sessions folder'],
    [['bench', '--long-sessions', join(session, 'missing')], 'Give a folder of .jsonl sessions with --long-sessions'],
    [['bench', '--panels', 'short,medium'], "--panels takes short, long separated by commas, got 'medium'"],
    [['bench', '--long-windows', '0'], '--long-windows takes positive whole numbers'],
    [['bench', '--session-plot', join(session, 'p.svg'), '--plot-session', 'nope'], "--plot-session: no session named 'nope'"],
    [['bench', '--plot-session', 'nope'], 'give --session-plot <file.svg> too'],
    [['bench', '--json', join(session, 'no', 'such', 'figures.json')], '--json: the folder of'],
  ])('strata %j', (args, message) => {
    const run = strata(...args);
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(message);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.stderr).not.toMatch(/strata\.\w/);
  });
});

describe('piped into head', () => {
  it('stops quietly when the reader closes stdout (EPIPE), with no stack trace', () => {
    const run = spawnSync('sh', ['-c', `"${process.execPath}" "${CLI}" replay "${largest}" --budget 8000 | head -n 2`], { encoding: 'utf8', timeout: 120_000 });
    expect(run.stdout.split('\n').filter(Boolean)).toHaveLength(2);
    expect(run.stderr).not.toMatch(/EPIPE|\n\s+at /);
    expect(run.stderr).toBe('');
  });
});

describe('engine messages in command-line terms', () => {
  it('names the flag instead of the editor setting', () => {
    const engine = 'The prompt budget (1000 tokens) is too small. Raise strata.contextWindow or lower strata.reservedOutputTokens.';
    expect(inCliTerms(engine)).toBe('The prompt budget (1000 tokens) is too small. Raise --window or lower --set reservedOutputTokens=<value>.');
    expect(inCliTerms('Turn e4 cannot fit the prompt budget (2000 tokens). Raise strata.promptBudgetTokens.')).toBe('Turn e4 cannot fit the prompt budget (2000 tokens). Raise --budget.');
    expect(inCliTerms('Invalid Strata settings: x. Fix them in settings (strata.*) or the command line.')).toBe('Invalid Strata settings: x.');
  });
});
