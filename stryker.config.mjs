// Mutation testing of the engine and the adapters: `npm run mutate` (slow; not part of `npm test`
// nor of CI). See README "Mutation testing" for the last figures and how to run a subset.
import { readdirSync } from 'node:fs';

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
  'layering.test.ts', // runs dependency-cruiser over the import graph; no engine code runs
];

const testFiles = readdirSync('test/unit')
  .filter((name) => name.endsWith('.test.ts') && !SPAWNS_BUILT_CLI.includes(name))
  .map((name) => `test/unit/${name}`);

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  packageManager: 'npm',
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.config.ts' },
  testFiles,
  mutate: ['src/engine/**/*.ts', 'src/adapters/**/*.ts', '!src/**/*.d.ts'],
  // Per test: each mutant runs only the tests that reached it during the dry run.
  coverageAnalysis: 'perTest',
  // Results are kept in reports/ (gitignored): the next run re-tests only the mutants whose code
  // or covering tests changed.
  incremental: true,
  incrementalFile: 'reports/stryker-incremental.json',
  // 2 cores shared with others: at most 2 test runners; run it under `nice`.
  concurrency: 2,
  // Tests pass their own 60 s vitest timeout; a loaded machine needs slack before a slow mutant
  // counts as an endless loop.
  timeoutMS: 10_000,
  dryRunTimeoutMinutes: 15,
  thresholds: { high: 85, low: 70, break: null },
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  tempDirName: '.stryker-tmp',
  cleanTempDir: true,
};
