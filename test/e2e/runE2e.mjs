// Packages the .vsix, bundles the TypeScript e2e suite with esbuild (playwright-core stays
// external) and runs it in Node. `npm run test:e2e` calls this after scripts/setup-vscode.sh.
import { spawnSync } from 'node:child_process';
import { build } from 'esbuild';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..', '..');
const run = (cmd, args) => {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
};
run('npm', ['run', 'package']);
const outfile = join(root, '.tmp', 'e2e', 'strataView.e2e.cjs');
await build({ entryPoints: [join(root, 'test/e2e/strataView.e2e.ts')], outfile, bundle: true, platform: 'node', format: 'cjs', target: 'node20', external: ['playwright-core'], logLevel: 'warning' });
run(process.execPath, [outfile]);
