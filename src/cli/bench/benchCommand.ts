import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { EngineSettings } from '../../shared/engineSettings';
import type { ParsedSession } from '../../shared/sessionSchema';
import { openSqliteArchive } from '../../adapters/sqliteArchiveStore';
import { readSessionFile } from '../../adapters/sessionFileReader';
import { createTiktokenTokenizer } from '../../adapters/tiktokenTokenizer';
import { makeTempDir } from '../../adapters/tempFiles';
import { stderrLogger } from '../../adapters/streamLogger';
import { StrataError } from '../../engine/ports';
import { benchSession, STRATEGY_NAMES } from './benchSession';
import { frontierSvg } from './frontierPlot';
import { plotSvg } from './plot';
import { ProgressBar } from './progress';
import { formatScaling } from './report';
import type { ScalePoint } from './scaling';
import { measureScale, stretchSession } from './scaling';
import type { WindowRun, WindowSummary } from './sweepReport';
import { formatWindow, summarizeWindow, sweepJson } from './sweepReport';

/** The bench's archives are deleted at exit: no fsync per commit (see docs/durability.md). */
const TEMP_ARCHIVE = { synchronous: 'NORMAL' } as const;

export interface BenchArgs {
  sessions: string;
  /** Context windows of the sweep, tokens, in report order. */
  windows: number[];
  /** Engine settings at one window, built exactly as `--window` builds them (validated before the run). */
  settingsAt: (window: number) => EngineSettings;
  json?: string;
  /** The frontier plot: cost against span recall, one panel per window. */
  plot?: string;
  /** The per-session plot (prompt tokens and cost per turn) at the smallest window. */
  sessionPlot?: string;
  plotSession?: string;
  scale: number[];
}

/**
 * `strata bench`: every strategy on every session at each window of the sweep in one run; per
 * window the table, the verdict and the moonshot; then the scaling check; optionally every
 * figure as JSON, the frontier plot and one session's plot.
 */
export async function runBench(args: BenchArgs, out: (line: string) => void): Promise<WindowSummary[]> {
  for (const [flag, path] of [['--json', args.json], ['--plot', args.plot], ['--session-plot', args.sessionPlot]] as const) {
    if (path !== undefined && !existsSync(dirname(resolve(path)))) throw new StrataError(`${flag}: the folder of ${path} does not exist; create it or give another path.`, 'usage');
  }
  const sessions = loadSessions(args.sessions);
  if (args.plotSession !== undefined && !sessions.some((s) => s.name === args.plotSession)) {
    throw new StrataError(`--plot-session: no session named '${args.plotSession}' in ${args.sessions}; give one of: ${sessions.map((s) => s.name).join(', ')}.`, 'usage');
  }
  const tokenizer = createTiktokenTokenizer();
  const logger = stderrLogger();
  const temp = makeTempDir('strata-bench-');
  const answers = (s: ParsedSession) => s.messages.filter((m) => m.role === 'assistant').length;
  const perWindow = sessions.reduce((n, s) => n + answers(s.session) * STRATEGY_NAMES.length, 0);
  const progress = new ProgressBar(perWindow * args.windows.length + args.scale.reduce((a, b) => a + b, 0), 'bench');
  try {
    let n = 0;
    const runs: WindowRun[] = [];
    for (const window of args.windows) {
      const settings = args.settingsAt(window);
      const perSession: WindowRun['perSession'] = [];
      for (const { name, session } of sessions) {
        const results = await benchSession(session, name, settings, { tokenizer, logger, openArchive: () => openSqliteArchive(join(temp.dir, `s${n++}.sqlite`), TEMP_ARCHIVE) }, () => progress.tick());
        perSession.push({ name, results });
      }
      runs.push({ window, settings, perSession });
    }
    const scaling: ScalePoint[] = [];
    const scaleSettings = args.settingsAt(Math.max(...args.windows));
    for (const size of args.scale) {
      const path = join(temp.dir, `scale-${size}.sqlite`);
      const archive = openSqliteArchive(path, TEMP_ARCHIVE);
      try {
        const stretched = stretchSession(sessions.map((s) => s.session), size);
        scaling.push(await measureScale(stretched, size, scaleSettings, { tokenizer, logger, archive, archiveBytes: () => fileBytes(path) }, () => progress.tick()));
      } finally {
        archive.close();
      }
    }
    progress.finish();
    const summaries = runs.map(summarizeWindow);
    report(args, runs, summaries, scaling, out);
    return summaries;
  } finally {
    temp.remove();
  }
}

function loadSessions(dir: string): Array<{ name: string; session: ParsedSession }> {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    throw new StrataError(`Cannot read the sessions folder ${dir}. Give a folder of .jsonl sessions with --sessions.`, 'usage');
  }
  const files = names.filter((f) => f.endsWith('.jsonl')).sort().map((f) => join(dir, f));
  if (files.length === 0) throw new StrataError(`No .jsonl sessions in ${dir}. Give a folder of sessions with --sessions.`, 'usage');
  return files.map((f) => ({ name: basename(f, '.jsonl'), session: readSessionFile(f) }));
}

function report(args: BenchArgs, runs: WindowRun[], summaries: WindowSummary[], scaling: ScalePoint[], out: (line: string) => void): void {
  out('cost units: input 1, cache write 1.25, cache read 0.1, output 5; cost and span recall pooled over every session');
  for (const summary of summaries) {
    out('');
    for (const line of formatWindow(summary)) out(line);
  }
  out('');
  out(`verdicts: ${summaries.map((s) => `@${s.window} ${s.verdict.dominates ? 'dominates' : 'does not dominate'}`).join(', ')}`);
  if (scaling.length) {
    out('');
    out(`scaling (window ${Math.max(...args.windows)}):`);
    out(formatScaling(scaling));
  }
  if (args.json) {
    writeFileSync(args.json, `${JSON.stringify(sweepJson(summaries, scaling), null, 2)}\n`);
    out(`\nwrote ${args.json}`);
  }
  if (args.plot) {
    writeFileSync(args.plot, frontierSvg(summaries.map((s) => ({ window: s.window, points: s.pooled.map((r) => ({ strategy: r.strategy, cost: r.costVsFull, span: r.spanRecall, fits: r.overWindow === 0 })) }))));
    out(`wrote ${args.plot} (frontier, ${summaries.length} windows)`);
  }
  if (args.sessionPlot) {
    const run = runs.reduce((a, b) => (b.window < a.window ? b : a));
    const chosen = run.perSession.find((s) => s.name === args.plotSession) ?? run.perSession.reduce((a, b) => (b.results.full.requests > a.results.full.requests ? b : a));
    writeFileSync(args.sessionPlot, plotSvg(`${chosen.name}, window ${run.window}`, STRATEGY_NAMES.map((s) => ({ name: s, totals: chosen.results[s] }))));
    out(`wrote ${args.sessionPlot} (${chosen.name}, window ${run.window})`);
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
