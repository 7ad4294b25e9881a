// `npm test` ends here: the end-to-end suite (real VS Code in code-server, driven by Chromium)
// runs when CI=true or STRATA_E2E=1, since it installs two code-servers on first use (4.139.1 on
// Node 24 and 4.100.3: a few minutes) and takes a few minutes (both versions); elsewhere it says
// how to run it. STRATA_E2E=0 skips it even in CI.
import { spawnSync } from 'node:child_process';

const wanted = process.env.STRATA_E2E === '1' || (process.env.CI === 'true' && process.env.STRATA_E2E !== '0');
if (!wanted) {
  console.log('e2e: skipped (set STRATA_E2E=1 or CI=true to run it here, or run `npm run test:e2e`)');
  process.exit(0);
}
const result = spawnSync('npm', ['run', 'test:e2e'], { stdio: 'inherit' });
process.exit(result.status ?? 1);
