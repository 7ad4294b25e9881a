import type { MessagesRequest } from '../shared/messages';
import { blockText } from './blockTokens';
import type { EngineState } from './engineState';
import type { Summarizer } from './ports';
import { DEFAULT_CONDENSE_PROMPT } from './protocolText';
import { rebuildArchive } from './relayer';

/** A condense call as it went out, for the replay dump and the cost ledger. */
export interface CondenseCall {
  request: MessagesRequest;
  inputTokens: number;
  outputTokens: number;
}

export type CondenseOutcome =
  | { ok: true; call: CondenseCall; throughSeq: number }
  | { ok: false; call?: CondenseCall; error: string };

/** Exchanges kept in full after a condense (Roo/Kilo keep the last 3 messages; we keep whole exchanges). */
const KEEP_AFTER_CONDENSE = 2;

/**
 * Condenses <strata_context> and all of working memory but the last exchanges into one summary
 * through the Summarizer port. The result replaces L3 (headers stay). It is discarded, and the
 * state left as it was, unless the summary is smaller than the text it replaces and the whole
 * prompt (`promptTokens`, measured on the state) shrinks: in full mode a short history can grow
 * once headers, file views and the narrative join the summary. Condensed exchanges stay in the
 * archive, tagged.
 */
export async function condense(state: EngineState, summarizer: Summarizer, promptTokens: () => number, signal?: AbortSignal): Promise<CondenseOutcome> {
  const count = (s: string) => state.tokenizer.count(s);
  const input = condenseInput(state);
  if (!input) return { ok: false, error: NOTHING_TO_CONDENSE };
  const { leaving, text, replacedTokens, maxOutputTokens } = input;
  const prompt = state.settings.condensePrompt ?? DEFAULT_CONDENSE_PROMPT;
  const request: MessagesRequest = {
    system: [{ type: 'text', text: prompt }],
    messages: [{ role: 'user', content: [{ type: 'text', text: `${text}\n\nWrite the summary in at most ${maxOutputTokens} tokens.` }] }],
    tools: [],
  };
  let result;
  try {
    result = await summarizer.summarize({ request, maxOutputTokens }, signal);
  } catch (error) {
    return { ok: false, error: `Condensing failed: ${error instanceof Error ? error.message : String(error)}. The conversation was kept as it was.` };
  }
  const call: CondenseCall = { request, inputTokens: result.inputTokens, outputTokens: result.outputTokens };
  if (count(result.text) >= replacedTokens) {
    return { ok: false, call, error: `Condensing produced ${count(result.text)} tokens from ${replacedTokens}; the summary was discarded and the conversation kept as it was.` };
  }
  const before = promptTokens();
  const saved = condensedFields(state);
  const throughSeq = applySummary(state, leaving, result.text.trim());
  const after = promptTokens();
  if (after >= before) {
    Object.assign(state, saved);
    return { ok: false, call, error: `Condensing would have made the prompt ${after} tokens instead of ${before} (too little history to condense yet); the summary was discarded and the conversation kept as it was.` };
  }
  return { ok: true, call, throughSeq };
}

const NOTHING_TO_CONDENSE = 'Nothing to condense yet: the conversation is all in working memory.';

/** What a condense would summarise: the exchanges leaving working memory and the text sent for them (tokens). */
function condenseInput(state: EngineState): { leaving: EngineState['tail']; text: string; replacedTokens: number; maxOutputTokens: number } | undefined {
  const keep = Math.min(KEEP_AFTER_CONDENSE, state.tail.length);
  const leaving = state.tail.slice(0, state.tail.length - keep);
  if (leaving.length === 0 && !state.archiveText) return undefined;
  const parts: string[] = [];
  if (state.condensed) parts.push(`Earlier summary (e1-e${state.condensed.throughSeq}):\n${state.condensed.text}`);
  for (const seq of [...state.summaries.keys()].sort((a, b) => a - b)) {
    if (seq <= state.foldedThrough && (!state.condensed || seq > state.condensed.throughSeq)) parts.push(state.summaries.get(seq)!);
  }
  for (const ex of leaving) {
    const text = [...ex.input, ...(ex.output ?? [])].map(blockText).join('\n');
    parts.push(`e${ex.seq}:\n${text}`);
  }
  const text = parts.join('\n\n');
  const replacedTokens = state.tokenizer.count(text);
  return { leaving, text, replacedTokens, maxOutputTokens: Math.max(200, Math.min(4_000, Math.floor(replacedTokens / 4))) };
}

/** Puts `summary` in place of the leaving exchanges (L3 rebuilt); returns the seq it covers through. */
function applySummary(state: EngineState, leaving: EngineState['tail'], summary: string): number {
  const throughSeq = leaving.length > 0 ? leaving[leaving.length - 1]!.seq : state.foldedThrough;
  state.condensed = { throughSeq, text: summary };
  state.tail = state.tail.slice(leaving.length);
  state.foldedThrough = Math.max(state.foldedThrough, throughSeq);
  state.mode = 'layered';
  rebuildArchive(state);
  return throughSeq;
}

/** What a condense would save, before paying for it: prompt tokens now and after, with the summary at its cap. */
export interface CondenseEstimate {
  /** Prompt tokens as the next prompt stands (tokens). */
  before: number;
  /** Prompt tokens with the summary as long as the call may write it (tokens): the least saving. */
  after: number;
  /** `before - after`, 0 when it would not shrink (tokens). */
  saved: number;
}

/**
 * Estimates a condense without calling the model: the leaving exchanges are replaced by an
 * empty summary, the prompt measured, the state put back, and the summary's cap (the most the
 * call may write) added. Undefined when there is nothing to condense.
 */
export function estimateCondense(state: EngineState, promptTokens: () => number): CondenseEstimate | undefined {
  const input = condenseInput(state);
  if (!input) return undefined;
  const before = promptTokens();
  const saved = condensedFields(state);
  applySummary(state, input.leaving, '');
  const after = promptTokens() + input.maxOutputTokens;
  Object.assign(state, saved);
  return { before, after, saved: Math.max(0, before - after) };
}

/** What condense() changes in the state (rebuildArchive also drops old summaries), to put back. */
function condensedFields(state: EngineState): Pick<EngineState, 'condensed' | 'tail' | 'foldedThrough' | 'mode' | 'archiveParts' | 'archiveText' | 'summaries'> {
  return { condensed: state.condensed, tail: state.tail, foldedThrough: state.foldedThrough, mode: state.mode, archiveParts: state.archiveParts, archiveText: state.archiveText, summaries: new Map(state.summaries) };
}

/**
 * Sliding-window fallback: drops the older half of working memory (whole exchanges, so an
 * even number of messages) from the prompt; the task stays first, headers stay, the archive
 * keeps everything. Returns how many exchanges left the prompt.
 */
export function slideWindow(state: EngineState): number {
  const drop = Math.max(1, Math.floor(state.tail.length / 2));
  if (state.tail.length === 0) return 0;
  const dropped = state.tail.slice(0, drop);
  state.tail = state.tail.slice(drop);
  state.foldedThrough = dropped[dropped.length - 1]!.seq;
  state.mode = 'layered';
  rebuildArchive(state);
  return dropped.length;
}
