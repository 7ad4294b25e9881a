// Mutation testing of the engine and the adapters: `npm run mutate` (slow; not part of `npm test`
// nor of CI) runs scripts/mutate.mjs, which runs Stryker once per group of scripts/mutationGroups.mjs
// with MUTATE_GROUP set; `npm run mutate:score` merges the groups' reports. See README
// "Mutation testing".
import { readdirSync } from 'node:fs';
import { MUTATION_GROUPS, groupDir } from './scripts/mutationGroups.mjs';

/**
 * Unit test files left out of mutation runs, with the reason. Stryker instruments the TypeScript
 * sources that vitest imports; these files drive the CLI as a child process over the esbuild
 * bundle in `dist/`, which holds no mutant, so they cannot kill one and only cost time (each
 * takes 5-19 s on this 2-core machine).
 */
const SPAWNS_BUILT_CLI = [
  'cliChat.test.ts', // spawns dist/cli.js chat
  'cliOptions.test.ts', // spawns dist/cli.js for every flag and exit code
  'cliReplay.test.ts', // spawns dist/cli.js replay
  'crashTest.test.ts', // spawns dist/cli.js replay and SIGKILLs it (19 s)
  'replayResume.test.ts', // spawns dist/cli.js replay --resume
  'cliImport.test.ts', // spawns dist/cli.js import
  'layering.test.ts', // runs dependency-cruiser over the import graph; no engine code runs
];

/**
 * Test files of the layers above the engine, left out when an engine group is scored: they reach
 * engine code only through a whole Task session, an editor controller or a language server, so
 * a surviving engine mutant would pay for all of them (about 40 s on this machine, and a static
 * mutant, one in a module-level table or pattern, runs every test it can reach). The engine's
 * own tests (unit, property, replay of the real sessions) stay. Leaving tests out can only lose
 * kills, so an engine group's score is a lower bound of what the whole suite catches. The
 * adapter groups keep every file: the LSP adapter, say, is tested only by lspTools.
 */
const ABOVE_THE_ENGINE = [
  'archiveStatus.test.ts', // the extension's fallback-store status
  'badInputs.test.ts', // the CLI's replay path over extreme sessions (25 s under Stryker)
  'chatController.test.ts', // the webview controller over a whole Task session
  'lspTools.test.ts', // spawns typescript-language-server
  'taskLoop.test.ts', // whole Task sessions over the local Messages API server
  'taskResend.test.ts', // the same, edit and resend
  'taskTerminal.test.ts', // the Task's terminal environment
  'toolsCommands.test.ts', // the Task's shell tools
];

// Without MUTATE_GROUP (plain `npx stryker run`) one run covers both folders, reported under
// reports/mutation/all/.
const group = process.env.MUTATE_GROUP ?? 'all';
const leftOut = group.startsWith('engine-') ? [...SPAWNS_BUILT_CLI, ...ABOVE_THE_ENGINE] : SPAWNS_BUILT_CLI;
const testFiles = readdirSync('test/unit')
  .filter((name) => name.endsWith('.test.ts') && !leftOut.includes(name))
  .map((name) => `test/unit/${name}`);
const mutate =
  group === 'all'
    ? ['src/engine/**/*.ts', 'src/adapters/**/*.ts']
    : MUTATION_GROUPS[group];
if (mutate === undefined) {
  throw new Error(
    `MUTATE_GROUP=${group} is not a group; use one of: ${Object.keys(MUTATION_GROUPS).join(', ')}`,
  );
}
const dir = groupDir(group);

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  packageManager: 'npm',
  testRunner: 'vitest',
  // related: vitest loads only the test files that import the mutated file (the default, stated).
  // Quick test files first (vitest.stryker.config.ts): a mutant stops at its first failing test.
  vitest: { configFile: 'vitest.stryker.config.ts', related: true },
  testFiles,
  mutate: [...mutate, '!src/**/*.d.ts'],
  // Per test: each mutant runs only the tests that reached it during the dry run.
  coverageAnalysis: 'perTest',
  // Results are kept in reports/ (gitignored): the next run of a group re-tests only the mutants
  // whose code or covering tests changed.
  incremental: true,
  incrementalFile: `${dir}/stryker-incremental.json`,
  // 2 cores shared by six engineers: one test runner by default (MUTATE_CONCURRENCY sets more on
  // an otherwise idle machine); run it under `nice`.
  concurrency: Number(process.env.MUTATE_CONCURRENCY ?? 1),
  // Tests pass their own 60 s vitest timeout; a loaded machine needs slack before a slow mutant
  // counts as an endless loop.
  timeoutMS: 10_000,
  dryRunTimeoutMinutes: 15,
  thresholds: { high: 85, low: 70, break: null },
  reporters: ['clear-text', 'progress-append-only', 'html', 'json'],
  htmlReporter: { fileName: `${dir}/index.html` },
  jsonReporter: { fileName: `${dir}/mutation.json` },
  tempDirName: '.stryker-tmp',
  cleanTempDir: true,
};
