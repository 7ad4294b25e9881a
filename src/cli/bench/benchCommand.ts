import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { ContextPreset, EngineSettings } from '../../shared/engineSettings';
import { CONTEXT_PRESET_NAMES } from '../../shared/engineSettings';
import type { ParsedSession } from '../../shared/sessionSchema';
import { openSqliteArchive } from '../../adapters/sqliteArchiveStore';
import { readSessionFile } from '../../adapters/sessionFileReader';
import { createTiktokenTokenizer } from '../../adapters/tiktokenTokenizer';
import { makeTempDir } from '../../adapters/tempFiles';
import { stderrLogger } from '../../adapters/streamLogger';
import { StrataError } from '../../engine/ports';
import { benchSession, benchStrata, STRATEGY_NAMES } from './benchSession';
import type { PresetPoint } from './presetTable';
import { formatPresetTable, presetPoint } from './presetTable';
import { buildDays } from './daySessions';
import type { LongWindowSummary } from './longPanel';
import { formatLongWindow, summarizeLongWindow } from './longPanel';
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
  /** Context windows of the sweep on `sessions`, tokens, in report order; empty: no short panel. */
  windows: number[];
  /** Engine settings at one window, built exactly as `--window` builds them (validated before the run). */
  settingsAt: (window: number) => EngineSettings;
  /**
   * The long-session panel: the sessions of `sessions` (a folder of sessions longer than the
   * window) and the day sessions built from `BenchArgs.sessions`, at each of `windows`.
   */
  long?: { sessions: string; windows: number[] };
  json?: string;
  /** The frontier plot: cost against span recall, one panel per window (and per long window). */
  plot?: string;
  /** The per-session plot (prompt tokens and cost per turn) at the smallest window. */
  sessionPlot?: string;
  plotSession?: string;
  scale: number[];
  /** Also run Strata alone under every other `contextPreset` at every window of both panels (the rivals once). */
  presets?: boolean;
}

/** What a bench run found: the sweep's windows, then the long panel's (empty when not run). */
export interface BenchOutcome {
  summaries: WindowSummary[];
  long: LongWindowSummary[];
  /** Strata's point per preset, panel and window (empty without `presets`). */
  presets: PresetPoint[];
}

type NamedSession = { name: string; session: ParsedSession };

/**
 * `strata bench`: every strategy on every session at each window of the sweep in one run; per
 * window the table, the verdict and the moonshot; then the long-session panel; then the scaling
 * check; optionally every figure as JSON, the frontier plot and one session's plot.
 */
export async function runBench(args: BenchArgs, out: (line: string) => void): Promise<BenchOutcome> {
  for (const [flag, path] of [['--json', args.json], ['--plot', args.plot], ['--session-plot', args.sessionPlot]] as const) {
    if (path !== undefined && !existsSync(dirname(resolve(path)))) throw new StrataError(`${flag}: the folder of ${path} does not exist; create it or give another path.`, 'usage');
  }
  const sessions = loadSessions(args.sessions);
  if (args.plotSession !== undefined && !sessions.some((s) => s.name === args.plotSession)) {
    throw new StrataError(`--plot-session: no session named '${args.plotSession}' in ${args.sessions}; give one of: ${sessions.map((s) => s.name).join(', ')}.`, 'usage');
  }
  const days = args.long ? buildDays(sessions) : { days: [], missing: [] };
  const longSessions = args.long ? [...loadSessions(args.long.sessions, '--long-sessions'), ...days.days] : [];
  const longWindows = args.long?.windows ?? [];
  const tokenizer = createTiktokenTokenizer();
  const logger = stderrLogger();
  const temp = makeTempDir('strata-bench-');
  const answers = (list: NamedSession[]) => list.reduce((n, s) => n + s.session.messages.filter((m) => m.role === 'assistant').length * STRATEGY_NAMES.length, 0);
  const ownPreset = (w: number) => args.settingsAt(w).contextPreset;
  const otherPresets = (w: number) => (args.presets ? CONTEXT_PRESET_NAMES.filter((p) => p !== ownPreset(w)) : []);
  const strataAnswers = (list: NamedSession[], windows: number[]) => windows.reduce((n, w) => n + (answers(list) / STRATEGY_NAMES.length) * otherPresets(w).length, 0);
  const total = answers(sessions) * args.windows.length + answers(longSessions) * longWindows.length + strataAnswers(sessions, args.windows) + strataAnswers(longSessions, longWindows);
  const progress = new ProgressBar(total + args.scale.reduce((a, b) => a + b, 0), 'bench');
  try {
    let n = 0;
    const sweep = async (list: NamedSession[], windows: number[]): Promise<WindowRun[]> => {
      const runs: WindowRun[] = [];
      for (const window of windows) {
        const settings = args.settingsAt(window);
        const perSession: WindowRun['perSession'] = [];
        for (const { name, session } of list) {
          const results = await benchSession(session, name, settings, { tokenizer, logger, openArchive: () => openSqliteArchive(join(temp.dir, `s${n++}.sqlite`), TEMP_ARCHIVE) }, () => progress.tick());
          perSession.push({ name, results });
        }
        runs.push({ window, settings, perSession });
      }
      return runs;
    };
    const runs = await sweep(sessions, args.windows);
    const longRuns = await sweep(longSessions, longWindows);
    const presets: PresetPoint[] = [];
    const presetSweep = async (panel: PresetPoint['panel'], list: NamedSession[], panelRuns: WindowRun[]): Promise<void> => {
      for (const run of panelRuns) {
        const own = run.perSession.map((s) => s.results.strata);
        const byPreset = new Map<ContextPreset, typeof own>([[run.settings.contextPreset, own]]);
        for (const preset of otherPresets(run.window)) {
          const settings = { ...run.settings, contextPreset: preset };
          const totals = [];
          for (const { name, session } of list) {
            totals.push(await benchStrata(session, name, settings, { tokenizer, logger, openArchive: () => openSqliteArchive(join(temp.dir, `s${n++}.sqlite`), TEMP_ARCHIVE) }, () => progress.tick()));
          }
          byPreset.set(preset, totals);
        }
        for (const preset of CONTEXT_PRESET_NAMES) {
          const totals = byPreset.get(preset);
          if (totals) presets.push(presetPoint(panel, run, preset, totals));
        }
      }
    };
    if (args.presets) {
      await presetSweep('short', sessions, runs);
      await presetSweep('long', longSessions, longRuns);
    }
    const scaling: ScalePoint[] = [];
    const scaleSettings = args.settingsAt(Math.max(...args.windows, ...longWindows));
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
    const outcome = { summaries: runs.map(summarizeWindow), long: longRuns.map(summarizeLongWindow), presets };
    report(args, runs, outcome, days.missing, scaling, out);
    return outcome;
  } finally {
    temp.remove();
  }
}

/** The sessions of a folder, by name; `flag` is the option that names the folder, for the error. */
function loadSessions(dir: string, flag = '--sessions'): NamedSession[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    throw new StrataError(`Cannot read the sessions folder ${dir}. Give a folder of .jsonl sessions with ${flag}.`, 'usage');
  }
  const files = names.filter((f) => f.endsWith('.jsonl')).sort().map((f) => join(dir, f));
  if (files.length === 0) throw new StrataError(`No .jsonl sessions in ${dir}. Give a folder of sessions with ${flag}.`, 'usage');
  return files.map((f) => ({ name: basename(f, '.jsonl'), session: readSessionFile(f) }));
}

function report(args: BenchArgs, runs: WindowRun[], outcome: BenchOutcome, missingDays: string[], scaling: ScalePoint[], out: (line: string) => void): void {
  const { summaries, long } = outcome;
  out('cost units: input 1, cache write 1.25, cache read 0.1, output 5; cost and span recall pooled over every session');
  for (const summary of summaries) {
    out('');
    for (const line of formatWindow(summary)) out(line);
  }
  if (summaries.length) {
    out('');
    out(`verdicts: ${summaries.map((s) => `@${s.window} ${s.verdict.dominates ? 'dominates' : 'does not dominate'}`).join(', ')}`);
  }
  if (args.long) {
    out('');
    out(`long-session panel: ${args.long.sessions} and the day sessions built from ${args.sessions}${missingDays.length ? ` (not built: ${missingDays.join(', ')})` : ''}`);
    for (const summary of long) {
      out('');
      for (const line of formatLongWindow(summary)) out(line);
    }
    out('');
    out(`long verdicts: ${long.map((s) => `@${s.window} ${s.verdict.met ? 'meets the goal' : 'misses the goal'}`).join(', ')}`);
  }
  if (outcome.presets.length) {
    out('');
    for (const line of formatPresetTable(outcome.presets, args.settingsAt(outcome.presets[0]!.window).contextPreset)) out(line);
  }
  if (scaling.length) {
    out('');
    out(`scaling (window ${Math.max(...args.windows, ...(args.long?.windows ?? []))}):`);
    out(formatScaling(scaling));
  }
  if (args.json) {
    writeFileSync(args.json, `${JSON.stringify(sweepJson(summaries, scaling, args.long ? long : undefined, outcome.presets), null, 2)}\n`);
    out(`\nwrote ${args.json}`);
  }
  if (args.plot) {
    const points = (s: WindowSummary | LongWindowSummary) => s.pooled.map((r) => ({ strategy: r.strategy, cost: r.costVsFull, span: r.spanRecall, fits: r.overWindow === 0 }));
    const panels = [...summaries.map((s) => ({ window: s.window, points: points(s) })), ...long.map((s) => ({ window: s.window, title: `long sessions, window ${s.window.toLocaleString('en-US')} tokens`, points: points(s) }))];
    writeFileSync(args.plot, frontierSvg(panels));
    out(`wrote ${args.plot} (frontier, ${summaries.length} windows${long.length ? ` and ${long.length} long-session windows` : ''})`);
  }
  if (args.sessionPlot && runs.length) {
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
