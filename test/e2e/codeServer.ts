import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, openSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** One code-server install: its version, the Node that runs it and its entry script. */
export interface CodeServerInstall {
  version: string;
  node: string;
  entry: string;
}

/**
 * The install runE2e.mjs hands over in STRATA_VSCODE_VERSION, _NODE and _ENTRY (as
 * scripts/setup-vscode.sh printed them): 4.100.3 runs on the machine's Node 20, 4.139.1 on Node 24.
 */
export function codeServerInstallFromEnv(env: NodeJS.ProcessEnv = process.env): CodeServerInstall {
  const { STRATA_VSCODE_VERSION: version, STRATA_VSCODE_NODE: node, STRATA_VSCODE_ENTRY: entry } = env;
  if (!version || !node || !entry) throw new Error('STRATA_VSCODE_VERSION, STRATA_VSCODE_NODE and STRATA_VSCODE_ENTRY are not set: run the suite through `npm run test:e2e`');
  return { version, node, entry };
}

/** A running code-server with its own config, data, cache, user-data and extensions folders. */
export interface CodeServer {
  url: string;
  workspace: string;
  userSettingsFile: string;
  logFile: string;
  /** VS Code's own logs: a folder per window start, the extension hosts' logs in it. */
  logsDir: string;
  stop(): Promise<void>;
}

/** A port the OS just handed out on 127.0.0.1 (closed again before code-server binds it). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Installs `vsix` into a fresh, isolated code-server profile and starts it on 127.0.0.1.
 * The XDG variables keep code-server and Chromium out of the user's ~/.config, ~/.local and
 * ~/.cache (see ../shared/notes/real-vscode-here.md).
 */
export async function startCodeServer(options: { install: CodeServerInstall; vsix: string; settings: Record<string, unknown>; files: Record<string, string>; scratch?: string; env?: Record<string, string> }): Promise<CodeServer> {
  const scratch = options.scratch ?? mkdtempSync(join(tmpdir(), 'strata-e2e-'));
  const env: NodeJS.ProcessEnv = { ...process.env, XDG_CONFIG_HOME: join(scratch, 'config'), XDG_DATA_HOME: join(scratch, 'data'), XDG_CACHE_HOME: join(scratch, 'cache'), ...options.env };
  delete env.ANTHROPIC_API_KEY; // the suite checks the no-key call to action
  const userData = join(scratch, 'user-data');
  const extensions = join(scratch, 'extensions');
  const workspace = join(scratch, 'workspace');
  mkdirSync(join(userData, 'User'), { recursive: true });
  mkdirSync(workspace, { recursive: true });
  for (const [name, text] of Object.entries(options.files)) writeFileSync(join(workspace, name), text);
  const userSettingsFile = join(userData, 'User', 'settings.json');
  writeFileSync(userSettingsFile, JSON.stringify(options.settings, null, 2));

  const { node, entry } = options.install;
  const install = spawnSync(node, [entry, '--user-data-dir', userData, '--extensions-dir', extensions, '--install-extension', options.vsix], { env, encoding: 'utf8' });
  if (install.status !== 0 || !/successfully installed/i.test(install.stdout + install.stderr)) {
    throw new Error(`code-server could not install ${options.vsix} (exit ${install.status}):\n${install.stdout}\n${install.stderr}`);
  }

  const port = await freePort();
  const logFile = join(scratch, 'code-server.log');
  const args = [entry, '--auth', 'none', '--bind-addr', `127.0.0.1:${port}`, '--disable-telemetry', '--disable-update-check', '--user-data-dir', userData, '--extensions-dir', extensions, workspace];
  const out = openSync(logFile, 'a');
  // Own process group, so stop() ends code-server and the extension host it spawns, nothing else.
  const child: ChildProcess = spawn(node, args, { env, detached: true, stdio: ['ignore', out, out] });
  const url = `http://127.0.0.1:${port}`;
  await waitForHealth(url, child, logFile);
  return {
    url,
    workspace,
    userSettingsFile,
    logFile,
    logsDir: join(userData, 'logs'),
    stop: () => stopGroup(child),
  };
}

async function waitForHealth(url: string, child: ChildProcess, logFile: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`code-server exited with ${child.exitCode} before it was healthy; see ${logFile}`);
    try {
      const response = await fetch(`${url}/healthz`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`code-server did not answer ${url}/healthz within 60 s; see ${logFile}`);
}

async function stopGroup(child: ChildProcess): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    return;
  }
  const timer = setTimeout(() => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  }, 5_000);
  await exited;
  clearTimeout(timer);
}
