// `npm run test:e2e [-- VERSION[,VERSION]]`: packages the .vsix, bundles the TypeScript e2e suite
// with esbuild (playwright-core stays external) and runs it once per code-server version, each
// installed by scripts/setup-vscode.sh (first use only) and run on its own Node: 4.139.1 (VS Code
// 1.139, Node 24) and 4.100.3 (VS Code 1.100, the machine's Node 20). STRATA_VSCODE picks the
// versions too; the argument wins. Every version runs even when one fails; the exit code says
// whether all passed.
import { spawnSync } from 'node:child_process';
import { build } from 'esbuild';
import { join } from 'node:path';

const VERSIONS = ['4.139.1', '4.100.3'];

const root = join(import.meta.dirname, '..', '..');
const run = (cmd, args) => {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
};
const versions = (process.argv[2] ?? process.env.STRATA_VSCODE ?? VERSIONS.join(',')).split(',').map((v) => v.trim()).filter(Boolean);
const unknown = versions.filter((v) => !VERSIONS.includes(v));
if (unknown.length > 0) {
  console.error(`e2e: no code-server ${unknown.join(', ')} in the suite; it runs on ${VERSIONS.join(' and ')}`);
  process.exit(2);
}

run('npm', ['run', 'package']);
const outfile = join(root, '.tmp', 'e2e', 'strataView.e2e.cjs');
await build({ entryPoints: [join(root, 'test/e2e/strataView.e2e.ts')], outfile, bundle: true, platform: 'node', format: 'cjs', target: 'node20', external: ['playwright-core'], logLevel: 'warning' });

const results = [];
for (const version of versions) {
  const setup = spawnSync('bash', ['scripts/setup-vscode.sh', version], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  const [node, entry] = setup.stdout.trim().split('\n');
  if (setup.status !== 0 || !node || !entry) {
    console.error(`e2e: code-server ${version} could not be installed (scripts/setup-vscode.sh ${version} exited ${setup.status})`);
    results.push({ version, ok: false, seconds: 0 });
    continue;
  }
  console.log(`\ne2e: VS Code in code-server ${version} on ${node}`);
  const started = Date.now();
  // The suite itself runs on this Node; code-server and its extension host on `node`.
  const r = spawnSync(process.execPath, [outfile], { cwd: root, stdio: 'inherit', env: { ...process.env, STRATA_VSCODE_VERSION: version, STRATA_VSCODE_NODE: node, STRATA_VSCODE_ENTRY: entry } });
  results.push({ version, ok: r.status === 0, seconds: Math.round((Date.now() - started) / 1000) });
}
console.log('');
for (const { version, ok, seconds } of results) console.log(`e2e: code-server ${version}: ${ok ? 'passed' : 'FAILED'} in ${seconds} s`);
process.exit(results.every((r) => r.ok) ? 0 : 1);
