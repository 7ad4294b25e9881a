// `npm run mutate [-- group ... --force]`: runs Stryker (under `nice -n 10`, or MUTATE_NICE) once per group of
// scripts/mutationGroups.mjs, in order, each writing reports/mutation/<group>/; then prints the
// merged score (scripts/mutationScore.mjs). With no group named it runs them all (2 to 4 hours
// on a 2-core machine). A group that fails stops the run; the groups finished keep their reports.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { MUTATION_GROUPS, groupDir } from './mutationGroups.mjs';

/** The commit a group's run starts from, and whether the working tree differed from it. */
function startRun() {
  const git = (...args) => execFileSync('git', args, { encoding: 'utf8' }).trim();
  return { commit: git('rev-parse', '--short', 'HEAD'), dirty: git('status', '--porcelain', '--', 'src', 'test').length > 0, startedAt: new Date().toISOString() };
}

/** Written only once Stryker finished: a stopped run leaves its report and run.json as they were. */
function recordRun(group, started) {
  mkdirSync(groupDir(group), { recursive: true });
  writeFileSync(`${groupDir(group)}/run.json`, `${JSON.stringify(started)}\n`);
}

// Options (`--force`: re-test every mutant, not only the changed ones) go to each Stryker run.
const args = process.argv.slice(2);
const strykerOptions = args.filter((arg) => arg.startsWith('--'));
const requested = args.filter((arg) => !arg.startsWith('--'));
const unknown = requested.filter((group) => !(group in MUTATION_GROUPS));
if (unknown.length > 0) {
  console.error(
    `Unknown mutation group: ${unknown.join(', ')}. Groups: ${Object.keys(MUTATION_GROUPS).join(', ')}`,
  );
  process.exit(2);
}
const groups = requested.length > 0 ? requested : Object.keys(MUTATION_GROUPS);

for (const group of groups) {
  console.log(`\n== Stryker: ${group} ==`);
  const started = startRun();
  const run = spawnSync('nice', ['-n', process.env.MUTATE_NICE ?? '10', 'npx', 'stryker', 'run', ...strykerOptions], {
    stdio: 'inherit',
    env: { ...process.env, MUTATE_GROUP: group },
  });
  if (run.status !== 0) {
    console.error(`Stryker failed on group ${group} (exit ${run.status ?? run.signal}); reports of the groups before it are kept.`);
    process.exit(1);
  }
  recordRun(group, started);
}
spawnSync('node', ['scripts/mutationScore.mjs'], { stdio: 'inherit' });
