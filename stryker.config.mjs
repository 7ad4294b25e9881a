// Mutation testing of the engine and the adapters: `npm run mutate` (slow; not part of `npm test`
// nor of CI) runs scripts/mutate.mjs, which runs Stryker once per group of scripts/mutationGroups.mjs
// with MUTATE_GROUP set; `npm run mutate:score` merges the groups' reports. See README
// "Mutation testing".
import { MUTATION_GROUPS, groupDir } from './scripts/mutationGroups.mjs';

// Without MUTATE_GROUP (plain `npx stryker run`) one run covers both folders, reported under
// reports/mutation/all/.
const group = process.env.MUTATE_GROUP ?? 'all';
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
  // .tools holds code-server and a Node for the e2e suite (no unit test uses it): not copied into
  // each sandbox (in a worktree it is a symlink to a folder, which Stryker cannot copy).
  ignorePatterns: ['/.tools'],
  tempDirName: '.stryker-tmp',
  cleanTempDir: true,
};
