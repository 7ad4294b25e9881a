#!/usr/bin/env node
// The assistant's crash test (docs/durability.md): `strata chat` against the local Messages API
// server (test/support/messagesApiServer.ts, bundled here with esbuild), killed with SIGKILL at
// seeded points mid-stream and mid-tool. Each user message makes three model calls: a read_file
// call, an execute_command call whose command sleeps (the mid-tool window), and a closing answer;
// every answer stalls after a few SSE events (the mid-stream window). After each kill:
// `PRAGMA integrity_check` passes; every exchange whose `[eN · ...]` line was printed (it is
// printed after the exchange is archived) is in the archive; then `strata chat --resume <id>`
// sends one more message: its ids continue after the last stored one, its first request is
// valid (every tool call of the history answered by a result), and the rows stored before the
// kill are unchanged, none duplicated.
//
//   npm run build && node scripts/chatCrashTest.mjs [--points 100] [--seed 1] [--messages 3] [--verbose]
// Exits 0 when every check passed, 1 otherwise (each failure is printed).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { prng } from './seededRandom.mjs';
import { build } from 'esbuild';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const Database = require('better-sqlite3');

const { values } = parseArgs({
  options: {
    points: { type: 'string', default: '100' },
    seed: { type: 'string', default: '1' },
    messages: { type: 'string', default: '3' },
    verbose: { type: 'boolean', default: false },
  },
});
const CLI = join(root, 'dist', 'cli.js');
const points = Number(values.points);
const seed = Number(values.seed);
const messages = Number(values.messages);
if (!existsSync(CLI)) fail(`${CLI} is missing: run npm run build first.`);
if (![points, messages].every((n) => Number.isInteger(n) && n >= 1) || !Number.isInteger(seed)) fail('--points and --messages take positive whole numbers, --seed a whole number.');

const serverBundle = join(root, '.tmp', 'crash', 'messagesApiServer.cjs');
mkdirSync(dirname(serverBundle), { recursive: true });
await build({ entryPoints: [join(root, 'test/support/messagesApiServer.ts')], outfile: serverBundle, bundle: true, platform: 'node', format: 'cjs', target: 'node20', logLevel: 'warning' });
const { MessagesApiServer } = require(serverBundle);

function fail(message) {
  process.stderr.write(`chat crash test: ${message}\n`);
  process.exit(1);
}

/** An answer that stalls `ms` after three SSE events, so a kill can land inside the stream. */
const stalled = (answer, ms = 40) => ({ fault: 'stall', answer, ms, afterEvents: 3 });
/** The three model calls of one user message `n`. */
function script(n) {
  return [
    stalled({ content: [{ type: 'text', text: `Reading the notes for task ${n}.` }, { type: 'tool_use', name: 'read_file', input: { path: 'notes.txt' } }] }),
    stalled({ content: [{ type: 'text', text: `Running the check for task ${n}.` }, { type: 'tool_use', name: 'execute_command', input: { command: `sleep 0.15; echo check ${n} done` } }] }),
    stalled({ content: [{ type: 'text', text: `Task ${n} is done: the notes say hello and the check passed.` }] }),
  ];
}

const PRINTED = /^\s*\[e(\d+) · /;
const STARTED = /^strata chat · session (\S+) · /;

/** Runs `strata chat` on `lines` against a fresh server; `kill` = { afterRow, delayMs } SIGKILLs it that long after row afterRow (0: after the start line). */
async function chat(work, archive, lines, answers, extra, kill) {
  const server = await MessagesApiServer.start();
  server.enqueue(...answers);
  try {
    return await new Promise((done) => {
      const started = performance.now();
      // A fake key built at run time: nothing secret is stored in this script.
      const env = { ...process.env, ANTHROPIC_API_KEY: ['sk', 'ant', 'crash', 'test'].join('-') };
      const child = spawn(process.execPath, [CLI, 'chat', '--base-url', server.url, '--archive', archive, '--workspace', work, '--yes', '--no-lsp', ...extra], { stdio: ['pipe', 'pipe', 'pipe'], env });
      child.stdin.end(lines.map((l) => `${l}\n`).join(''));
      let err = '';
      let seen = 0;
      let armed = false;
      const rows = [];
      let firstRowMs;
      let sessionId;
      const arm = () => {
        if (armed || !kill) return;
        armed = true;
        setTimeout(() => child.kill('SIGKILL'), kill.delayMs);
      };
      child.stdout.resume();
      child.stderr.on('data', (chunk) => {
        err += chunk;
        const complete = err.split('\n').slice(0, -1);
        for (const line of complete.slice(seen)) {
          const start = STARTED.exec(line);
          if (start) {
            sessionId = start[1];
            if (kill?.afterRow === 0) arm();
          }
          const row = PRINTED.exec(line);
          if (!row) continue;
          rows.push(Number(row[1]));
          firstRowMs ??= performance.now() - started;
          if (kill && kill.afterRow > 0 && Number(row[1]) >= kill.afterRow) arm();
        }
        seen = complete.length;
      });
      child.on('close', (code, signal) => done({ code, signal, rows, err, sessionId, ms: performance.now() - started, firstRowMs, requests: server.messageRequests.map((r) => r.body) }));
    });
  } finally {
    await server.close();
  }
}

/** The archive's rows and what the file says about itself. */
function inspect(path) {
  const db = new Database(path, { readonly: true });
  try {
    return {
      integrity: db.pragma('integrity_check', { simple: true }),
      sessions: db.prepare('SELECT id FROM sessions').all().map((r) => r.id),
      rows: db.prepare('SELECT session_id, seq, body_json FROM exchanges ORDER BY session_id, seq').all(),
      ftsRows: db.prepare('SELECT count(*) AS n FROM exchanges_fts').get().n,
    };
  } finally {
    db.close();
  }
}

/** Problems of a request body: a tool call with no result in the next message, or a result for no call. */
function invalidToolPairs(body) {
  const problems = [];
  const msgs = body?.messages ?? [];
  msgs.forEach((m, i) => {
    if (m.role !== 'assistant' || !Array.isArray(m.content)) return;
    const calls = m.content.filter((b) => b.type === 'tool_use').map((b) => b.id);
    if (calls.length === 0) return;
    const next = msgs[i + 1];
    const results = new Set(Array.isArray(next?.content) ? next.content.filter((b) => b.type === 'tool_result').map((b) => b.tool_use_id) : []);
    for (const id of calls) if (!results.has(id)) problems.push(`message ${i + 1}: tool call ${id} has no result after it`);
    for (const b of m.content) if (b.type === 'tool_use' && (typeof b.input !== 'object' || b.input === null || Array.isArray(b.input))) problems.push(`message ${i + 1}: tool call ${b.id} input is not an object`);
  });
  return problems;
}

const work = mkdtempSync(join(tmpdir(), 'strata-chat-crash-'));
const random = prng(seed);
const problems = [];
const tally = { killedMidRun: 0, finishedFirst: 0, checked: 0, lost: 0, resumed: 0, duplicated: 0, changed: 0 };
const userLines = Array.from({ length: messages }, (_, i) => `Task ${i + 1}: read notes.txt and run the check.`);
const answers = userLines.flatMap((_, i) => script(i + 1));
const freshWorkspace = (name) => {
  const dir = join(work, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'notes.txt'), 'hello from the notes\n');
  return dir;
};
try {
  const ref = await chat(freshWorkspace('reference'), join(work, 'reference.sqlite'), userLines, answers, []);
  if (ref.code !== 0) fail(`the uninterrupted chat failed (exit ${ref.code}):\n${ref.err}`);
  const total = inspect(join(work, 'reference.sqlite')).rows.length;
  if (total !== ref.rows.length || total !== answers.length) fail(`the uninterrupted chat printed ${ref.rows.length} rows and archived ${total} exchanges for ${answers.length} model calls`);
  // One model call's time, start-up left out, so the seeded delays spread over a call's stream and tool.
  const rowMs = (ref.ms - (ref.firstRowMs ?? 0)) / Math.max(1, total - 1);

  for (let point = 1; point <= points; point++) {
    const afterRow = Math.floor(random() * (total - 1));
    const delayMs = random() * rowMs * (afterRow === 0 ? 2 : 1);
    const where = `point ${point} (after e${afterRow} + ${delayMs.toFixed(0)} ms)`;
    const archive = join(work, `crash-${point}.sqlite`);
    const workspace = freshWorkspace(`ws-${point}`);
    const killed = await chat(workspace, archive, userLines, answers, [], { afterRow, delayMs });
    if (values.verbose) console.log(`${where}: ${killed.signal ?? `exit ${killed.code}`}, ${killed.rows.length} rows printed`);
    if (killed.signal === 'SIGKILL') tally.killedMidRun += 1;
    else if (killed.code === 0) tally.finishedFirst += 1;
    else problems.push(`${where}: the chat failed before the kill (exit ${killed.code}): ${killed.err.trim().slice(-300)}`);
    if (!existsSync(archive)) {
      if (killed.rows.length > 0) problems.push(`${where}: rows were printed but no archive exists`);
      continue;
    }
    const after = inspect(archive);
    if (after.integrity !== 'ok') problems.push(`${where}: integrity_check says ${after.integrity} after the kill`);
    if (after.ftsRows !== after.rows.length) problems.push(`${where}: ${after.ftsRows} full-text rows for ${after.rows.length} exchanges`);
    const stored = new Set(after.rows.map((r) => r.seq));
    const lost = killed.rows.filter((seq) => !stored.has(seq));
    tally.checked += killed.rows.length;
    tally.lost += lost.length;
    if (lost.length > 0) problems.push(`${where}: e${lost.join(', e')} printed as done but missing from the archive`);
    if (after.rows.length === 0 || !killed.sessionId) continue;

    const lastStored = Math.max(...after.rows.map((r) => r.seq));
    const resumed = await chat(workspace, archive, ['Carry on: what is left?'], [{ content: [{ type: 'text', text: 'Nothing is left.' }] }], ['--resume', killed.sessionId]);
    tally.resumed += 1;
    if (resumed.code !== 0) problems.push(`${where}: the resumed chat exited ${resumed.code}: ${resumed.err.trim().slice(-300)}`);
    if (resumed.sessionId !== killed.sessionId) problems.push(`${where}: resumed as session ${resumed.sessionId}, expected ${killed.sessionId}`);
    if (JSON.stringify(resumed.rows) !== JSON.stringify([lastStored + 1])) problems.push(`${where}: the resumed chat printed rows ${resumed.rows.join(',')}, expected e${lastStored + 1}`);
    for (const p of resumed.requests.slice(0, 1).flatMap(invalidToolPairs)) problems.push(`${where}: the first request after resuming is invalid: ${p}`);
    const final = inspect(archive);
    if (final.integrity !== 'ok') problems.push(`${where}: integrity_check says ${final.integrity} after resuming`);
    const before = new Map(after.rows.map((r) => [r.seq, r.body_json]));
    const changed = final.rows.filter((r) => before.has(r.seq) && before.get(r.seq) !== r.body_json).length;
    tally.changed += changed;
    if (changed > 0) problems.push(`${where}: ${changed} exchanges stored before the kill were rewritten by the resume`);
    const duplicates = final.rows.length - new Set(final.rows.map((r) => `${r.session_id}#${r.seq}`)).size;
    tally.duplicated += duplicates;
    if (final.sessions.length !== 1) problems.push(`${where}: ${final.sessions.length} sessions after resuming, expected 1`);
  }

  console.log(`chat crash test: seed ${seed}, ${messages} messages (${total} model calls, ${rowMs.toFixed(0)} ms a call)`);
  console.log(`kill points ${points}: ${tally.killedMidRun} killed mid-run, ${tally.finishedFirst} finished before the kill`);
  console.log(`exchanges checked after kills ${tally.checked}, lost ${tally.lost}`);
  console.log(`resumed ${tally.resumed}: ids continued, duplicated ${tally.duplicated}, rewritten ${tally.changed}; integrity_check ok after every kill and resume: ${problems.every((p) => !p.includes('integrity'))}`);
  console.log(`problems ${problems.length}`);
  for (const p of problems.slice(0, 50)) console.log(`  ${p}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
process.exitCode = problems.length === 0 ? 0 : 1;
