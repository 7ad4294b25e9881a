import type { EngineSettings } from '../shared/engineSettings';
import type { ContentBlock } from '../shared/messages';
import { toolResultText } from '../shared/messages';
import type { EngineEvent } from './engineEvents';
import { fileViewGrowth, layerBudgets, sessionLowWatermark } from './engineState';
import type { EngineState, Pressure } from './engineState';
import type { LiveExchange } from './liveExchange';
import { contentTokens } from './blockTokens';
import { maskableOutputTokens, maskCommandOutputs } from './outputMasking';
import { morePressure, relayer } from './relayer';
import { buildTurn } from './requestLayout';
import type { BuiltTurn } from './requestLayout';
import { trimToTokens } from './text/trimToBudget';

/**
 * Brings the pending turn under `budget` by layering alone (no model call), recording a
 * `relayer` or `outputs_masked` event in `events` for each change. A layered session whose
 * working memory passed its maximum takes a step first; a prompt over the budget takes one, then
 * ever more pressure. The result may still be over the budget: the caller condenses, then cuts
 * the input.
 */
export function layerToFit(state: EngineState, budget: number, turn: number, events: EngineEvent[]): BuiltTurn {
  const s = state.settings;
  const low = sessionLowWatermark(state);
  let built = buildTurn(state);
  /** The event of a re-layering at `pressure`, taken once it is done: where working memory now starts. */
  const relayered = (pressure: Pressure, masked: number) => events.push({ type: 'relayer', turn, foldedThrough: state.foldedThrough, pressure, masked });
  /**
   * One step: the oldest exchanges go down until the prompt is under the low watermark. It is
   * taken at pressure 0 whenever that leaves at least half the gap between the watermarks free;
   * only a floor too high for that (a tiny budget) squeezes harder, and only for this step.
   */
  const step = (keepAtMost = Infinity) => {
    // views grown past their share for large files are not working memory: the marks leave them room
    const roomy = Math.floor((low + budget) / 2) + fileViewGrowth(state);
    let after = built;
    for (let pressure: Pressure | undefined = 0; pressure !== undefined; pressure = morePressure(pressure)) {
      const min = keepFor(pressure, s);
      state.pressure = pressure;
      let masked = relayer(state, Math.min(keepAtMost, keepUnder(state, low, min)));
      after = buildTurn(state);
      // The first step adds <strata_context>; hand down more if that pushed the prompt back over the mark.
      for (let again = 0; again < 3 && after.tokens > low && state.tail.length > min; again++) {
        masked += relayer(state, keepUnder(state, low, min));
        after = buildTurn(state);
      }
      relayered(pressure, masked);
      if (after.tokens <= roomy) break;
    }
    return after;
  };

  if (state.mode === 'layered' && state.tail.length > s.workingMemoryMax) built = step(s.workingMemoryMin);
  if (s.outputMaskTokens > 0 && maskableOutputTokens(state, s.outputMaskKeepRecent) >= s.outputMaskTokens) {
    const masked = maskCommandOutputs(state, s.outputMaskKeepRecent);
    const after = buildTurn(state);
    events.push({ type: 'outputs_masked', turn, masked, tokensBefore: built.tokens, tokensAfter: after.tokens });
    built = after;
  }
  if (built.tokens > budget) built = step();
  while (built.tokens > budget) {
    let pressure: Pressure | undefined = state.pressure;
    // More pressure only once this one's working memory is down to its minimum.
    if (state.mode !== 'layered' || state.tail.length <= keepFor(pressure, s)) pressure = morePressure(pressure);
    if (pressure === undefined) break;
    state.pressure = pressure;
    relayered(pressure, relayer(state, keepFor(pressure, s)));
    built = buildTurn(state);
  }
  return built;
}

/** Exchanges working memory keeps after a re-layering step at this pressure. */
function keepFor(pressure: Pressure, s: EngineSettings): number {
  return pressure >= 5 ? 0 : pressure >= 2 ? 1 : s.workingMemoryMin;
}

/**
 * How many of the newest exchanges working memory can keep (at least `min`) so that the prompt
 * falls under `target` tokens, estimated from each exchange's rendered size.
 */
function keepUnder(state: EngineState, target: number, min: number): number {
  const tail = state.tail;
  let tokens = buildTurn(state).tokens;
  let keep = tail.length;
  while (keep > min && tokens > target) {
    const ex = tail[tail.length - keep]!;
    tokens -= ex.inputTokens + ex.outputTokens;
    keep -= 1;
  }
  return Math.min(tail.length, keep);
}

/** A derived summary this close to its cap was cut to fit: the model's own is worth asking for. */
const LOSSY_SUMMARY_SHARE = 0.9;

/**
 * Exchanges the next re-layering step will hand down to L3, when the prompt (`tokens` now) is
 * likely to pass the budget next turn, judged by the size of the last exchange; else none.
 */
export function housekeepingDue(state: EngineState, tokens: number, budget: number): number[] {
  const s = state.settings;
  const tail = state.tail;
  const last = tail[tail.length - 1];
  const summaryCount = layerBudgets(s).summaryCount;
  if (state.mode !== 'layered' || !last || summaryCount === 0) return [];
  let keep: number;
  if (tail.length + 1 > s.workingMemoryMax) {
    keep = s.workingMemoryMin;
  } else if (tokens + last.inputTokens + last.outputTokens > budget) {
    const low = sessionLowWatermark(state);
    keep = tail.length;
    let left = tokens;
    while (keep > s.workingMemoryMin && left > low) {
      const ex = tail[tail.length - keep]!;
      left -= ex.inputTokens + ex.outputTokens;
      keep -= 1;
    }
  } else {
    return [];
  }
  // next turn this exchange joins working memory, so one more will leave than counted here
  const leaving = tail.slice(0, Math.min(tail.length, tail.length + 1 - keep)).slice(-summaryCount).map((ex) => ex.seq);
  // The model's summary is paid output (5x input): ask only where the derived one had to be cut to fit.
  const count = (t: string) => state.tokenizer.count(t);
  return leaving.filter((seq) => count(state.summaries.get(seq) ?? '') >= LOSSY_SUMMARY_SHARE * s.summaryMaxTokens);
}

/** Last resort: the pending input's blocks are cut to share what budget is left, tighter until it fits. */
export function shrinkPending(state: EngineState, budget: number): BuiltTurn {
  const pending = state.pending as LiveExchange;
  const count = (t: string) => state.tokenizer.count(t);
  let built = buildTurn(state);
  for (let attempt = 0; attempt < 6 && built.tokens > budget; attempt++) {
    const others = built.tokens - pending.inputTokens;
    const slack = 50 * 2 ** attempt;
    const share = Math.max(5, Math.floor((budget - others - slack) / Math.max(1, pending.input.length)) - 10);
    pending.input = pending.input.map((b) => shrinkBlock(b, share, count));
    pending.inputTokens = contentTokens(pending.input, count);
    built = buildTurn(state);
  }
  return built;
}

/** The session's task (its first input) cut so that each block holds at most its share of `maxTokens` (50 at least). */
export function capTask(blocks: ContentBlock[], maxTokens: number, count: (s: string) => number): ContentBlock[] {
  const share = Math.max(50, Math.floor(maxTokens / Math.max(1, blocks.length)));
  return blocks.map((b) => shrinkBlock(b, share, count));
}

function shrinkBlock(block: ContentBlock, maxTokens: number, count: (s: string) => number): ContentBlock {
  if (block.type === 'text') return { ...block, text: trimToTokens(block.text, maxTokens, count) };
  // Rendered inputs hold only text and tool_result blocks (renderInput turns the rest into text).
  if (block.type === 'tool_result') return { ...block, content: trimToTokens(toolResultText(block), maxTokens, count) };
  return block;
}
