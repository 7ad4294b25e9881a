// `npm start`: everything a first run needs, one line per phase with its expected time, then VS Code
// (code-server) in the browser on 127.0.0.1 with Strata installed in a project-local profile.
// Tool output goes to .tools/start.log, not the terminal. Nothing is written outside the project:
// code-server and its profile live under .tools/ (XDG_* point there). The workspace is a copy of
// examples/sample-project in .tools/workspace (or STRATA_WORKSPACE), never this repository, so the
// assistant cannot edit its own source. STRATA_PORT picks the port (default 8080); STRATA_VSCODE the
// code-server: 4.139.1 (VS Code 1.139 on Node 24 from the registry, whose node:sqlite holds the
// archive; the default) or 4.100.3 (VS Code 1.100 on this machine's Node; plain-file archive). Ctrl+C stops it.
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, cpSync, existsSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = join(import.meta.dirname, '..');
const tools = join(root, '.tools');
const logPath = join(tools, 'start.log');
const profile = join(tools, 'profile');
// npm's cache too: its default is ~/.npm.
const env = { ...process.env, XDG_CONFIG_HOME: join(profile, 'config'), XDG_DATA_HOME: join(profile, 'data'), XDG_CACHE_HOME: join(profile, 'cache'), npm_config_cache: join(tools, 'npm-cache') };
mkdirSync(tools, { recursive: true });
writeFileSync(logPath, `npm start, ${new Date().toISOString()}\n`);
console.log(`Strata: first start about 12 minutes on 2 cores (later starts about 30 s); tool output goes to ${logPath}`);

/** Runs one phase with its output in the log; prints its line and time, or the log's tail and exits on failure. */
function phase(label, expected, cmd, args) {
  process.stdout.write(`- ${label} (${expected})... `);
  const started = Date.now();
  const log = openSync(logPath, 'a');
  const result = spawnSync(cmd, args, { cwd: root, env, stdio: ['ignore', log, log] });
  closeSync(log);
  const seconds = Math.round((Date.now() - started) / 1000);
  if (result.status === 0) {
    console.log(`done in ${seconds} s`);
    return;
  }
  console.log(`failed after ${seconds} s`);
  const tail = readFileSync(logPath, 'utf8').trimEnd().split('\n').slice(-15).join('\n');
  console.error(`\n${tail}\n\nStrata: the step "${label}" failed (full output in ${logPath}). Fix what it says above and run npm start again; finished steps are skipped.`);
  process.exit(result.status ?? 1);
}
const skipped = (label) => console.log(`- ${label}: already there`);

if (spawnSync('bash', ['scripts/ensure-apt.sh', '--check'], { cwd: root }).status === 0) skipped('Debian packages');
else phase('Debian packages: kerberos headers, ripgrep, Chromium', 'about 1 min', 'bash', ['scripts/ensure-apt.sh']);
if (existsSync(join(root, 'node_modules', '.package-lock.json'))) skipped('npm dependencies');
else phase('npm dependencies (npm ci; SQLite compiles from source)', 'about 8 min', 'npm', ['ci', '--no-audit', '--no-fund']);
const version = process.env.STRATA_VSCODE ?? '4.139.1';
// setup-vscode.sh returns at once when that version is installed; it prints the Node that runs it and its entry.js.
phase(`VS Code as code-server ${version} (the first time: native modules built from source)`, 'about 3 min the first time', 'bash', ['scripts/setup-vscode.sh', version]);
const [node, codeServer] = spawnSync('bash', ['scripts/setup-vscode.sh', version], { cwd: root, env, encoding: 'utf8' }).stdout.trim().split('\n');
phase('build and package the extension', 'about 30 s', 'npm', ['run', 'package']);

const userData = join(profile, 'user-data');
const extensions = join(profile, 'extensions');
mkdirSync(join(userData, 'User'), { recursive: true });
const settings = join(userData, 'User', 'settings.json');
if (!existsSync(settings)) writeFileSync(settings, JSON.stringify({ 'security.workspace.trust.enabled': false, 'workbench.startupEditor': 'none' }, null, 2));
phase('install Strata into the profile', 'about 5 s', node, [codeServer, '--user-data-dir', userData, '--extensions-dir', extensions, '--install-extension', join(root, 'dist', 'strata.vsix'), '--force']);

const workspace = process.env.STRATA_WORKSPACE ? resolve(process.env.STRATA_WORKSPACE) : join(tools, 'workspace');
if (!process.env.STRATA_WORKSPACE && !existsSync(workspace)) cpSync(join(root, 'examples', 'sample-project'), workspace, { recursive: true });
if (resolve(workspace) === resolve(root)) {
  console.error('Strata: STRATA_WORKSPACE is this repository; the assistant would edit its own source. Point it at another folder.');
  process.exit(2);
}

const port = process.env.STRATA_PORT ?? '8080';
const url = `http://127.0.0.1:${port}/?folder=${encodeURIComponent(workspace)}`;
const serverLog = openSync(logPath, 'a');
const server = spawn(node, [codeServer, '--auth', 'none', '--bind-addr', `127.0.0.1:${port}`, '--disable-telemetry', '--disable-update-check', '--user-data-dir', userData, '--extensions-dir', extensions, workspace], { env, stdio: ['ignore', serverLog, serverLog] });
server.on('exit', (code) => {
  if (code) console.error(`Strata: VS Code stopped with code ${code}; its output is in ${logPath}.`);
  process.exit(code ?? 0);
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill('SIGTERM'));

process.stdout.write('- start VS Code (about 2 s)... ');
for (let i = 0; i < 300; i++) {
  try {
    if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) break;
  } catch {
    // not up yet
  }
  await new Promise((r) => setTimeout(r, 200));
}
console.log('ready');
console.log(`\nStrata is running in VS Code at ${url}`);
console.log(`Workspace: ${workspace}${process.env.STRATA_WORKSPACE ? '' : ' (a copy of examples/sample-project; STRATA_WORKSPACE opens another folder)'}`);
console.log('Open the URL in a browser; the Strata icon is in the activity bar. Ctrl+C stops it.');
console.log(process.env.ANTHROPIC_API_KEY ? 'ANTHROPIC_API_KEY is set: the extension will use it.' : 'No ANTHROPIC_API_KEY: the view shows how to set a key (Strata: Set API Key).');
