// Merges the per-group Stryker JSON reports (reports/mutation/<group>/mutation.json, written by
// `npm run mutate`) and prints the mutation score in total, per folder and per file, computed by
// Stryker's own `mutation-testing-metrics` package (the one its reporters use). Names every
// source file of src/engine, src/adapters, src/task and src/extension that no report holds, so a
// partial run is visible; the src/extension files that import vscode are named apart (they run
// only inside VS Code, so no group mutates them).
// Usage: npm run mutate:score
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { execFileSync } from 'node:child_process';
import { calculateMetrics } from 'mutation-testing-metrics';
import { MUTATION_GROUPS, groupDir } from './mutationGroups.mjs';

const ROOT = process.cwd();
const SOURCE_FOLDERS = ['src/engine', 'src/adapters', 'src/task', 'src/extension'];
const IMPORTS_VSCODE = /from 'vscode'|require\('vscode'\)/;

/** Report paths are absolute (Stryker writes them so); keep them relative to the repository. */
const toRelative = (path) => relative(ROOT, path).split('\\').join('/');

const files = {};
const reportsRead = [];
for (const group of ['all', ...Object.keys(MUTATION_GROUPS)]) {
  const path = join(groupDir(group), 'mutation.json');
  if (!existsSync(path)) continue;
  const report = JSON.parse(readFileSync(path, 'utf8'));
  const runPath = join(groupDir(group), 'run.json');
  const run = existsSync(runPath) ? JSON.parse(readFileSync(runPath, 'utf8')) : undefined;
  reportsRead.push(run ? `${group} (commit ${run.commit}${run.dirty ? ' + uncommitted changes' : ''}, ${run.startedAt.slice(0, 16)}Z)` : group);
  for (const [name, file] of Object.entries(report.files)) {
    // A group report is newer than the `all` report for the same file: later groups win.
    files[toRelative(resolve(ROOT, name))] = file;
  }
}
if (reportsRead.length === 0) {
  console.error('No mutation report under reports/mutation/: run `npm run mutate` (or one group) first.');
  process.exit(1);
}

const tree = calculateMetrics(files);

const COLUMNS = [
  ['% score', 7, (m) => (Number.isNaN(m.mutationScore) ? 'n/a' : m.mutationScore.toFixed(2))],
  ['killed', 7, (m) => m.killed],
  ['timeout', 8, (m) => m.timeout],
  ['survived', 9, (m) => m.survived],
  ['no cov', 7, (m) => m.noCoverage],
  ['valid', 6, (m) => m.totalValid],
];
const row = (name, cells) => [name.padEnd(40), ...cells.map((cell, i) => String(cell).padStart(COLUMNS[i][1]))].join(' |');
const lines = [row('File', COLUMNS.map(([title]) => title))];
const walk = (node, depth) => {
  lines.push(row(`${'  '.repeat(depth)}${node.name}${node.file || depth === 0 ? '' : '/'}`, COLUMNS.map(([, , cell]) => cell(node.metrics))));
  for (const child of node.childResults) walk(child, depth + 1);
};
walk({ ...tree, name: 'All files' }, 0);

let commit = 'unknown';
try {
  commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
} catch {
  // Not a git checkout: the printout says so instead of naming a commit.
}

const listSources = (folder) =>
  readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = `${folder}/${entry.name}`;
    if (entry.isDirectory()) return listSources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
const notInReport = SOURCE_FOLDERS.flatMap(listSources).filter((path) => !(path in files));
const needsVscode = notInReport.filter((path) => IMPORTS_VSCODE.test(readFileSync(path, 'utf8')));
const unscored = notInReport.filter((path) => !needsVscode.includes(path));

console.log(`Merge of the per-group Stryker reports, working tree at commit ${commit}:\n  ${reportsRead.join('\n  ')}`);
console.log(lines.join('\n'));
console.log(
  unscored.length === 0
    ? `Every source file of ${SOURCE_FOLDERS.join(', ')} that runs outside VS Code is in a report.`
    : `Not in any report (not scored): ${unscored.join(', ')}`,
);
if (needsVscode.length > 0) console.log(`Not mutated (they import vscode): ${needsVscode.join(', ')}`);
