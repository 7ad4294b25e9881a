import { configDefaults, defineConfig, mergeConfig } from 'vitest/config';
import type { TestSpecification } from 'vitest/node';
import { BaseSequencer } from 'vitest/node';
import base from './vitest.config';
import { testFilesLeftOut, testFilesOnly } from './scripts/mutationTests.mjs';

/**
 * Test files whose tests take seconds each (a whole task session over the local API server, real
 * session replays, property runs), slowest last. Stryker stops a mutant's run at its first
 * failing test, so running the quick, exact unit tests first kills most mutants in a second or
 * two instead of after a minute of these. The order changes no result, only when it is known.
 */
const SLOW_LAST = [
  'modelWaits', // waits real seconds (a retry-after, header timeouts)
  'benchSweep',
  'archiveLayers',
  'requestValidity', // 6 s (fuzzing)
  'engineProperties',
  'replayRealSessions',
  'badInputs', // 25 s for 2 tests
  'lspTools', // 32 s: spawns typescript-language-server
  // the chat controller over a whole Task session and a local Messages API server, 3-10 s each
  'chatControllerFigures',
  'condenseSaving',
  'sessionRestore',
  'chatController', // 36 s
  'taskLoop',
];

const rank = (spec: TestSpecification) => SLOW_LAST.findIndex((name) => spec.moduleId.endsWith(`/${name}.test.ts`));

class QuickFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return [...files].sort((a, b) => rank(a) - rank(b) || a.moduleId.localeCompare(b.moduleId));
  }
}

/** The files the group being mutated leaves out (scripts/mutationTests.mjs); Stryker runs this config with MUTATE_GROUP set. */
const leftOut = testFilesLeftOut(process.env.MUTATE_GROUP ?? 'all').map((name) => `test/unit/${name}`);

/** The group's own test list (scripts/mutationTests.mjs ONLY_TESTS), when it has one. */
const only = testFilesOnly(process.env.MUTATE_GROUP ?? 'all')?.map((name) => `test/unit/${name}`);

/** vitest.config.ts for mutation runs (stryker.config.mjs): the same tests less `leftOut` (or only `only`), quick files first. */
const config = mergeConfig(
  base,
  defineConfig({ test: { exclude: [...configDefaults.exclude, ...leftOut], sequence: { sequencer: QuickFirstSequencer } } }),
);
// Set after the merge: mergeConfig appends arrays, so merging `include` would keep the base's glob.
if (only && config.test) config.test.include = only;
export default config;
