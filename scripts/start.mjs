// `npm start`: installs dependencies if missing, builds the .vsix, installs code-server on first run (scripts/setup-vscode.sh),
// installs Strata into a project-local profile (.tools/profile) and opens VS Code in the
// browser on 127.0.0.1. With ANTHROPIC_API_KEY set the editor passes it to the extension.
// Ctrl+C stops it. STRATA_PORT picks the port (default 8080); STRATA_VSCODE the code-server
// version (4.100.3, the default, on this Node 20; 4.139.1 on Node 24 from the registry).
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const run = (cmd, args) => {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
};
if (!existsSync(join(root, 'node_modules', '.package-lock.json'))) run('npm', ['ci', '--no-audit', '--no-fund']);
const setup = spawnSync('bash', ['scripts/setup-vscode.sh', process.env.STRATA_VSCODE ?? '4.100.3'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
if (setup.status !== 0) process.exit(setup.status ?? 1);
const [node, entry] = setup.stdout.trim().split('\n');
run('npm', ['run', 'package']);

const profile = join(root, '.tools', 'profile');
const env = { ...process.env, XDG_CONFIG_HOME: join(profile, 'config'), XDG_DATA_HOME: join(profile, 'data'), XDG_CACHE_HOME: join(profile, 'cache') };
const userData = join(profile, 'user-data');
const extensions = join(profile, 'extensions');
mkdirSync(join(userData, 'User'), { recursive: true });
const settings = join(userData, 'User', 'settings.json');
if (!existsSync(settings)) writeFileSync(settings, JSON.stringify({ 'security.workspace.trust.enabled': false, 'workbench.startupEditor': 'none' }, null, 2));
run(node, [entry, '--user-data-dir', userData, '--extensions-dir', extensions, '--install-extension', join(root, 'dist', 'strata.vsix'), '--force']);

const port = process.env.STRATA_PORT ?? '8080';
const url = `http://127.0.0.1:${port}/?folder=${encodeURIComponent(root)}`;
const server = spawn(node, [entry, '--auth', 'none', '--bind-addr', `127.0.0.1:${port}`, '--disable-telemetry', '--disable-update-check', '--user-data-dir', userData, '--extensions-dir', extensions, root], { env, stdio: ['ignore', 'ignore', 'inherit'] });
server.on('exit', (code) => process.exit(code ?? 0));
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill('SIGTERM'));

for (let i = 0; i < 300; i++) {
  try {
    if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) break;
  } catch {
    // not up yet
  }
  await new Promise((r) => setTimeout(r, 200));
}
console.log(`\nStrata is running in VS Code at ${url}`);
console.log('Open it in a browser; the Strata icon is in the activity bar. Ctrl+C stops it.');
console.log(process.env.ANTHROPIC_API_KEY ? 'ANTHROPIC_API_KEY is set: the extension will use it.' : 'No ANTHROPIC_API_KEY: the view shows how to set a key (Strata: Set API Key).');
