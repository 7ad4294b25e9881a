import { spawnSync } from 'node:child_process';
import { mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { sharedSessionFiles } from '../support/sharedSessions';
import { useTempDirs } from '../support/tempDirs';

/**
 * One archive file, two drivers: what better-sqlite3 (this Node, 20) writes, node:sqlite (Node 24
 * from the registry, where the Node-20 better-sqlite3 binary does not load) reads the same, and the
 * other way round; `strata replay --archive` itself runs on Node 24. Not in `test:node24`: it needs
 * a better-sqlite3 that loads in the Node running it.
 */
const ROOT = join(__dirname, '..', '..');
const CLI = join(ROOT, 'dist', 'cli.js');
/** The smallest shared session: a real recorded session, replayed in a few seconds. */
const SESSION = sharedSessionFiles().sort((a, b) => statSync(a).size - statSync(b).size)[0]!;
const DUMP = join(ROOT, '.tmp', 'archiveDump.cjs');
const tempDir = useTempDirs('strata-cross-driver-');
let node24 = '';

beforeAll(async () => {
  // Installs Node 24.21.0 into .tools/node24 when missing (about 30 s), and prints its path.
  const setup = spawnSync('bash', [join(ROOT, 'scripts', 'setup-node24.sh')], { cwd: ROOT, encoding: 'utf8' });
  expect(setup.status, setup.stderr).toBe(0);
  node24 = setup.stdout.trim();
  mkdirSync(join(ROOT, '.tmp'), { recursive: true });
  // In .tmp/ under the repository, so the bundle finds better-sqlite3 in its node_modules.
  await build({ entryPoints: [join(ROOT, 'test', 'support', 'archiveDump.ts')], outfile: DUMP, bundle: true, platform: 'node', format: 'cjs', external: ['better-sqlite3'], logLevel: 'warning' });
}, 180_000);

function run(node: string, args: string[]): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(node, args, { cwd: ROOT, encoding: 'utf8' });
}

/** What `node` reads from `archive` with its CLI driver (and writes first, with `write`). */
function dump(node: string, archive: string, write = false): { driver: string } & Record<string, unknown> {
  const r = run(node, [DUMP, archive, 'auto', ...(write ? ['write'] : [])]);
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as { driver: string } & Record<string, unknown>;
}

describe('an archive is one file format for better-sqlite3 and node:sqlite', () => {
  it.each([
    ['better-sqlite3 (Node 20) writes, node:sqlite (Node 24) reads', false],
    ['node:sqlite (Node 24) writes, better-sqlite3 (Node 20) reads', true],
  ])('%s the same sessions, exchanges, blobs, search hits, titles and factors', (_name, node24Writes) => {
    const archive = join(tempDir(), 'archive.sqlite');
    const [writer, reader] = node24Writes ? [node24, process.execPath] : [process.execPath, node24];
    const written = dump(writer, archive, true);
    const read = dump(reader, archive);
    expect(written.driver).toBe(node24Writes ? 'node:sqlite' : 'better-sqlite3');
    expect(read.driver).toBe(node24Writes ? 'better-sqlite3' : 'node:sqlite');
    const { driver: _w, ...wrote } = written;
    const { driver: _r, ...got } = read;
    expect(got).toEqual(wrote);
    // What the fixture holds, so an empty read cannot pass: 2 sessions, 4 exchanges, 1 shared blob.
    expect(got.stats).toEqual({ exchanges: 4, blobs: 1, blobBytes: expect.any(Number) });
    expect((got.search as unknown[]).length).toBeGreaterThan(0);
    expect(got.factor).toBe(1.25);
  });

  it('strata replay --archive runs on Node 24 (node:sqlite) and resumes on Node 20 (better-sqlite3), and back', () => {
    const archive = join(tempDir(), 'replayed.sqlite');
    const first = run(node24, [CLI, 'replay', SESSION, '--archive', archive, '--quiet']);
    expect(first.stderr).toBe('');
    expect(first.status).toBe(0);
    const id = /^session (\S+) in /m.exec(first.stdout)?.[1];
    expect(id).toBeDefined();
    const resumed = run(process.execPath, [CLI, 'replay', SESSION, '--archive', archive, '--resume', 'last', '--quiet']);
    expect(resumed.status, resumed.stderr).toBe(0);
    expect(resumed.stdout).toMatch(new RegExp(`^session ${id!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} in .*: resumed after e[1-9]\\d*$`, 'm'));
    const third = run(node24, [CLI, 'replay', SESSION, '--archive', archive, '--quiet', '--sqlite-driver', 'node-sqlite']);
    expect(third.status, third.stderr).toBe(0);
    expect(third.stdout).toMatch(/#2 in .*: new$/m);
  });

  it('--sqlite-driver: a name that is no driver is a usage error; a driver that does not load in this Node says so and what to do', () => {
    const wrong = run(process.execPath, [CLI, 'replay', SESSION, '--sqlite-driver', 'sqlite3']);
    expect(wrong.status).toBe(2);
    expect(wrong.stdout).toBe('');
    expect(wrong.stderr).toBe("strata: --sqlite-driver takes auto, node-sqlite, better-sqlite3, got 'sqlite3'.\n");
    const abi = run(node24, [CLI, 'replay', SESSION, '--archive', join(tempDir(), 'a.sqlite'), '--sqlite-driver', 'better-sqlite3']);
    expect(abi.status).toBe(1);
    expect(abi.stdout).toBe('');
    expect(abi.stderr).toMatch(/^strata: The SQLite driver better-sqlite3 does not work in Node 24\.\d+\.\d+: better-sqlite3: .*NODE_MODULE_VERSION.* Leave out --sqlite-driver to let Strata choose\.\n$/);
  });
});
