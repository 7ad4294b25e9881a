import type { ContentBlock, Message, MessagesRequest } from '../../shared/messages';
import { toolResultText } from '../../shared/messages';
import { blockText } from '../../engine/blockTokens';
import { extractEntities } from '../../engine/derive/entities';

/** Span lines must be at least this long once trimmed (shorter lines match by accident). */
export const MIN_SPAN_CHARS = 24;
/** A reference is "far" when the entity was last seen this many messages or more before. */
export const FAR_MESSAGES = 10;

/** What one recorded answer relied on from earlier messages: the probes recall is scored on. */
export interface TurnProbe {
  /** Lines of its tool inputs found verbatim in an earlier tool result. */
  spans: string[];
  /** Entities it uses that occur in an earlier message, and whether they were last seen far back. */
  refs: Array<{ entity: string; far: boolean }>;
}

/**
 * Probes for every assistant message of a session, in order. Rules (docs/bench.md, "Recall"):
 * span lines come from the string values of the answer's tool inputs, split on newlines and
 * trimmed, >= 24 characters, present in some earlier tool result; references are the file
 * paths and identifiers `extractEntities` finds in the answer's text and tool inputs that occur
 * in an earlier message; "far" when the latest earlier message containing it is >= 10 back.
 */
export function sessionProbes(messages: readonly Message[]): TurnProbe[] {
  const probes: TurnProbe[] = [];
  const texts: string[] = [];
  let results = '';
  messages.forEach((message, k) => {
    if (message.role === 'assistant') {
      const inputs = message.content.flatMap((b) => (b.type === 'tool_use' ? stringsOf(b.input) : []));
      const spans = [...new Set(inputs.flatMap((s) => s.split('\n')).map((l) => l.trim()).filter((l) => l.length >= MIN_SPAN_CHARS && results.includes(l)))];
      const ownText = [...inputs, ...message.content.flatMap((b) => (b.type === 'text' ? [b.text] : []))].join('\n');
      const found = extractEntities(ownText);
      const refs: TurnProbe['refs'] = [];
      for (const entity of new Set([...found.files, ...found.symbols])) {
        const last = lastIndexContaining(texts, entity);
        if (last >= 0) refs.push({ entity, far: k - last >= FAR_MESSAGES });
      }
      probes.push({ spans, refs });
    }
    texts.push(message.content.map(blockText).join('\n'));
    for (const b of message.content) if (b.type === 'tool_result') results += `\n${toolResultText(b)}`;
  });
  return probes;
}

/** Hits and totals of one request against its turn's probes. */
export interface RecallCounts {
  spanHit: number;
  spanTotal: number;
  refHit: number;
  refTotal: number;
  farHit: number;
  farTotal: number;
}

export function emptyRecall(): RecallCounts {
  return { spanHit: 0, spanTotal: 0, refHit: 0, refTotal: 0, farHit: 0, farTotal: 0 };
}

/** Scores one request: a probe counts as present when it occurs anywhere in the request's text. */
export function scoreRecall(probe: TurnProbe, request: MessagesRequest, into: RecallCounts): void {
  if (probe.spans.length === 0 && probe.refs.length === 0) return;
  const texts = [...request.system.map((b) => b.text), ...request.messages.flatMap((m) => m.content.map(memoText))];
  // Probes hold no newline, so "in the joined text" is "in one of its pieces"; the join is built only if one does.
  let joined: string | undefined;
  const present = (needle: string) => (needle.includes('\n') ? (joined ??= texts.join('\n')).includes(needle) : texts.some((t) => t.includes(needle)));
  for (const line of probe.spans) {
    into.spanTotal += 1;
    if (present(line)) into.spanHit += 1;
  }
  for (const ref of probe.refs) {
    const hit = present(ref.entity);
    into.refTotal += 1;
    if (hit) into.refHit += 1;
    if (ref.far) {
      into.farTotal += 1;
      if (hit) into.farHit += 1;
    }
  }
}

export function addRecall(into: RecallCounts, from: RecallCounts): void {
  for (const key of Object.keys(into) as Array<keyof RecallCounts>) into[key] += from[key];
}

/** Share of hits; 1 when there was nothing to recall. */
export function ratio(hit: number, total: number): number {
  return total === 0 ? 1 : hit / total;
}

/** Everything the model would read in a request, as one string. */
export function requestText(request: MessagesRequest): string {
  return [...request.system.map((b) => b.text), ...request.messages.flatMap((m) => m.content.map(memoText))].join('\n');
}

/** blockText per block object: the same blocks come back every turn (blocks are never mutated). */
const textMemo = new WeakMap<ContentBlock, string>();
function memoText(block: ContentBlock): string {
  let text = textMemo.get(block);
  if (text === undefined) {
    text = blockText(block);
    textMemo.set(block, text);
  }
  return text;
}

function stringsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsOf);
  if (value && typeof value === 'object') return Object.values(value).flatMap(stringsOf);
  return [];
}

function lastIndexContaining(texts: readonly string[], needle: string): number {
  for (let i = texts.length - 1; i >= 0; i--) if (texts[i]!.includes(needle)) return i;
  return -1;
}
