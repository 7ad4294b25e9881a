import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { EngineSettings } from '../../shared/engineSettings';
import type { ParsedSession } from '../../shared/sessionSchema';
import { openSqliteArchive } from '../../adapters/sqliteArchiveStore';
import { readSessionFile } from '../../adapters/sessionFileReader';
import { createTiktokenTokenizer } from '../../adapters/tiktokenTokenizer';
import { makeTempDir } from '../../adapters/tempFiles';
import { stderrLogger } from '../../adapters/streamLogger';
import { StrataError } from '../../engine/ports';
import type { StrategyName } from './benchSession';
import { benchSession, STRATEGY_NAMES } from './benchSession';
import type { StrategyTotals } from './ledger';
import { addTotals, emptyTotals } from './ledger';
import { plotSvg } from './plot';
import { ProgressBar } from './progress';
import { formatScaling, formatTable, toRow } from './report';
import type { ScalePoint } from './scaling';
import { measureScale, stretchSession } from './scaling';

/** The bench's archives are deleted at exit: no fsync per commit (see README, "Durability"). */
const TEMP_ARCHIVE = { synchronous: 'NORMAL' } as const;

export interface BenchArgs {
  sessions: string;
  json?: string;
  plot?: string;
  plotSession?: string;
  scale: number[];
  settings: EngineSettings;
}

/**
 * `strata bench`: every strategy on every session in one run, the table, the scaling check,
 * and optionally every figure as JSON and a plot of one session.
 */
export async function runBench(args: BenchArgs, out: (line: string) => void): Promise<void> {
  let names: string[];
  try {
    names = readdirSync(args.sessions);
  } catch {
    throw new StrataError(`Cannot read the sessions folder ${args.sessions}. Give a folder of .jsonl sessions with --sessions.`, 'usage');
  }
  const files = names.filter((f) => f.endsWith('.jsonl')).sort().map((f) => join(args.sessions, f));
  if (files.length === 0) throw new StrataError(`No .jsonl sessions in ${args.sessions}. Give a folder of sessions with --sessions.`, 'usage');
  const sessions = files.map((f) => ({ name: basename(f, '.jsonl'), session: readSessionFile(f) }));
  const tokenizer = createTiktokenTokenizer();
  const logger = stderrLogger();
  const temp = makeTempDir('strata-bench-');
  const answers = (s: ParsedSession) => s.messages.filter((m) => m.role === 'assistant').length;
  const progress = new ProgressBar(sessions.reduce((n, s) => n + answers(s.session) * STRATEGY_NAMES.length, 0) + args.scale.reduce((a, b) => a + b, 0), 'bench');
  const perSession: Array<{ name: string; results: Record<StrategyName, StrategyTotals> }> = [];
  try {
    let n = 0;
    for (const { name, session } of sessions) {
      const results = await benchSession(session, name, args.settings, { tokenizer, logger, openArchive: () => openSqliteArchive(join(temp.dir, `s${n++}.sqlite`), TEMP_ARCHIVE) }, () => progress.tick());
      perSession.push({ name, results });
    }
    const scaling: ScalePoint[] = [];
    for (const size of args.scale) {
      const path = join(temp.dir, `scale-${size}.sqlite`);
      const archive = openSqliteArchive(path, TEMP_ARCHIVE);
      try {
        const stretched = stretchSession(sessions.map((s) => s.session), size);
        scaling.push(await measureScale(stretched, size, args.settings, { tokenizer, logger, archive, archiveBytes: () => fileBytes(path) }, () => progress.tick()));
      } finally {
        archive.close();
      }
    }
    progress.finish();
    report(args, perSession, scaling, out);
  } finally {
    temp.remove();
  }
}

function report(args: BenchArgs, perSession: Array<{ name: string; results: Record<StrategyName, StrategyTotals> }>, scaling: ScalePoint[], out: (line: string) => void): void {
  const pooled = Object.fromEntries(STRATEGY_NAMES.map((s) => [s, emptyTotals()])) as Record<StrategyName, StrategyTotals>;
  for (const { results } of perSession) for (const s of STRATEGY_NAMES) addTotals(pooled[s], results[s]);
  const rows = STRATEGY_NAMES.map((s) => toRow(s, pooled[s], pooled.full.cost));
  out(`${perSession.length} sessions, ${pooled.full.requests} requests each; cost units: input 1, cache write 1.25, cache read 0.1, output 5`);
  out(formatTable(rows));
  const others = rows.filter((r) => r.strategy !== 'strata');
  const cheapest = others.reduce((a, b) => (b.cost < a.cost ? b : a));
  const strata = rows.find((r) => r.strategy === 'strata')!;
  const perSessionRatio = perSession.map(({ name, results }) => ({ name, ratio: results.strata.cost / results.full.cost }));
  const worst = perSessionRatio.reduce((a, b) => (b.ratio > a.ratio ? b : a));
  out('');
  out(`strata cost / cheapest other (${cheapest.strategy}): ${(strata.cost / cheapest.cost).toFixed(3)} (target <= 0.5)`);
  out(`strata recall: span ${strata.spanRecall.toFixed(3)} (>= 0.95), reference ${strata.refRecall.toFixed(3)} (>= 0.95), far reference ${strata.farRefRecall.toFixed(3)} (>= 0.85)`);
  out(`strata worst session vs full: ${worst.ratio.toFixed(3)} on ${worst.name} (target <= 1.05); requests over budget: ${strata.overBudget}`);
  out('per session, strata cost / full: ' + perSessionRatio.map((r) => `${r.name} ${r.ratio.toFixed(2)}`).join(', '));
  if (scaling.length) {
    out('');
    out(formatScaling(scaling));
  }
  if (args.json) {
    const sessions = perSession.map(({ name, results }) => ({ session: name, rows: STRATEGY_NAMES.map((s) => toRow(s, results[s], results.full.cost)) }));
    writeFileSync(args.json, `${JSON.stringify({ settings: args.settings, pooled: rows, sessions, scaling }, null, 2)}\n`);
    out(`\nwrote ${args.json}`);
  }
  if (args.plot) {
    const chosen = perSession.find((s) => s.name === args.plotSession) ?? perSession.reduce((a, b) => (b.results.full.requests > a.results.full.requests ? b : a));
    writeFileSync(args.plot, plotSvg(chosen.name, STRATEGY_NAMES.map((s) => ({ name: s, totals: chosen.results[s] }))));
    out(`wrote ${args.plot} (${chosen.name})`);
  }
}

function fileBytes(path: string): number {
  let total = 0;
  for (const suffix of ['', '-wal']) {
    try {
      total += statSync(path + suffix).size;
    } catch {
      // a missing WAL file is simply empty
    }
  }
  return total;
}
