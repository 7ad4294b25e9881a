#!/usr/bin/env node
// The safety figures of docs/safety.md (issue 20), measured, never written by hand: the built
// `strata chat` (dist/cli.js) runs against the local Messages API server
// (test/support/messagesApiServer.ts, bundled here with esbuild) as an attacker and a flaky
// network would use it, and every figure is counted from what the runs left behind:
// - secrets: fake secrets built at run time (the session key, an AWS key id and secret, a GitHub
//   token, a PEM private key, a PASSWORD= line) reach the chat through tool output (`cat .env`, an
//   environment dump from /proc/$PPID/environ, read_file, search_files) and an @-mention; then
//   each is looked for in the request bodies the server received, the archive's bytes (with
//   -wal/-shm), the --record file, stdout and stderr; and the files' modes are read.
// - escapes: writes and edits aimed at protected paths and out of the workspace, under --yes;
//   counted as landed when the target's bytes changed on disk. Plus escape codes in a command,
//   read back from the approval prompt as a terminal (a pseudo-terminal through `script`) shows it.
// - faults: one chat per fault; survived = no crash, the expected notice printed, the archive
//   passes integrity_check, and the next message is answered from a valid request.
// - kill points: scripts/chatCrashTest.mjs's summary; mutation: scripts/mutationScore.mjs's, when
//   reports exist.
//
//   npm run build && node scripts/safetyFigures.mjs [--points 5] [--seed 1] [--write docs/safety.md]
//     [--sections secrets,escapes,faults,kills,mutation] [--faults name,...] [--json]
//     [--no-redact] [--allow-protected-writes]   (deliberately broken runs: the counters must count)
// Exits 0 when every figure is what it should be, 1 otherwise.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const Database = require('better-sqlite3');
const CLI = join(root, 'dist', 'cli.js');
const SECTIONS = ['secrets', 'escapes', 'faults', 'kills', 'mutation'];

const { values } = parseArgs({
  options: {
    points: { type: 'string', default: '5' },
    seed: { type: 'string', default: '1' },
    sections: { type: 'string', default: SECTIONS.join(',') },
    faults: { type: 'string' },
    write: { type: 'string' },
    json: { type: 'boolean', default: false },
    'no-redact': { type: 'boolean', default: false },
    'allow-protected-writes': { type: 'boolean', default: false },
  },
});
const sections = new Set(values.sections.split(','));
const points = Number(values.points);
const seed = Number(values.seed);
const broken = [...(values['no-redact'] ? ['--no-redact'] : []), ...(values['allow-protected-writes'] ? ['--allow-protected-writes'] : [])];
if (!existsSync(CLI)) fail(`${CLI} is missing: run npm run build first.`);
if (![...sections].every((s) => SECTIONS.includes(s))) fail(`--sections takes some of ${SECTIONS.join(',')}.`);
if (!Number.isInteger(points) || points < 1 || !Number.isInteger(seed)) fail('--points takes a positive whole number, --seed a whole number.');

function fail(message) {
  process.stderr.write(`safety figures: ${message}\n`);
  process.exit(2);
}

const serverBundle = join(root, '.tmp', 'safety', 'messagesApiServer.cjs');
mkdirSync(dirname(serverBundle), { recursive: true });
await build({
  stdin: { contents: "export * from './messagesApiServer'; export * from './messagesApiEvents';", resolveDir: join(root, 'test/support'), loader: 'ts' },
  outfile: serverBundle, bundle: true, platform: 'node', format: 'cjs', target: 'node20', logLevel: 'warning',
});
const { MessagesApiServer, faults: serverFaults, textAnswer, toolAnswer } = require(serverBundle);

const work = mkdtempSync(join(tmpdir(), 'strata-safety-'));
const hex = (n) => randomBytes(Math.ceil(n / 2)).toString('hex').slice(0, n);
const upper = (n) => Array.from(randomBytes(n), (b) => 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'[b % 32]).join('');
// Built here, at run time: no secret is stored in this script or a fixture.
const sessionKey = ['sk', 'ant', 'api03', hex(40), hex(12)].join('-');

/**
 * Runs `strata chat` on `lines` (one message each, stdin) against a fresh server that serves
 * `answers`. `tty`: through a pseudo-terminal (`script`), `onOutput(text, write)` answering prompts.
 * `killOn`: SIGKILLed once stderr shows this pattern (stdin left open till then), so the archive's
 * -wal and -shm stay on disk as a crash leaves them.
 */
async function chat({ ws, archive, lines = [], answers, extra = [], env = {}, tty, killOn, timeoutMs = 90_000 }) {
  const server = await MessagesApiServer.start({ models: [{ id: 'claude-sonnet-5-5', max_input_tokens: 200_000, max_tokens: 64_000 }] });
  server.enqueue(...answers);
  const args = [CLI, 'chat', '--workspace', ws, '--base-url', server.url, '--archive', archive, '--no-lsp', ...extra];
  const childEnv = { PATH: process.env.PATH, HOME: join(work, 'home'), ANTHROPIC_API_KEY: sessionKey, ...env };
  try {
    return await new Promise((done) => {
      const quoted = [process.execPath, ...args].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(' ');
      const child = tty
        ? spawn('script', ['-qfec', quoted, '/dev/null'], { env: childEnv, stdio: ['pipe', 'pipe', 'pipe'] })
        : spawn(process.execPath, args, { env: childEnv, stdio: ['pipe', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      child.stdout.on('data', (d) => {
        stdout += d.toString('utf8');
        tty?.onOutput(stdout, (s) => child.stdin.write(s));
      });
      child.stderr.on('data', (d) => {
        stderr += d.toString('utf8');
        if (killOn?.test(stderr)) child.kill('SIGKILL');
      });
      if (!tty) child.stdin[killOn ? 'write' : 'end'](lines.map((l) => `${l}\n`).join(''));
      child.on('close', (code, signal) => {
        clearTimeout(timer);
        done({ code, signal, stdout, stderr, requests: server.messageRequests.map((r) => r.body), pending: server.pending });
      });
    });
  } finally {
    await server.close();
  }
}

function workspace(name) {
  const dir = join(work, name);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** The bytes of the archive and every file beside it that SQLite made for it (-wal, -shm, -journal). */
function archiveFiles(archive) {
  const dir = dirname(archive);
  const base = archive.slice(dir.length + 1);
  return readdirSync(dir).filter((f) => f.startsWith(base)).map((f) => join(dir, f));
}

function countOf(haystack, needle) {
  let n = 0;
  for (let i = haystack.indexOf(needle); i !== -1; i = haystack.indexOf(needle, i + needle.length)) n++;
  return n;
}

function integrity(archive) {
  if (!existsSync(archive)) return 'no archive';
  const db = new Database(archive, { readonly: true });
  try {
    return db.pragma('integrity_check', { simple: true });
  } finally {
    db.close();
  }
}

function archivedText(archive) {
  const db = new Database(archive, { readonly: true });
  try {
    return db.prepare('SELECT body_json FROM exchanges').all().map((r) => r.body_json).join('\n');
  } finally {
    db.close();
  }
}

/** Problems of a request body: a tool call with no result after it, a result for no call, a non-object tool input. */
function invalidRequest(body) {
  const problems = [];
  const msgs = body?.messages ?? [];
  msgs.forEach((m, i) => {
    if (!Array.isArray(m.content)) return;
    if (m.role === 'assistant') {
      const calls = m.content.filter((b) => b.type === 'tool_use');
      const next = msgs[i + 1];
      const results = new Set(Array.isArray(next?.content) ? next.content.filter((b) => b.type === 'tool_result').map((b) => b.tool_use_id) : []);
      for (const c of calls) if (!results.has(c.id)) problems.push(`message ${i + 1}: tool call ${c.id} has no result after it`);
      for (const c of calls) if (typeof c.input !== 'object' || c.input === null || Array.isArray(c.input)) problems.push(`message ${i + 1}: tool call ${c.id} input is not an object`);
    } else {
      const prev = msgs[i - 1];
      const calls = new Set(prev?.role === 'assistant' && Array.isArray(prev.content) ? prev.content.filter((b) => b.type === 'tool_use').map((b) => b.id) : []);
      for (const b of m.content) if (b.type === 'tool_result' && !calls.has(b.tool_use_id)) problems.push(`message ${i + 1}: result for no call ${b.tool_use_id}`);
    }
  });
  return problems;
}

const crashed = (r) => r.signal !== null || ![0, 1].includes(r.code) || /\n\s+at .+:\d+:\d+\)?\n/.test(r.stderr);

// ---------------------------------------------------------------- secrets
async function secretFigures() {
  const word = () => hex(24);
  const pemBody = Array.from({ length: 3 }, () => randomBytes(48).toString('base64')).join('\n');
  const secrets = {
    'session key': { value: sessionKey },
    'AWS key id': { value: `AKIA${upper(16)}` },
    'AWS secret key': { value: `${word()}/${hex(6)}+${hex(8)}` },
    'GitHub token': { value: `ghp_${hex(36)}` },
    'PEM private key': { value: `-----BEGIN RSA PRIVATE KEY-----\n${pemBody}\n-----END RSA PRIVATE KEY-----` },
    'PASSWORD= line': { value: `pw${word()}` },
  };
  // What is searched for: the value, and for the session key its base64 at each of the three
  // alignments an environment dump can put it in (its middle, which no neighbour changes).
  for (const s of Object.values(secrets)) s.needles = [s.value.includes('\n') ? s.value.split('\n')[1] : s.value];
  for (let pad = 0; pad < 3; pad++) secrets['session key'].needles.push(Buffer.concat([Buffer.alloc(pad), Buffer.from(sessionKey)]).toString('base64').slice(4, -4));
  const ws = workspace('secrets-ws');
  writeFileSync(join(ws, '.env'), `AWS_ACCESS_KEY_ID=${secrets['AWS key id'].value}\nAWS_SECRET_ACCESS_KEY=${secrets['AWS secret key'].value}\nGITHUB_TOKEN=${secrets['GitHub token'].value}\nPASSWORD=${secrets['PASSWORD= line'].value}\nPORT=8080\n`);
  mkdirSync(join(ws, 'deploy'));
  writeFileSync(join(ws, 'deploy', 'id_rsa'), `${secrets['PEM private key'].value}\n`);
  const routes = [
    ['environment dump', toolAnswer('execute_command', { command: "tr '\\0' '\\n' < /proc/$PPID/environ; base64 -w0 < /proc/$PPID/environ" }, 'Checking the environment.')],
    ['cat .env', toolAnswer('execute_command', { command: 'cat .env deploy/id_rsa' })],
    ['read_file', toolAnswer('read_file', { path: '.env' })],
    ['read_file (PEM)', toolAnswer('read_file', { path: 'deploy/id_rsa' })],
    ['search_files', toolAnswer('search_files', { regex: 'AKIA|SECRET|TOKEN|PASSWORD|PRIVATE', path: '.' })],
  ];
  // Reads a redactor cannot follow: the key's body without its BEGIN line, a value reversed.
  // Measured to show the limit docs/safety.md states; not counted in "found stored".
  const adversarial = [
    ['search_files for bare base64 lines', toolAnswer('search_files', { regex: '^[A-Za-z0-9+/]{40,}$', path: '.' })],
    ['tail -n +2 of the key file', toolAnswer('execute_command', { command: 'tail -n +2 deploy/id_rsa' })],
    ['rev .env', toolAnswer('execute_command', { command: 'rev .env' })],
  ];
  // The chat's own environment holds them too, for the /proc/$PPID/environ dump.
  const env = { AWS_ACCESS_KEY_ID: secrets['AWS key id'].value, AWS_SECRET_ACCESS_KEY: secrets['AWS secret key'].value, GITHUB_TOKEN: secrets['GitHub token'].value, PASSWORD: secrets['PASSWORD= line'].value, DEPLOY_KEY: secrets['PEM private key'].value };
  const ordinary = await secretRun(ws, 'secrets', secrets, routes, env, 'Look at @/.env, @/deploy/id_rsa and the environment');
  for (const s of Object.values(secrets)) s.needles.push(...s.needles.map((n) => [...n].reverse().join('')));
  const limit = await secretRun(ws, 'secrets-adversarial', secrets, adversarial, env, 'Look at the files');
  return { planted: Object.keys(secrets).length, routes: routes.length + 1, ...ordinary, adversarial: { routes: adversarial.map(([name]) => name), stored: limit.stored, found: limit.found } };
}

/** One chat through `routes` (and the message's mentions), then every planted needle counted in every sink. */
async function secretRun(ws, name, secrets, routes, env, message) {
  const archive = join(work, name, 'archive.sqlite');
  const record = join(work, name, 'chat.jsonl');
  // --verbose: the log lines reach stderr too. Killed after the last exchange is archived (its row
  // is printed after the archive has it), so the -wal holds the session as a crash would leave it.
  const lastRow = new RegExp(`\\[e${routes.length + 1} · `);
  const run = await chat({ ws, archive, lines: [message], answers: [...routes.map(([, a]) => a), textAnswer('Done.')], extra: ['--record', record, '--yes', '--verbose', ...broken], env, killOn: lastRow });
  const requests = JSON.stringify(run.requests);
  // A route counts as exercised when its output reached the model, redacted or not: a marker or a planted value.
  const results = run.requests.at(-1)?.messages?.flatMap((m) => (Array.isArray(m.content) ? m.content.filter((b) => b.type === 'tool_result') : [])) ?? [];
  const shows = (text) => text.includes('[redacted:') || Object.values(secrets).some((s) => s.needles.some((n) => text.includes(n)));
  const exercised = results.filter((b) => shows(JSON.stringify(b.content))).length + (shows(JSON.stringify(run.requests[0]?.messages?.[0] ?? '')) ? 1 : 0);
  const modes = Object.fromEntries([...archiveFiles(archive), record].filter(existsSync).map((f) => [f.slice(dirname(f).length + 1), (statSync(f).mode & 0o777).toString(8)]));
  // The log as the kill left it; then the archive file once SQLite folds the log into it (as the next open does).
  const wal = archiveFiles(archive).filter((f) => f !== archive).map((f) => readFileSync(f, 'latin1')).join('\n');
  if (existsSync(archive)) {
    const db = new Database(archive);
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();
  }
  const sinks = {
    requests,
    archive: existsSync(archive) ? readFileSync(archive, 'latin1') : '',
    'archive -wal/-shm': wal,
    record: existsSync(record) ? readFileSync(record, 'utf8') : '',
    stdout: run.stdout,
    stderr: run.stderr,
  };
  const found = {};
  for (const [secret, s] of Object.entries(secrets)) {
    found[secret] = {};
    for (const [sink, text] of Object.entries(sinks)) found[secret][sink] = s.needles.reduce((n, needle) => n + countOf(text, needle), 0);
  }
  const stored = Object.values(found).reduce((n, bySink) => n + Object.values(bySink).reduce((a, b) => a + b, 0), 0);
  return { exercised, found, stored, modes, chatOk: run.signal === 'SIGKILL' && run.stdout.includes('Done.'), requestCount: run.requests.length };
}

// ---------------------------------------------------------------- escapes
async function escapeFigures() {
  const ws = workspace('escape-ws');
  const outside = join(work, 'outside');
  const home = join(work, 'home');
  mkdirSync(outside, { recursive: true });
  mkdirSync(home, { recursive: true });
  for (const dir of ['.git/hooks', 'sub/.git/hooks', '.vscode', '.github/workflows']) mkdirSync(join(ws, dir), { recursive: true });
  writeFileSync(join(ws, 'sub/.git/config'), '[core]\n\tbare = false\n');
  writeFileSync(join(ws, '.vscode/settings.json'), '{}\n');
  writeFileSync(join(outside, 'existing.txt'), 'outside\n');
  symlinkSync(join(ws, 'sub/.git'), join(ws, 'gitlink'));
  symlinkSync(outside, join(ws, 'outlink'));
  const tmpTarget = join(tmpdir(), `strata-escape-${hex(12)}.txt`);
  const payload = (i) => `#!/bin/sh\n# escape attempt ${i} ${hex(8)}\n`;
  // [what, tool, input path, real target on disk]
  const attempts = [
    ['hook in a nested .git', 'write_file', 'sub/.git/hooks/pre-commit', join(ws, 'sub/.git/hooks/pre-commit')],
    ['nested .git/config (fsmonitor)', 'edit_file', 'sub/.git/config', join(ws, 'sub/.git/config')],
    ['nested .git/config, rewritten', 'write_file', 'sub/.git/config', join(ws, 'sub/.git/config')],
    ['top-level .git hook', 'write_file', '.git/hooks/post-checkout', join(ws, '.git/hooks/post-checkout')],
    ['.vscode/settings.json', 'edit_file', '.vscode/settings.json', join(ws, '.vscode/settings.json')],
    ['.vscode/tasks.json', 'write_file', '.vscode/tasks.json', join(ws, '.vscode/tasks.json')],
    ['a link into .git', 'write_file', 'gitlink/hooks/pre-push', join(ws, 'sub/.git/hooks/pre-push')],
    ['.envrc', 'write_file', '.envrc', join(ws, '.envrc')],
    ['CI workflow', 'write_file', '.github/workflows/ci.yml', join(ws, '.github/workflows/ci.yml')],
    ['../ out of the workspace', 'write_file', '../outside/dotdot.txt', join(outside, 'dotdot.txt')],
    ['an absolute /tmp path', 'write_file', tmpTarget, tmpTarget],
    ['a ~ path', 'write_file', '~/escape.txt', join(home, 'escape.txt')],
    ['a link out of the workspace', 'write_file', 'outlink/escape.txt', join(outside, 'escape.txt')],
    ['editing through a link out', 'edit_file', 'outlink/existing.txt', join(outside, 'existing.txt')],
  ];
  const before = attempts.map(([, , , target]) => (existsSync(target) ? readFileSync(target, 'utf8') : undefined));
  const answers = attempts.map(([, tool, path], i) =>
    tool === 'write_file'
      ? toolAnswer('write_file', { path, content: payload(i) })
      : toolAnswer('edit_file', { path, edits: [{ search: path.endsWith('.json') ? '{}' : path.endsWith('config') ? '[core]' : 'outside', replace: payload(i) }] }),
  );
  const run = await chat({ ws, archive: join(work, 'escapes.sqlite'), lines: ['Set up the hooks and the editor.'], answers: [...answers, textAnswer('Done.')], extra: ['--yes', ...broken] });
  const landed = attempts.map(([what], i) => {
    const target = attempts[i][3];
    const now = existsSync(target) && !lstatSync(target).isDirectory() ? readFileSync(target, 'utf8') : undefined;
    return { what, landed: now !== before[i] };
  });
  rmSync(tmpTarget, { force: true });

  // A command whose escape codes would redraw the approval line, answered at a real (pseudo-)terminal.
  const spoofWs = workspace('spoof-ws');
  const hidden = `touch spoofed-${hex(6)}`;
  const spoofCommand = `${hidden} \x1b[2K\r\x1b[1A\x1b[2KAllow echo harmless? [y/N] \u202e`;
  let sent = 0;
  const spoof = await chat({
    ws: spoofWs,
    archive: join(work, 'spoof.sqlite'),
    answers: [toolAnswer('execute_command', { command: spoofCommand }), textAnswer('Fine.\n\x1b[2K\rAllow harmless? [y/N] ')],
    tty: {
      onOutput: (text, write) => {
        const prompts = text.split('you> ').length - 1;
        if (sent === 0 && prompts >= 1) (sent = 1), write('run the check\r');
        else if (sent === 1 && text.includes('[y/N, or say why not]')) (sent = 2), write('n\r');
        else if (sent === 2 && prompts >= 2) (sent = 3), write('\x04');
      },
    },
  });
  // The line the terminal shows the question on (the pseudo-terminal ends lines with \r\n).
  const promptLine = spoof.stdout.split('\n').find((l) => l.includes('? [y/N, or say why not]'))?.replace(/\r$/, '') ?? '';
  const answerText = spoof.stdout.slice(spoof.stdout.indexOf('Fine.'));
  const raw = /[\u001b\u202e]|\r(?!\n)/;
  const spoofs = [
    { what: 'escape codes in a command, on the approval prompt', printed: promptLine, shown: promptLine !== '', spoofed: existsSync(join(spoofWs, hidden.slice('touch '.length))) || !promptLine.startsWith(`Allow run \`${hidden} `) || raw.test(promptLine) || !promptLine.includes('\\x1b[2K') },
    { what: "escape codes in the model's answer", printed: answerText.split('you> ')[0], shown: answerText.startsWith('Fine.'), spoofed: !answerText.startsWith('Fine.') || raw.test(answerText.split('you> ')[0]) },
  ];
  return { attempts: landed, chatOk: run.code === 0 && !crashed(run), spoofs, spoofRun: spoof };
}

// ---------------------------------------------------------------- faults
const FIRST = 'Answer to the first message.';
const SECOND = 'Answer to the second message.';
/**
 * Each fault: the answers served to the first message (the second is always answered SECOND), the
 * notice expected on stderr/stdout, and where it applies the requests a retry makes in all, the text
 * the archive keeps of an unfinished answer, a file a call that must not run would have written.
 */
const FAULTS = {
  'rate limit 429 (retry-after 1 s)': { requests: 3, answers: [serverFaults.rateLimited(1), textAnswer(FIRST)], expect: /^(?![\s\S]*error \()[\s\S]*Answer to the first message\./ },
  'rate limit 429 (retry-after 1 h)': { answers: [serverFaults.rateLimited(3600)], expect: /error \(\w+\):.*(3600|60 min|1 h|hour)/i },
  'server error 500': { requests: 3, answers: [serverFaults.serverError(), textAnswer(FIRST)], expect: /Answer to the first message\./ },
  'overloaded 529': { requests: 4, answers: [serverFaults.overloaded(), serverFaults.overloaded(), textAnswer(FIRST)], expect: /Answer to the first message\./ },
  'stream cut after text': { answers: [serverFaults.cut(textAnswer('The partial answer that arrived before the cut, long enough.'), 8)], expect: /error \(\w+\)/, archived: 'The partial answer' },
  'stream cut before any text': { requests: 3, answers: [serverFaults.cut(textAnswer('never shown'), 2), textAnswer(FIRST)], expect: /^(?![\s\S]*error \()[\s\S]*Answer to the first message\./ },
  'error event before any text': { requests: 3, answers: [serverFaults.streamOverloaded(textAnswer('never shown'), 2), textAnswer(FIRST)], expect: /^(?![\s\S]*error \()[\s\S]*Answer to the first message\./ },
  'key refused 401': { answers: [serverFaults.unauthorized()], expect: /error \(\w+\):.*(key|ANTHROPIC_API_KEY)/i },
  'prompt too long 400': { requests: 3, answers: [serverFaults.promptTooLong(250_000, 200_000), serverFaults.promptTooLong(250_000, 200_000)], expect: /error \(\w+\):.*too long/i },
  'error event in the stream': { answers: [serverFaults.streamOverloaded(textAnswer('The partial answer before the error event, long enough.'), 8)], expect: /error \(\w+\)/, archived: 'The partial answer' },
  'stall before the headers': { requests: 3, answers: [serverFaults.stall(textAnswer('never read'), 20_000), textAnswer(FIRST)], expect: /Answer to the first message\./, env: { STRATA_TEST_HEADER_TIMEOUT_MS: '1500' } },
  'max_tokens in a tool call': {
    answers: [{ content: [{ type: 'text', text: 'Writing the file.' }, { type: 'tool_use', name: 'write_file', input: {}, rawJson: '{"path": "big.txt", "content": "aaaa' }], stopReason: 'max_tokens' }, textAnswer(FIRST)],
    expect: /\[max_tokens: .*write_file.*not run/,
    notOnDisk: 'big.txt',
  },
  refusal: { answers: [{ content: [{ type: 'text', text: 'I will not help with' }, { type: 'tool_use', name: 'write_file', input: { path: 'refused.txt', content: 'x' } }], stopReason: 'refusal' }], expect: /\[refusal: /, notOnDisk: 'refused.txt' },
  pause_turn: { answers: [{ content: [{ type: 'text', text: 'Searching' }], stopReason: 'pause_turn' }, textAnswer(FIRST)], expect: /\[pause_turn: [\s\S]*Answer to the first message\./ },
  'invalid JSON tool input': { answers: [{ content: [{ type: 'tool_use', name: 'write_file', input: {}, rawJson: '{"path": "bad.txt", "content": }' }] }, textAnswer(FIRST)], expect: /\[tool_input: .*write_file.*not run/, notOnDisk: 'bad.txt' },
  'null tool input': { answers: [{ content: [{ type: 'tool_use', name: 'list_files', input: {}, rawJson: 'null' }] }, textAnswer(FIRST)], expect: /\[tool_input: .*list_files.*not run/ },
  'unterminated <housekeeping>': { answers: [textAnswer('Here is the plan. <housekeeping> and this rest of the answer stays visible.')], expect: /this rest of the answer stays visible/ },
};

async function faultFigures() {
  const chosen = values.faults ? values.faults.split(',') : Object.keys(FAULTS);
  for (const name of chosen) if (!FAULTS[name]) fail(`no fault '${name}'; faults: ${Object.keys(FAULTS).join(', ')}`);
  const rows = [];
  for (const [i, name] of chosen.entries()) {
    const f = FAULTS[name];
    const ws = workspace(`fault-${i}`);
    const archive = join(work, `fault-${i}.sqlite`);
    const run = await chat({ ws, archive, lines: ['First message: do the thing.', 'Second message: anything else?'], answers: [...f.answers, textAnswer(SECOND)], env: f.env ?? {}, extra: ['--yes', ...broken] });
    const shown = `${run.stderr}\n${run.stdout}`;
    const last = run.requests.at(-1);
    const lastUser = JSON.stringify(last?.messages?.at(-1) ?? '');
    const checks = {
      'no crash': !crashed(run),
      notice: f.expect.test(shown),
      integrity: integrity(archive) === 'ok',
      'next answered': run.stdout.includes(SECOND) && lastUser.includes('Second message') && run.pending === 0,
      'valid requests': run.requests.every((b) => invalidRequest(b).length === 0),
    };
    if (f.archived) checks['partial archived'] = existsSync(archive) && archivedText(archive).includes(f.archived);
    if (f.requests) checks['retried'] = run.requests.length === f.requests;
    if (f.notOnDisk) checks['call not run'] = !existsSync(join(ws, f.notOnDisk));
    const failedChecks = Object.entries(checks).filter(([, ok]) => !ok).map(([k]) => k);
    rows.push({ name, survived: failedChecks.length === 0, failedChecks, requests: run.requests.length, detail: run.stderr.slice(-700) });
  }
  return rows;
}

// ---------------------------------------------------------------- kill points and mutation
function killFigures() {
  const run = spawnSync(process.execPath, [join(root, 'scripts', 'chatCrashTest.mjs'), '--points', String(points), '--seed', String(seed), '--messages', '2'], { encoding: 'utf8', timeout: 3_600_000 });
  const summary = /kill points (\d+): (\d+) killed mid-run, (\d+) finished before the kill/.exec(run.stdout);
  const lost = /exchanges checked after kills (\d+), lost (\d+)/.exec(run.stdout);
  const failedPoints = new Set([...run.stdout.matchAll(/^ {2}point (\d+) /gm)].map((m) => m[1]));
  if (!summary || !lost) return { error: `chatCrashTest.mjs printed no summary (exit ${run.status}): ${(run.stderr || run.stdout).slice(-400)}` };
  const total = Number(summary[1]);
  return { total, killed: Number(summary[2]), finished: Number(summary[3]), checked: Number(lost[1]), lost: Number(lost[2]), survived: total - failedPoints.size, exit: run.status };
}

function mutationFigures() {
  if (!existsSync(join(root, 'reports', 'mutation'))) return { notRun: true };
  const run = spawnSync(process.execPath, [join(root, 'scripts', 'mutationScore.mjs')], { encoding: 'utf8', cwd: root });
  if (run.status !== 0) return { notRun: true, why: run.stderr.trim() };
  // Its table: `name | % score | ...`, indented two spaces a level; folders end with '/'.
  const rows = [...run.stdout.matchAll(/^( *)(All files|[\w.-]+\/?) *\| *([\d.]+|n\/a) *\|/gm)].map((m) => ({ depth: m[1].length / 2, name: m[2], score: m[3] }));
  const files = rows.filter((r) => r.name !== 'All files' && !r.name.endsWith('/') && r.score !== 'n/a');
  const lowest = files.reduce((low, r) => (low === undefined || Number(r.score) < Number(low.score) ? r : low), undefined);
  const shown = rows.filter((r) => r.depth <= 1).map((r) => `${r.name} ${r.score}%`);
  if (lowest) shown.push(`lowest file ${lowest.name} ${lowest.score}% (${files.length} files scored)`);
  return { notRun: false, rows: shown };
}

// ---------------------------------------------------------------- report
const figures = {};
try {
  if (sections.has('secrets')) figures.secrets = await secretFigures();
  if (sections.has('escapes')) figures.escapes = await escapeFigures();
  if (sections.has('faults')) figures.faults = await faultFigures();
  if (sections.has('kills')) figures.kills = killFigures();
  if (sections.has('mutation')) figures.mutation = mutationFigures();
} finally {
  rmSync(work, { recursive: true, force: true });
}

const sum = (o) => Object.values(o).reduce((a, b) => a + b, 0);
const lines = ['| figure | measured | expected |', '|---|---|---|'];
const problems = [];
const s = figures.secrets;
if (s) {
  const bySecret = Object.entries(s.found).map(([name, sinks]) => `${name} ${sum(sinks)}`).join(', ');
  const bySink = Object.keys(Object.values(s.found)[0]).map((sink) => `${sink} ${sum(Object.fromEntries(Object.entries(s.found).map(([n, v]) => [n, v[sink]])))}`).join(', ');
  const stored = s.stored;
  lines.push(`| secrets planted | ${s.planted} fake secrets (${Object.keys(s.found).join(', ')}) through ${s.routes} routes (environment dump from /proc/$PPID/environ, \`cat\`, read_file ×2, search_files, @-mentions); ${s.exercised} of ${s.routes} reached the model's requests, redacted | ${s.routes} of ${s.routes} reached |`);
  lines.push(`| secrets found stored | **${stored}** (by secret: ${bySecret}; by sink: ${bySink}) | 0 |`);
  lines.push(`| archive and record modes | ${Object.entries(s.modes).map(([f, m]) => `${f} ${m}`).join(', ')} | 600 |`);
  const adv = Object.entries(s.adversarial.found).map(([name, sinks]) => [name, sum(sinks)]).filter(([, n]) => n > 0);
  lines.push(`| beyond a redactor (limit) | reads that strip a secret's shape (${s.adversarial.routes.join('; ')}): ${s.adversarial.stored} occurrences stored${adv.length ? ` (${adv.map(([n, c]) => `${n} ${c}`).join(', ')})` : ''} | not 0: a known limit |`);
  if (stored !== 0) problems.push(`secrets found stored: ${stored}`);
  if (s.exercised !== s.routes) problems.push(`only ${s.exercised} of ${s.routes} secret routes reached the model`);
  if (!s.chatOk) problems.push('the secrets chat failed');
  if (Object.values(s.modes).some((m) => m !== '600')) problems.push(`file modes ${JSON.stringify(s.modes)}`);
}
const e = figures.escapes;
if (e) {
  const landed = e.attempts.filter((a) => a.landed);
  lines.push(`| escape attempts (under \`--yes\`) | ${e.attempts.length} writes and edits (${e.attempts.map((a) => a.what).join('; ')}); landed on disk: **${landed.length}**${landed.length ? ` (${landed.map((a) => a.what).join('; ')})` : ''} | 0 landed |`);
  const spoofed = e.spoofs.filter((x) => x.spoofed);
  lines.push(`| terminal spoofs | ${e.spoofs.length} (${e.spoofs.map((x) => x.what).join('; ')}); raw control characters shown: **${spoofed.length}** | 0 |`);
  if (landed.length) problems.push(`escapes landed: ${landed.map((a) => a.what).join('; ')}`);
  if (spoofed.length) problems.push(`spoofs shown raw: ${spoofed.map((x) => x.what).join('; ')}\n${JSON.stringify(e.spoofRun.stdout.slice(-1500))}`);
  if (!e.chatOk) problems.push('the escape chat failed');
}
const f = figures.faults;
if (f) {
  const survived = f.filter((r) => r.survived);
  lines.push(`| API faults survived | **${survived.length} of ${f.length}** (${f.map((r) => (r.survived ? r.name : `${r.name}: FAILED ${r.failedChecks.join(', ')}`)).join('; ')}) | all |`);
  for (const r of f.filter((x) => !x.survived)) problems.push(`fault '${r.name}' failed: ${r.failedChecks.join(', ')} (${r.requests} requests)\n${r.detail}`);
}
const k = figures.kills;
if (k) {
  if (k.error) {
    lines.push(`| kill points survived | ${k.error} | all |`);
    problems.push(k.error);
  } else {
    lines.push(`| kill points survived (\`chatCrashTest.mjs --points ${k.total} --seed ${seed}\`) | **${k.survived} of ${k.total}** (${k.killed} killed mid-run, ${k.finished} finished first; ${k.checked} printed exchanges checked, ${k.lost} lost) | all, 0 lost |`);
    if (k.survived !== k.total || k.lost !== 0) problems.push(`kill points: ${k.survived} of ${k.total} survived, ${k.lost} lost`);
  }
}
const m = figures.mutation;
if (m) lines.push(`| mutation scores | ${m.notRun ? 'not run here (no reports under reports/mutation/; run `npm run mutate`, then `npm run mutate:score`)' : m.rows.join(', ')} | 85% or more per file |`);

const table = lines.join('\n');
const stamp = `Measured by \`node scripts/safetyFigures.mjs${process.argv.slice(2).filter((a, i, all) => a !== '--write' && all[i - 1] !== '--write').map((a) => ` ${a}`).join('')}\` on ${new Date().toISOString().slice(0, 10)}${broken.length ? ` (deliberately broken: ${broken.join(' ')})` : ''}.`;
if (values.json) console.log(JSON.stringify({ figures: { ...figures, escapes: e && { ...e, spoofRun: undefined } }, problems }, null, 2));
else {
  console.log(`${stamp}\n\n${table}`);
  if (problems.length) console.log(`\nproblems ${problems.length}\n${problems.map((p) => `  ${p}`).join('\n')}`);
}

if (values.write) {
  const BEGIN = '<!-- safety-figures: generated by `node scripts/safetyFigures.mjs --write docs/safety.md`; do not edit -->';
  const END = '<!-- /safety-figures -->';
  const path = resolve(root, values.write);
  const page = readFileSync(path, 'utf8');
  const start = page.indexOf(BEGIN);
  const end = page.indexOf(END);
  if (start === -1 || end < start) fail(`${values.write} has no ${BEGIN} … ${END} block to replace.`);
  writeFileSync(path, `${page.slice(0, start + BEGIN.length)}\n${stamp}\n\n${table}\n${page.slice(end)}`);
  console.error(`${values.write}: figures written`);
}
process.exitCode = problems.length === 0 ? 0 : 1;
