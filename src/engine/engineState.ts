import type { ContentBlock, TextBlock, ToolDefinition } from '../shared/messages';
import type { EngineSettings } from '../shared/engineSettings';
import type { ArchiveBlockParts, HeaderRecord } from './archiveBlock';
import { HeaderLines } from './archiveBlock';
import type { LiveExchange } from './liveExchange';
import type { Narrative } from './narrative';
import type { Tokenizer } from './ports';
import { ReferenceIndex } from './referenceIndex';
import { FileViews } from './fileViews';

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
  pending?: LiveExchange;
  /** Exchanges 1..foldedThrough are represented only by L2/L3/L4 (and the archive). */
  foldedThrough: number;
  mode: 'full' | 'layered';
  pressure: Pressure;
  /** Header of every completed exchange; index = seq - 1. */
  headers: HeaderRecord[];
  headerLines: HeaderLines;
  /** Summaries of recent exchanges, by seq; older ones are dropped here (kept in the archive). */
  summaries: Map<number, string>;
  index: ReferenceIndex;
  /** tool_use ids whose output working memory already shows as a pointer. */
  maskedOutputs: Set<string>;
  /** The latest view of each file read, for the files section of <strata_context>. */
  fileViews: FileViews;
  narrative: Narrative;
  condensed?: { throughSeq: number; text: string };
  /** The <strata_context> parts and text as of the last re-layering step. */
  archiveParts?: ArchiveBlockParts;
  archiveText?: string;
}

export function newEngineState(settings: EngineSettings, tokenizer: Tokenizer, system: TextBlock[], tools: ToolDefinition[], narrative: Narrative): EngineState {
  return {
    settings,
    tokenizer,
    system,
    tools,
    tail: [],
    foldedThrough: 0,
    mode: 'full',
    pressure: 0,
    headers: [],
    headerLines: new HeaderLines(),
    summaries: new Map(),
    index: new ReferenceIndex(),
    fileViews: new FileViews(),
    maskedOutputs: new Set(),
    narrative,
  };
}

/** The prompt budget in force (the high watermark), tokens: a share of (window - reserve), capped by the absolute setting. */
export function effectiveBudget(settings: EngineSettings): number {
  const room = settings.contextWindow - settings.reservedOutputTokens;
  const share = Math.floor((settings.promptBudgetPercent / 100) * room);
  return Math.min(settings.promptBudgetTokens, share, room);
}

/** Where a re-layering step brings the prompt down to, tokens. */
export function lowWatermark(settings: EngineSettings): number {
  return Math.floor((settings.lowWatermarkPercent / 100) * effectiveBudget(settings));
}
