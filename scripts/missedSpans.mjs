// Which spans does Strata miss, and what did the prompt hold instead? Replays every bench
// session through the engine (src/cli/bench/missedSpans.ts) at one window and budget and
// prints the missed spans by kind of tool output, age and where they went.
//   node scripts/missedSpans.mjs [--window 200000] [--budget 16000] [--set a=1,b=2] [--json out.json]
//   --long: the bench's long-session panel instead (bench/long and the day sessions built from --sessions)
import { build } from 'esbuild';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, join } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { window: { type: 'string', default: '200000' }, budget: { type: 'string', default: '16000' }, set: { type: 'string' }, json: { type: 'string' }, sessions: { type: 'string', default: 'bench/sessions' }, long: { type: 'boolean', default: false }, 'long-sessions': { type: 'string', default: 'bench/long' }, dump: { type: 'string' } } });
// Inside the project, so the bundle finds node_modules (better-sqlite3 stays outside it).
mkdirSync('node_modules/.cache', { recursive: true });
const temp = mkdtempSync(join(process.cwd(), 'node_modules/.cache/missed-spans-'));
try {
  const entry = `
    export { missedSpans, emptyMissedSpanReport } from './src/cli/bench/missedSpans';
    export { cliSettings, parseSet } from './src/cli/cliSettings';
    export { readSessionFile } from './src/adapters/sessionFileReader';
    export { createTiktokenTokenizer } from './src/adapters/tiktokenTokenizer';
    export { openSqliteArchive } from './src/adapters/sqliteArchiveStore';
    export { stderrLogger } from './src/adapters/streamLogger';
    export { buildDays } from './src/cli/bench/daySessions';`;
  await build({ stdin: { contents: entry, resolveDir: process.cwd(), loader: 'ts' }, bundle: true, platform: 'node', format: 'cjs', target: 'node20', external: ['better-sqlite3'], outfile: join(temp, 'm.cjs'), logLevel: 'warning' });
  const m = createRequire(import.meta.url)(join(temp, 'm.cjs'));
  const settings = m.cliSettings({ ...m.parseSet(values.set), contextWindow: Number(values.window), promptBudgetTokens: Number(values.budget) });
  const tokenizer = m.createTiktokenTokenizer();
  const logger = m.stderrLogger();
  const report = m.emptyMissedSpanReport();
  let n = 0;
  const read = (dir) => readdirSync(dir).filter((f) => f.endsWith('.jsonl')).sort().map((f) => ({ name: basename(f, '.jsonl'), session: m.readSessionFile(join(dir, f)) }));
  const sessions = values.long ? [...read(values['long-sessions']), ...m.buildDays(read(values.sessions)).days] : read(values.sessions);
  for (const { name, session } of sessions) {
    // --dump <session>:<turn>: writes that request's JSON to /tmp/<session>-<turn>.json, to read what it held
    const [dumpSession, dumpTurn] = (values.dump ?? '').split(':');
    const dump = (turn, request) => {
      if (name.startsWith(dumpSession) && String(turn) === dumpTurn) writeFileSync(join('/tmp', `${name}-${turn}.json`), JSON.stringify(request, null, 1));
    };
    await m.missedSpans(session, name, settings, { tokenizer, logger, openArchive: () => m.openSqliteArchive(join(temp, `s${n++}.sqlite`), { synchronous: 'NORMAL' }) }, report, values.dump ? dump : undefined);
  }
  print(report);
  if (values.json) writeFileSync(values.json, `${JSON.stringify(report, null, 2)}\n`);
} finally {
  rmSync(temp, { recursive: true, force: true });
}

function print(report) {
  const missed = report.missed;
  console.log(`window ${values.window}, budget ${values.budget}${values.set ? `, ${values.set}` : ''}: ${missed.length} of ${report.spans} spans missed (span recall ${(1 - missed.length / report.spans).toFixed(3)})`);
  table('by kind of tool output', group(missed, (s) => s.kind));
  table('by where the source stood', group(missed, (s) => s.where));
  table('by phase (the quoting request\'s budget: base or grown) and where', group(missed, (s) => `${s.phase}: ${s.where}${s.cutOnArrival && s.where !== 'cut on arrival' ? ' (cut on arrival)' : ''}`));
  console.log('\nspan recall by session and phase:');
  for (const [key, spans] of Object.entries(report.spansBy).sort()) {
    const lost = missed.filter((s) => `${s.session} ${s.phase}` === key).length;
    console.log(`  ${key.padEnd(52)} ${String(spans - lost).padStart(5)} / ${String(spans).padStart(5)}  ${(1 - lost / spans).toFixed(3)}`);
  }
  table('by age in tokens', group(missed, (s) => (s.ageTokens < 5000 ? '<5k' : s.ageTokens < 10000 ? '5-10k' : s.ageTokens < 20000 ? '10-20k' : s.ageTokens < 40000 ? '20-40k' : '>=40k')));
  table('by session', group(missed, (s) => s.session));
  const files = group(missed.filter((s) => s.file), (s) => `${s.session.slice(0, 18)} ${s.file}`);
  table('files most missed (top 12)', new Map([...files].sort((a, b) => b[1].length - a[1].length).slice(0, 12)));
  for (const [label, spend] of [['every request', report.spendAll], ['requests that missed a span', report.spendOnMiss]]) {
    const per = (x) => Math.round(x / Math.max(1, spend.turns));
    console.log(`\nwhat ${label} held (${spend.turns} requests, mean tokens ${per(spend.tokens)}):`);
    console.log(`  layers: ${Object.entries(spend.layers).map(([k, v]) => `${k} ${per(v)}`).join(', ')}`);
    console.log(`  working memory by kind: ${Object.entries(spend.outputs).sort((a, b) => b[1] - a[1]).slice(0, 14).map(([k, v]) => `${k} ${per(v)}`).join(', ')}`);
  }
}

function group(items, key) {
  const out = new Map();
  for (const item of items) out.set(key(item), [...(out.get(key(item)) ?? []), item]);
  return new Map([...out].sort((a, b) => b[1].length - a[1].length));
}

function table(title, groups) {
  console.log(`\n${title}:`);
  const median = (xs) => (xs.length ? xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)] : 0);
  for (const [k, items] of groups) console.log(`  ${String(k).padEnd(44)} ${String(items.length).padStart(4)}  median age ${String(median(items.map((s) => s.ageTokens))).padStart(6)} tokens, ${String(median(items.map((s) => s.ageExchanges))).padStart(3)} exchanges`);
}
