#!/usr/bin/env node
// The archive's crash test (docs/durability.md). Runs `node dist/cli.js replay <session>
// --archive F` and kills it with SIGKILL at seeded random points; after each kill it checks that
// F passes `PRAGMA integrity_check`, holds every exchange whose table row was printed (replay
// prints a row only after its exchange is committed), holds nothing half-written, and that
// `--resume last` finishes the session with ids that continue and nothing duplicated: the
// resumed archive must equal an uninterrupted run's, row for row.
//
// A kill point is a seeded (turn k, delay d): wait for the row of turn k on stdout (k = 0: for
// the replay to start), then d ms more, drawn up to one average turn, then SIGKILL. So kills
// spread over the whole run, including mid-transaction, whatever the machine's speed.
//
//   npm run build && node scripts/crashTest.mjs [--points 100] [--seed 1] [--session file.jsonl] [--verbose] [--cli dist/cli.js]
// Exits 0 when every check passed, 1 otherwise (each failure is printed).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { prng } from './seededRandom.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const Database = createRequire(import.meta.url)('better-sqlite3');

const { values } = parseArgs({
  options: {
    points: { type: 'string', default: '100' },
    seed: { type: 'string', default: '1' },
    session: { type: 'string', default: join(root, 'bench/sessions/mini-deepseek-sqlfluff-1733.jsonl') },
    verbose: { type: 'boolean', default: false },
    cli: { type: 'string', default: join(root, 'dist', 'cli.js') },
  },
});
const CLI = resolve(values.cli);
const points = Number(values.points);
const seed = Number(values.seed);
const session = resolve(values.session);
if (!existsSync(CLI)) fail(`${CLI} is missing: run npm run build first.`);
if (!Number.isInteger(points) || points < 1 || !Number.isInteger(seed)) fail('--points takes a positive whole number, --seed a whole number.');

function fail(message) {
  process.stderr.write(`crash test: ${message}\n`);
  process.exit(1);
}

const ROW = /^\s*e(\d+)\s/;
const SESSION_LINE = /^session (\S+) in .*: (new|resumed after e(\d+))$/;

/**
 * Runs a replay; resolves with its exit, stdout lines and the turns whose rows were printed.
 * `kill` = { afterTurn, delayMs } sends SIGKILL that long after the row of that turn appeared.
 */
function replay(archive, extra, kill) {
  return new Promise((done) => {
    const started = performance.now();
    const child = spawn(process.execPath, [CLI, 'replay', session, '--archive', archive, ...extra], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let armed = false;
    let seen = 0;
    let firstRowMs;
    const arm = () => {
      if (armed || !kill) return;
      armed = true;
      setTimeout(() => child.kill('SIGKILL'), kill.delayMs);
    };
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const complete = out.split('\n').slice(0, -1);
      for (const line of complete.slice(seen)) {
        if (kill?.afterTurn === 0 && SESSION_LINE.test(line)) arm();
        const row = ROW.exec(line);
        if (!row) continue;
        firstRowMs ??= performance.now() - started;
        if (kill && kill.afterTurn > 0 && Number(row[1]) >= kill.afterTurn) arm();
      }
      seen = complete.length;
    });
    child.stderr.on('data', (chunk) => (err += chunk));
    child.on('close', (code, signal) => {
      const lines = out.split('\n');
      const rows = lines.filter((l) => ROW.test(l)).map((l) => Number(ROW.exec(l)[1]));
      done({ code, signal, lines, rows, err, ms: performance.now() - started, firstRowMs });
    });
  });
}

/** Every exchange row of the only session in `path`, by seq, plus what the file says about itself. */
function inspect(path) {
  const db = new Database(path);
  try {
    const integrity = db.pragma('integrity_check', { simple: true });
    const sessions = db.prepare('SELECT id FROM sessions').all().map((r) => r.id);
    const rows = db.prepare('SELECT session_id, seq, created_at, header, summary, body_json, tokens FROM exchanges ORDER BY session_id, seq').all();
    const fts = db.prepare('SELECT session_id, seq FROM exchanges_fts ORDER BY session_id, seq').all();
    const blobs = new Set(db.prepare('SELECT hash FROM blobs').all().map((r) => r.hash));
    const referenced = new Set();
    for (const r of rows) for (const m of r.body_json.matchAll(/"\$blob":"([0-9a-f]{64})"/g)) referenced.add(m[1]);
    return {
      integrity,
      sessions,
      rows,
      ftsKeys: fts.map((r) => `${r.session_id}#${r.seq}`),
      orphanBlobs: [...blobs].filter((h) => !referenced.has(h)).length,
      missingBlobs: [...referenced].filter((h) => !blobs.has(h)).length,
    };
  } finally {
    db.close();
  }
}

/** Checks `found` against the uninterrupted run: rows 1..last exactly, each equal to the reference. */
function compare(found, reference, problems, where) {
  if (found.integrity !== 'ok') problems.push(`${where}: integrity_check says ${found.integrity}`);
  if (found.orphanBlobs > 0) problems.push(`${where}: ${found.orphanBlobs} blob rows no exchange uses (written outside an exchange's transaction)`);
  if (found.missingBlobs > 0) problems.push(`${where}: ${found.missingBlobs} blobs referenced but missing`);
  const keys = found.rows.map((r) => `${r.session_id}#${r.seq}`);
  if (JSON.stringify(keys) !== JSON.stringify(found.ftsKeys)) problems.push(`${where}: the full-text index does not match the exchanges (${found.ftsKeys.length} vs ${keys.length} rows)`);
  found.rows.forEach((row, i) => {
    if (row.seq !== i + 1) problems.push(`${where}: row ${i + 1} has seq ${row.seq} (a gap or a duplicate)`);
    const ref = reference.get(row.seq);
    const same = ref && ['created_at', 'header', 'summary', 'body_json', 'tokens'].every((k) => ref[k] === row[k]);
    if (!same) problems.push(`${where}: e${row.seq} differs from the uninterrupted run`);
  });
}

const work = mkdtempSync(join(tmpdir(), 'strata-crash-'));
const random = prng(seed);
const problems = [];
const tally = { killedMidRun: 0, finishedFirst: 0, checked: 0, lost: 0, extraCommitted: 0, duplicated: 0, resumed: 0 };
try {
  const refPath = join(work, 'reference.sqlite');
  const ref = await replay(refPath, []);
  if (ref.code !== 0) fail(`the uninterrupted replay failed (exit ${ref.code}):\n${ref.err}`);
  const refState = inspect(refPath);
  const reference = new Map(refState.rows.map((r) => [r.seq, r]));
  const total = refState.rows.length;
  compare(refState, reference, problems, 'reference');
  if (total === 0 || ref.rows.length !== total) fail(`the uninterrupted replay printed ${ref.rows.length} rows for ${total} exchanges`);
  const turnMs = Math.max(1, (ref.ms - (ref.firstRowMs ?? 0)) / total);
  const sessionId = SESSION_LINE.exec(ref.lines[0])?.[1];

  for (let point = 1; point <= points; point++) {
    // Never after the last two rows: a kill must have a turn left to land in.
    const afterTurn = Math.floor(random() * Math.max(1, total - 1));
    const delayMs = random() * turnMs * (afterTurn === 0 ? 4 : 1);
    const where = `point ${point} (after e${afterTurn} + ${delayMs.toFixed(1)} ms)`;
    const path = join(work, `crash-${point}.sqlite`);
    const killed = await replay(path, [], { afterTurn, delayMs });
    if (values.verbose) console.log(`${where}: ${killed.signal ?? `exit ${killed.code}`}, ${killed.rows.length} rows printed`);
    if (killed.signal === 'SIGKILL') tally.killedMidRun += 1;
    else if (killed.code === 0) tally.finishedFirst += 1;
    else problems.push(`${where}: the replay failed before the kill (exit ${killed.code}): ${killed.err.trim()}`);

    const after = inspect(path);
    compare(after, reference, problems, `${where}, after the kill`);
    const stored = new Set(after.rows.map((r) => r.seq));
    const printed = killed.rows;
    const lost = printed.filter((t) => !stored.has(t));
    tally.checked += printed.length;
    tally.lost += lost.length;
    if (lost.length > 0) problems.push(`${where}: e${lost.join(', e')} printed as done but missing from the archive`);
    const lastPrinted = printed.length > 0 ? printed[printed.length - 1] : 0;
    const lastStored = after.rows.length;
    // Committed but killed before its row was printed: at most the one turn in flight.
    if (lastStored > lastPrinted + 1) problems.push(`${where}: ${lastStored - lastPrinted} exchanges stored beyond the last printed row`);
    tally.extraCommitted += lastStored - lastPrinted > 0 ? 1 : 0;

    const resumed = await replay(path, ['--resume', 'last']);
    tally.resumed += 1;
    if (resumed.code !== 0) problems.push(`${where}: the resumed replay exited ${resumed.code}: ${resumed.err.trim()}`);
    const head = SESSION_LINE.exec(resumed.lines[0] ?? '');
    const expectedHead = lastStored > 0 ? `resumed after e${lastStored}` : 'new';
    if (!head || head[2] !== expectedHead || head[1] !== sessionId) problems.push(`${where}: the resumed replay said '${resumed.lines[0]}', expected session ${sessionId} ${expectedHead}`);
    const expectedRows = Array.from({ length: total - lastStored }, (_, i) => lastStored + 1 + i);
    if (JSON.stringify(resumed.rows) !== JSON.stringify(expectedRows)) problems.push(`${where}: the resumed replay ran turns ${resumed.rows[0]}..${resumed.rows.at(-1)}, expected ${lastStored + 1}..${total}`);
    const final = inspect(path);
    compare(final, reference, problems, `${where}, after resuming`);
    if (final.sessions.length !== 1) problems.push(`${where}: ${final.sessions.length} sessions after resuming, expected 1`);
    if (final.rows.length !== total) problems.push(`${where}: ${final.rows.length} exchanges after resuming, expected ${total}`);
    const duplicates = final.rows.length - new Set(final.rows.map((r) => `${r.session_id}#${r.seq}`)).size;
    tally.duplicated += duplicates;
    rmSync(path, { force: true });
    rmSync(`${path}-wal`, { force: true });
    rmSync(`${path}-shm`, { force: true });
  }

  const name = session.split('/').at(-1);
  console.log(`crash test: seed ${seed}, session ${name} (${total} exchanges, ${turnMs.toFixed(1)} ms a turn)`);
  console.log(`kill points ${points}: ${tally.killedMidRun} killed mid-run, ${tally.finishedFirst} finished before the kill`);
  console.log(`exchanges checked after kills ${tally.checked}, lost ${tally.lost}; kills landing between commit and row ${tally.extraCommitted}`);
  console.log(`resumed ${tally.resumed}: ids continued, duplicated ${tally.duplicated}; integrity_check ok after every kill and resume: ${problems.every((p) => !p.includes('integrity'))}`);
  console.log(`problems ${problems.length}`);
  for (const p of problems.slice(0, 50)) console.log(`  ${p}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
process.exitCode = problems.length === 0 ? 0 : 1;
