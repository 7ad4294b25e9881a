import type { ContentBlock, Message, MessagesRequest, TextBlock } from '../shared/messages';
import { requestTokens, withBreakpoint } from './blockTokens';
import type { EngineState } from './engineState';
import { layerBudgets } from './engineState';
import { orphanToText } from './liveExchange';
import type { LayerUsage } from './usage';
import { archiveLayerTokens } from './archiveBlock';

/** The per-turn tail of the last user message: on some turns, the housekeeping ask. */
export interface TurnNotes {
  housekeepingAsk?: string;
}

/**
 * Lays the request out from the most stable part to the least: system and tools, the task,
 * <strata_context> (changes only at a re-layering step), working memory (append-only between
 * steps), the new input, then L0. Breakpoints: end of system, end of <strata_context>, end of
 * the previous turn's input, end of this turn's input (before L0): at most four.
 */
export function layoutRequest(state: EngineState, notes: TurnNotes): MessagesRequest {
  if (!state.pending || !state.task) throw new Error('layoutRequest needs a pending exchange');
  const system = state.system.map((b, i) => (i === state.system.length - 1 ? withBreakpoint(b) : b));
  const messages: Message[] = [];
  const exchanges = [...state.tail, state.pending];
  const first = exchanges[0]!;
  let firstInput: ContentBlock[];
  if (state.foldedThrough === 0) {
    firstInput = first.input;
  } else {
    // a step writes the block with the fold; an empty text block would be rejected by the API
    if (!state.archiveText) throw new Error('layoutRequest: exchanges were folded but the <strata_context> block is missing');
    const archive: TextBlock = withBreakpoint({ type: 'text', text: state.archiveText });
    firstInput = [...state.task, archive, ...orphanToText(first.input, first.calls)];
  }
  messages.push({ role: 'user', content: firstInput });
  for (let i = 0; i < exchanges.length; i++) {
    const ex = exchanges[i]!;
    if (i > 0) messages.push({ role: 'user', content: ex.input });
    if (ex.output) messages.push({ role: 'assistant', content: ex.output });
  }
  markEnd(messages, messages.length - 3);
  markEnd(messages, messages.length - 1);
  const last = messages[messages.length - 1]!;
  const extra: TextBlock[] = [];
  if (notes.housekeepingAsk) extra.push({ type: 'text', text: notes.housekeepingAsk });
  if (extra.length) last.content = [...last.content, ...extra];
  // The end-of-system breakpoint already caches the tools before it; a caller's own mark on a tool would be a fifth.
  const tools = state.tools.map(({ cache_control: _c, ...tool }) => tool);
  return { system, messages, tools };
}

/** A request as things stand, with its token count. */
export interface BuiltTurn {
  request: MessagesRequest;
  tokens: number;
}

/** Lays out the request as the state stands; `due` (layered mode only) adds the housekeeping ask for those exchanges. */
export function buildTurn(state: EngineState, due: readonly number[] = []): BuiltTurn {
  const notes: TurnNotes = {};
  if (due.length > 0) notes.housekeepingAsk = `Housekeeping due: summarise ${due.map((d) => `e${d}`).join(', ')} and update the narrative.`;
  const request = layoutRequest(state, notes);
  return { request, tokens: requestTokens(request, (t) => state.tokenizer.count(t)) };
}

/** Puts a breakpoint on the last block of user message `index`, unless one is already there. */
function markEnd(messages: Message[], index: number): void {
  const message = messages[index];
  if (!message || message.role !== 'user') return;
  const blocks = message.content;
  const lastBlock = blocks[blocks.length - 1];
  if (!lastBlock || lastBlock.cache_control) return;
  message.content = [...blocks.slice(0, -1), withBreakpoint(lastBlock)];
}

/** Budget and use of each layer in an assembled request, for the usage bars. */
/** `total` is the request's token count, already known to the caller. */
export function layerUsage(state: EngineState, request: MessagesRequest, total: number, budget: number): LayerUsage[] {
  const count = (s: string) => state.tokenizer.count(s);
  const s = state.settings;
  const systemUsed = requestTokens({ system: request.system, messages: [], tools: request.tools }, count);
  const archive = state.foldedThrough > 0 && state.archiveParts ? archiveLayerTokens(state.archiveParts, state.tokenizer) : { L0: 0, L2: 0, L3: 0, L4: 0 };
  const narrative = archive.L0;
  const pendingUsed = state.pending?.inputTokens ?? 0;
  const l1Used = Math.max(0, total - systemUsed - archive.L2 - archive.L3 - archive.L4 - narrative - pendingUsed);
  const b = layerBudgets(s);
  const archiveBudget = b.headerTokens + b.summaryCount * s.summaryMaxTokens + b.indexTokens + b.fileViewTokens;
  return [
    { layer: 'system', budget: systemUsed, used: systemUsed },
    { layer: 'L0', budget: b.narrativeTokens, used: narrative },
    { layer: 'L1', budget: Math.max(0, budget - systemUsed - archiveBudget - b.narrativeTokens), used: l1Used },
    { layer: 'L2', budget: b.headerTokens, used: archive.L2 },
    { layer: 'L3', budget: b.summaryCount * s.summaryMaxTokens, used: archive.L3 },
    { layer: 'L4', budget: b.indexTokens + b.fileViewTokens, used: archive.L4 },
    { layer: 'input', budget, used: pendingUsed },
  ];
}
