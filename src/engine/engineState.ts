import type { ContentBlock, TextBlock, ToolDefinition } from '../shared/messages';
import type { EngineSettings } from '../shared/engineSettings';
import type { ArchiveBlockParts, HeaderRecord } from './archiveBlock';
import { HeaderLines } from './archiveBlock';
import type { FileReadShown, LiveExchange } from './liveExchange';
import type { Narrative } from './narrative';
import type { Tokenizer } from './ports';
import { ReferenceIndex } from './referenceIndex';
import { FileViews, samePath } from './fileViews';
import { sessionGrowth } from './contextPreset';
import type { PathKey } from './fileViews';

/** How hard the last re-layering step had to squeeze to fit the budget (0 = not at all). */
export type Pressure = 0 | 1 | 2 | 3 | 4 | 5;

/**
 * Everything the engine knows about a session, shared by the assembly modules. Only the
 * tail (working memory) holds whole exchanges; older ones live in the archive.
 */
export interface EngineState {
  settings: EngineSettings;
  tokenizer: Tokenizer;
  system: TextBlock[];
  tools: ToolDefinition[];
  /** Exchange 1's input, the user's task, rendered: always the first thing sent. */
  task?: ContentBlock[];
  /** Completed exchanges with seq > foldedThrough, oldest first. */
  tail: LiveExchange[];
  /** Tokens of every completed exchange as working memory took it in (input + answer): how far the session has grown. */
  historyTokens: number;
  /** Tokens of the largest file the session has read whole: the budget grows to hold it (`sessionBudget`). */
  largestFileRead: number;
  /** The budget has grown past the base and working memory took back what the base had folded (`restoreOnGrowth`). */
  grownRestored: boolean;
  /**
   * Files read whole that the settings' base could not hold whole (over `wholeFileShare` of it), by
   * path key: tokens of the latest whole read. Replaced, never changed in place (checkpoints share it).
   */
  largeFileReads: Readonly<Record<string, number>>;
  pending?: LiveExchange;
  /** Exchanges 1..foldedThrough are represented only by L2/L3/L4 (and the archive). */
  foldedThrough: number;
  mode: 'full' | 'layered';
  pressure: Pressure;
  /**
   * Header of every completed exchange still in the conversation; index = seq - 1. Superseded
   * exchanges (an edited and resent message) leave holes (undefined): read it through `activeHeaders`.
   */
  headers: Array<HeaderRecord | undefined>;
  headerLines: HeaderLines;
  /** Summaries of recent exchanges, by seq; older ones are dropped here (kept in the archive). */
  summaries: Map<number, string>;
  index: ReferenceIndex;
  /** The latest view of each file read, for the files section of <strata_context>. */
  fileViews: FileViews;
  /** How file paths are compared (reads, edits, changes on disk): relative to the workspace root when one is known. */
  pathKey: PathKey;
  narrative: Narrative;
  condensed?: { throughSeq: number; text: string };
  /** The <strata_context> parts and text as of the last re-layering step. */
  archiveParts?: ArchiveBlockParts;
  archiveText?: string;
}

export function newEngineState(settings: EngineSettings, tokenizer: Tokenizer, system: TextBlock[], tools: ToolDefinition[], narrative: Narrative, pathKey: PathKey = samePath): EngineState {
  return {
    settings,
    tokenizer,
    system,
    tools,
    tail: [],
    historyTokens: 0,
    largestFileRead: 0,
    grownRestored: false,
    largeFileReads: {},
    foldedThrough: 0,
    mode: 'full',
    pressure: 0,
    headers: [],
    headerLines: new HeaderLines(),
    summaries: new Map(),
    index: new ReferenceIndex(),
    fileViews: new FileViews(pathKey),
    pathKey,
    narrative,
  };
}

/** Headers of the exchanges 1..throughSeq still in the conversation, oldest first (holes skipped). */
export function activeHeaders(state: EngineState, throughSeq = state.headers.length): HeaderRecord[] {
  return state.headers.slice(0, throughSeq).filter((h): h is HeaderRecord => h !== undefined);
}

/** Back to a session with no exchanges (settings, tokenizer, system and tools kept). */
export function resetEngineState(state: EngineState, narrative: Narrative): void {
  const fresh = newEngineState(state.settings, state.tokenizer, state.system, state.tools, narrative, state.pathKey);
  delete state.task;
  delete state.pending;
  delete state.condensed;
  delete state.archiveParts;
  delete state.archiveText;
  Object.assign(state, fresh);
}

/** The prompt budget in force (the high watermark), tokens: a share of (window - reserve), capped by the absolute setting. */
export function effectiveBudget(settings: EngineSettings): number {
  const room = settings.contextWindow - settings.reservedOutputTokens;
  const share = Math.floor((settings.promptBudgetPercent / 100) * room);
  return Math.min(settings.promptBudgetTokens, share, room);
}

/** The prompt size past which the engine condenses (`autoCondensePercent` of window - reserve), tokens; negative when the reserve exceeds the window. */
export function autoCondenseAt(settings: EngineSettings): number {
  return Math.floor((settings.autoCondensePercent / 100) * (settings.contextWindow - settings.reservedOutputTokens));
}

/** Where a re-layering step brings the prompt down to at the base budget, tokens. */
export function lowWatermark(settings: EngineSettings): number {
  return Math.floor((settings.lowWatermarkPercent / 100) * effectiveBudget(settings));
}

/**
 * How the budget follows the session (issue 19). While the history is short the base budget
 * (`effectiveBudget`) holds; once the session passes `growsPast` times it (or from the start,
 * once it has read whole a file the base could not hold: `largeFileReads`), the high watermark
 * follows the history (`historyShare` of it, as far as `promptBudgetPercent` of the window allows),
 * and the low watermark rises from `lowWatermarkPercent` towards `grownLowPercent` of it (reached at
 * twice the base), so a long session keeps much more of its recent past verbatim. The preset
 * (`strata.contextPreset`, contextPreset.ts) sets these three. Outputs are cut on arrival at
 * `codeMaxLines`/`outputMaxLines` times that growth, and a file read that fits `wholeFileShare` of
 * the budget is never cut (at any budget: it is the file the agent is about to edit).
 */
export const SESSION_GROWTH = { wholeFileShare: 0.25 } as const;

/** The session so far: completed exchanges and the pending input, tokens. */
function sessionTokens(state: Pick<EngineState, 'historyTokens' | 'pending'>): number {
  return state.historyTokens + (state.pending?.inputTokens ?? 0);
}

type GrowthState = Pick<EngineState, 'settings' | 'historyTokens' | 'pending' | 'largestFileRead' | 'largeFileReads'>;

/**
 * The session's base budget, tokens: `effectiveBudget`, raised (as far as `growthCap`, under a preset
 * that `holdsLargestRead`) so that the largest file read whole fits `wholeFileShare` of it. A base too small for the file the agent reads
 * whole cuts it on arrival, and the lines it quotes from it later are lost whatever the layers keep.
 */
export function sessionBase(state: Pick<EngineState, 'settings' | 'largestFileRead'>): number {
  const base = effectiveBudget(state.settings);
  if (!sessionGrowth(state.settings).holdsLargestRead) return base;
  return Math.max(base, Math.min(growthCap(state.settings), Math.ceil(state.largestFileRead / SESSION_GROWTH.wholeFileShare)));
}

/** Tokens of the files read whole that the settings' base could not hold (`largeFileReads`). */
function largeReadTokens(state: Pick<EngineState, 'largeFileReads'>): number {
  return Object.values(state.largeFileReads).reduce((sum, tokens) => sum + tokens, 0);
}

/**
 * Room for the file views, tokens: their share of the base (`layerBudgets`), plus `fileViewGrowth`,
 * so that once a large file's read is folded its view still shows it whole beside the other
 * files' views (in their share alone it would crowd them out, or not fit).
 */
export function fileViewRoom(state: ViewGrowthState): number {
  return layerBudgets(state.settings).fileViewTokens + fileViewGrowth(state);
}

type ViewGrowthState = Pick<EngineState, 'settings' | 'largestFileRead' | 'largeFileReads'>;

/**
 * How far the views grow past their share, tokens: when the base grew to hold a large file, every
 * file read whole that the settings' base could not hold (`largeFileReads`; a session may read two
 * or more, as pi-opus45 reads main.ts and tui-renderer.ts), else nothing. A step counts it outside
 * its watermarks (budgetFit.ts): views that fill the low watermark would squeeze it to pressure 3,
 * which sends no views at all.
 */
export function fileViewGrowth(state: ViewGrowthState): number {
  if (sessionBase(state) <= effectiveBudget(state.settings)) return 0;
  return largeReadTokens(state);
}

/**
 * Records what file reads showed: the largest output (`largestFileRead`), and the files shown whole
 * that the settings' base could not hold whole (`largeFileReads`).
 */
export function noteFileReads(state: Pick<EngineState, 'settings' | 'pathKey' | 'largestFileRead' | 'largeFileReads'>, reads: readonly FileReadShown[]): void {
  const large = SESSION_GROWTH.wholeFileShare * effectiveBudget(state.settings);
  for (const { path, tokens, whole } of reads) {
    state.largestFileRead = Math.max(state.largestFileRead, tokens);
    if (!whole) continue;
    const key = state.pathKey(path);
    if (tokens > large) state.largeFileReads = { ...state.largeFileReads, [key]: tokens };
    else if (key in state.largeFileReads) {
      // read whole again at a size the base holds: its view fits the views' own share
      const { [key]: _dropped, ...rest } = state.largeFileReads;
      state.largeFileReads = rest;
    }
  }
}

/** The prompt budget in force for this session now (the high watermark), tokens. */
export function sessionBudget(state: GrowthState): number {
  const s = state.settings;
  const base = sessionBase(state);
  const growth = sessionGrowth(s);
  const session = sessionTokens(state);
  // A file read whole that the settings' base could not hold marks a session on large files, whose
  // edits quote it 50-300 exchanges on: it grows from the start, as full-recall does (no short
  // session of the bench reads one; pi-opus45 and pi-sonnet45 do on their first turns, issue 19).
  // Its first 95k tokens were otherwise folded at the base and quoted later.
  const long = session > growth.growsPast * effectiveBudget(s) || largeReadTokens(state) > 0;
  if (!long) return base;
  return Math.max(base, Math.min(growthCap(s), Math.floor(growth.historyShare * session)));
}

/** As far as a budget may grow: `promptBudgetPercent` of (window - reserve), tokens. */
export function growthCap(s: EngineSettings): number {
  return Math.floor((s.promptBudgetPercent / 100) * (s.contextWindow - s.reservedOutputTokens));
}

/**
 * The budget outputs are cut against on arrival, tokens: the session's, or under a preset that
 * `cutsAtWindow` the most it may grow to (a cut on arrival is never undone).
 */
export function arrivalBudget(state: GrowthState): number {
  const budget = sessionBudget(state);
  return sessionGrowth(state.settings).cutsAtWindow ? Math.max(budget, growthCap(state.settings)) : budget;
}

/**
 * How outputs are cut on arrival now: `codeMaxLines`/`outputMaxLines` times the growth of the
 * arrival budget over the base, and a file read that fits `wholeFileShare` of it kept whole.
 */
export function arrivalLimits(state: GrowthState & Pick<EngineState, 'tokenizer'>): { codeMaxLines: number; outputMaxLines: number; fileFits: (text: string) => boolean } {
  const s = state.settings;
  const budget = arrivalBudget(state);
  const grown = budget / effectiveBudget(s);
  return {
    codeMaxLines: Math.floor(s.codeMaxLines * grown),
    outputMaxLines: Math.floor(s.outputMaxLines * grown),
    fileFits: (text) => state.tokenizer.count(text) <= SESSION_GROWTH.wholeFileShare * budget,
  };
}

/** Where a re-layering step brings the prompt down to now, tokens (see SESSION_GROWTH). */
export function sessionLowWatermark(state: GrowthState): number {
  const s = state.settings;
  const base = sessionBase(state);
  const budget = sessionBudget(state);
  if (budget <= base) return Math.floor((s.lowWatermarkPercent / 100) * base);
  const grown = Math.min(1, (budget - base) / base);
  const percent = s.lowWatermarkPercent + grown * Math.max(0, sessionGrowth(s).grownLowPercent - s.lowWatermarkPercent);
  return Math.floor((percent / 100) * budget);
}

/**
 * Most of the prompt budget each part of <strata_context> and L0 may take, percent. Every part
 * scales with the budget (a fixed size would crowd out working memory at a small budget and
 * waste a large one); the token settings (maxHeaders x headerMaxTokens, summaryCount x
 * summaryMaxTokens, indexMaxTokens, narrativeMaxTokens) cap them too.
 */
export const LAYER_SHARES = { headers: 8, summaries: 10, index: 2, narrative: 1 } as const;

/** What each layer may use at the budget in force, tokens (counts for headers and summaries). */
export interface LayerBudgets {
  maxHeaders: number;
  headerTokens: number;
  summaryCount: number;
  indexTokens: number;
  fileViewTokens: number;
  narrativeTokens: number;
}

export function layerBudgets(s: EngineSettings): LayerBudgets {
  const budget = effectiveBudget(s);
  const share = (percent: number) => Math.floor((percent / 100) * budget);
  const headerTokens = Math.min(s.maxHeaders * s.headerMaxTokens, share(LAYER_SHARES.headers));
  return {
    maxHeaders: Math.min(s.maxHeaders, Math.max(10, Math.floor(headerTokens / s.headerMaxTokens))),
    headerTokens,
    summaryCount: Math.min(s.summaryCount, Math.floor(share(LAYER_SHARES.summaries) / s.summaryMaxTokens)),
    indexTokens: Math.min(s.indexMaxTokens, share(LAYER_SHARES.index)),
    fileViewTokens: share(s.fileViewPercent),
    narrativeTokens: Math.min(s.narrativeMaxTokens, Math.max(50, share(LAYER_SHARES.narrative))),
  };
}
