import type { ContentBlock, Message, TextBlock, ToolResultBlock, ToolUseBlock } from '../shared/messages';
import { toolResultText } from '../shared/messages';
import { withoutProtocolBlocks } from '../shared/protocolSchema';
import { contentTokens } from './blockTokens';
import type { ToolCall } from './toolOutput';
import { fileShownPart } from './fileViews';
import { compactToolOutput, describeCall, fileEditedBy, fileReadBy, isPointerTo, maskedPointer, withResultText } from './toolOutput';

/**
 * An exchange as working memory sends it. `input` and `output` are rendered once, when the
 * exchange arrives, and change only at a re-layering step, so the bytes sent stay stable.
 */
export interface LiveExchange {
  seq: number;
  createdAt: number;
  input: ContentBlock[];
  /** Undefined while the model has not answered yet (the pending exchange). */
  output?: ContentBlock[];
  /** The calls of the previous answer, which this input's tool results answer. */
  calls: Map<string, ToolCall>;
  /** Original tool output text by tool_use_id, to mask or supersede at a re-layering step. */
  originals: Map<string, string>;
  inputTokens: number;
  outputTokens: number;
  /** Files the front end saw change on disk before this input (read earlier, changed behind the model's back). */
  changedFiles?: readonly string[];
}

/** How tool outputs are cut on arrival: lines of code and of other output, and whether a file read may stay whole. */
export interface RenderLimits {
  codeMaxLines: number;
  outputMaxLines: number;
  fileFits?: (text: string) => boolean;
}

/** What a call whose result the input does not carry is answered with (the API wants every call answered). */
export const NO_RESULT_TEXT = '(no result was recorded for this call)';

/**
 * Renders an incoming message for working memory: tool outputs compacted, and shaped as the
 * Messages API demands: results first, one per call of the previous answer (a call left
 * unanswered gets NO_RESULT_TEXT); a result with no call before it (a session that starts with
 * tool results) or a second result for one call becomes text holding the same output; a
 * tool_use in an input becomes text too. Nothing is dropped; the archive keeps the original.
 */
export function renderInput(message: Message, calls: Map<string, ToolCall>, limits: RenderLimits): { blocks: ContentBlock[]; originals: Map<string, string> } {
  const originals = new Map<string, string>();
  const results: ContentBlock[] = [];
  const rest: ContentBlock[] = [];
  for (const block of message.content) {
    if (block.type === 'text') rest.push(block);
    else if (block.type === 'tool_use') rest.push(toolUseToText(block));
    // Reasoning belongs to answers; one found in an input is kept as plain text.
    else if (block.type === 'thinking') rest.push({ type: 'text', text: block.thinking || '(empty thinking)' });
    else if (block.type === 'redacted_thinking') rest.push({ type: 'text', text: '(redacted thinking)' });
    else {
      const text = toolResultText(block);
      const compacted = compactToolOutput(text, calls.get(block.tool_use_id), limits.codeMaxLines, limits.outputMaxLines, limits.fileFits);
      const rendered = withResultText(block, compacted.length > 0 ? compacted : '(no output)');
      if (!calls.has(block.tool_use_id) || originals.has(block.tool_use_id)) {
        rest.push(...orphanToText([rendered], calls));
        continue;
      }
      originals.set(block.tool_use_id, text);
      results.push(rendered);
    }
  }
  for (const id of calls.keys()) {
    if (!originals.has(id)) results.push({ type: 'tool_result', tool_use_id: id, content: NO_RESULT_TEXT });
  }
  return { blocks: nonEmpty([...results, ...rest]), originals };
}

/** A file a read tool showed in an input: the path as the call names it, the tokens of the output, whether it was the whole file. */
export interface FileReadShown {
  path: string;
  tokens: number;
  whole: boolean;
}

/** The file reads `message` answers (`calls` are the previous answer's), each output counted once. */
export function fileReadsShown(message: Message, calls: Map<string, ToolCall>, count: (s: string) => number): FileReadShown[] {
  const reads: FileReadShown[] = [];
  for (const block of message.content) {
    if (block.type !== 'tool_result') continue;
    const call = calls.get(block.tool_use_id);
    const path = fileReadBy(call);
    if (path !== undefined) reads.push({ path, tokens: count(toolResultText(block)), whole: fileShownPart(call)?.whole === true });
  }
  return reads;
}

/** The answer as re-sent: protocol blocks the model wrote for Strata are removed; a tool_result in an answer becomes text. */
export function renderOutput(message: Message): ContentBlock[] {
  const blocks = message.content.map((block): ContentBlock => {
    if (block.type === 'tool_result') return orphanToText([block], new Map())[0]!;
    if (block.type !== 'text' || !block.text.includes('<')) return block;
    return { type: 'text', text: withoutProtocolBlocks(block.text).trimEnd() };
  });
  return nonEmpty(blocks);
}

/** The API rejects empty text blocks and empty messages. */
function nonEmpty(blocks: ContentBlock[]): ContentBlock[] {
  const kept = blocks.filter((b) => b.type !== 'text' || b.text.trim().length > 0);
  return kept.length > 0 ? kept : [{ type: 'text', text: '(empty)' }];
}

/** A tool call found where only the assistant may call tools, kept as text. */
function toolUseToText(block: ToolUseBlock): TextBlock {
  return { type: 'text', text: `[tool call ${block.id}: ${block.name} ${JSON.stringify(block.input ?? null)}]` };
}

/**
 * Tool results whose call is no longer in the prompt must become text (the API refuses a
 * tool_result without its tool_use). The text names the call so nothing is ambiguous.
 */
export function orphanToText(blocks: ContentBlock[], calls: Map<string, ToolCall>): ContentBlock[] {
  return blocks.map((block): ContentBlock => {
    if (block.type !== 'tool_result') return block;
    const call = calls.get(block.tool_use_id);
    const label = call ? describeCall(call) : `tool call ${block.tool_use_id}`;
    const text: TextBlock = { type: 'text', text: `[result of ${label}${block.is_error ? ' (error)' : ''}]\n${toolResultText(block)}` };
    return text;
  });
}

/**
 * Whether `block` (a tool result of `live`) can still become a pointer: not one already (whatever
 * its reason), and not the placeholder of a call left unanswered (no original to point to).
 */
export function isMaskable(live: LiveExchange, block: ToolResultBlock): boolean {
  const original = live.originals.get(block.tool_use_id);
  return original !== undefined && !isPointerTo(toolResultText(block), live.seq, original);
}

/**
 * Replaces by a pointer each output of `live` that `reason` gives a reason for. `reason` learns
 * whether the output is a pointer already: a pointer given a reason takes the new one. Returns
 * how many were not pointers before.
 */
export function maskOutputs(live: LiveExchange, reason: (id: string, isPointer: boolean) => string | undefined, count: (s: string) => number): number {
  let masked = 0;
  live.input = live.input.map((block): ContentBlock => {
    if (block.type !== 'tool_result') return block;
    const original = live.originals.get(block.tool_use_id);
    // no original: the placeholder of a call left unanswered, shorter than any pointer to it
    if (original === undefined) return block;
    const isPointer = isPointerTo(toolResultText(block), live.seq, original);
    const why = reason(block.tool_use_id, isPointer);
    if (!why) return block;
    if (!isPointer) masked += 1;
    return withResultText(block, maskedPointer(live.seq, live.calls.get(block.tool_use_id), original, why));
  });
  live.inputTokens = contentTokens(live.input, count);
  return masked;
}

/** Files this exchange's tool results show were edited or written (successful edit tools only). */
export function fileChangesOf(live: LiveExchange): string[] {
  const paths: string[] = [];
  for (const block of live.input) {
    if (block.type !== 'tool_result' || block.is_error) continue;
    const path = fileEditedBy(live.calls.get(block.tool_use_id));
    if (path !== undefined) paths.push(path);
  }
  return paths;
}

/** Files read by this exchange's tool results, by tool_use_id. */
export function fileReadsOf(live: LiveExchange): Map<string, string> {
  const reads = new Map<string, string>();
  for (const block of live.input) {
    if (block.type !== 'tool_result') continue;
    const path = fileReadBy(live.calls.get(block.tool_use_id));
    if (path) reads.set(block.tool_use_id, path);
  }
  return reads;
}
