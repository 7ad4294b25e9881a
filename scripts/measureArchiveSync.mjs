#!/usr/bin/env node
// What `synchronous = FULL` costs against NORMAL under WAL, on a real session replay: the
// replay runs through the engine with a real archive file, and the time spent inside the
// archive's put() (one transaction per exchange) is summed. Runs alternate FULL and NORMAL so
// machine load hits both alike; the median of each is printed.
//
//   node scripts/measureArchiveSync.mjs [session.jsonl] [--runs 5] [--dir <folder on the disk to measure>]
import { build } from 'esbuild';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { values, positionals } = parseArgs({ allowPositionals: true, options: { runs: { type: 'string', default: '5' }, dir: { type: 'string' } } });
const session = resolve(positionals[0] ?? join(root, 'bench/sessions/mini-deepseek-sqlfluff-1733.jsonl'));
const runs = Number(values.runs);
const work = mkdtempSync(join(values.dir ? resolve(values.dir) : tmpdir(), 'strata-sync-'));

// The engine and the store are TypeScript: bundle a small entry that replays with a timed archive.
const entry = `
import { performance } from 'node:perf_hooks';
import { openSqliteArchive } from './src/adapters/sqliteArchiveStore';
import { readSessionFile } from './src/adapters/sessionFileReader';
import { createTiktokenTokenizer } from './src/adapters/tiktokenTokenizer';
import { resolveEngineSettings } from './src/shared/engineSettings';
import { replaySession } from './src/host/replaySession';
export async function measure(sessionPath, archivePath, synchronous) {
  const store = openSqliteArchive(archivePath, { synchronous });
  let putMs = 0;
  let puts = 0;
  const archive = new Proxy(store, {
    get(target, key) {
      if (key !== 'put') return Reflect.get(target, key);
      return (exchange) => { const t = performance.now(); target.put(exchange); putMs += performance.now() - t; puts += 1; };
    },
  });
  const quiet = { info() {}, warn() {}, error() {} };
  const t = performance.now();
  await replaySession(readSessionFile(sessionPath), 'measure', resolveEngineSettings({}), { tokenizer: createTiktokenTokenizer(), archive, logger: quiet }, () => {});
  return { puts, putMs, totalMs: performance.now() - t };
}`;
const bundle = join(work, 'measure.cjs');
await build({ stdin: { contents: entry, resolveDir: root, loader: 'ts' }, bundle: true, platform: 'node', format: 'cjs', outfile: bundle, external: ['better-sqlite3'], logLevel: 'warning', nodePaths: [join(root, 'node_modules')] });
const { createRequire } = await import('node:module');
const { measure } = createRequire(import.meta.url)(bundle);

const results = { FULL: [], NORMAL: [] };
try {
  for (let i = 0; i < runs; i++) {
    for (const mode of ['FULL', 'NORMAL']) {
      results[mode].push(await measure(session, join(work, `${mode}-${i}.sqlite`), mode));
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`session ${session}, ${runs} runs each, archive in ${values.dir ?? tmpdir()}`);
for (const mode of ['FULL', 'NORMAL']) {
  const r = results[mode];
  const puts = r[0].puts;
  const putMs = median(r.map((x) => x.putMs));
  console.log(`${mode.padEnd(6)} ${puts} exchanges: archive writes ${putMs.toFixed(1)} ms in all (${(putMs / puts).toFixed(2)} ms per exchange), whole replay ${median(r.map((x) => x.totalMs)).toFixed(0)} ms (medians)`);
}
