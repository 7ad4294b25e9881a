/**
 * Folds the Messages API's stream events into an answer as they arrive, so that at any moment
 * (abort, cut, stall) the part received so far can be handed back whole. Structural event types
 * keep this file free of the SDK; `anthropicModelClient.ts` feeds it.
 */
import type { ContentBlock, ToolUseBlock } from '../shared/messages';
import { emptyUsage, type ModelResult, type ModelStopReason, type ModelStreamEvent, type ModelUsage } from '../task/modelClient';

/** The usage fields the API sends in message_start and (cumulative) in message_delta. */
interface WireUsage {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
}

/** The subset of `RawMessageStreamEvent` this fold reads. */
export type WireStreamEvent =
  | { type: 'message_start'; message: { model: string; usage: WireUsage } }
  | { type: 'content_block_start'; index: number; content_block: { type: string; id?: string; name?: string; text?: string; thinking?: string; signature?: string; data?: string } }
  | { type: 'content_block_delta'; index: number; delta: { type: string; text?: string; partial_json?: string; thinking?: string; signature?: string } }
  | { type: 'content_block_stop'; index: number }
  | { type: 'message_delta'; delta: { stop_reason: string | null }; usage: WireUsage }
  | { type: 'message_stop' };

type OpenBlock =
  | { kind: 'text'; text: string }
  | { kind: 'tool'; id: string; name: string; json: string }
  | { kind: 'thinking'; thinking: string; signature: string }
  | { kind: 'redacted'; data: string }
  | { kind: 'other' };

const STOP_REASONS: ReadonlySet<string> = new Set(['end_turn', 'tool_use', 'max_tokens', 'stop_sequence', 'pause_turn', 'refusal']);

export class StreamedAnswer {
  /** Finished blocks in answer order, keyed by the API's block index. */
  private readonly done = new Map<number, ContentBlock>();
  private readonly open = new Map<number, OpenBlock>();
  private usage: ModelUsage = emptyUsage();
  private stopReason: ModelStopReason = 'end_turn';
  /** Tool calls whose input cannot be used (tool_use id -> why); the loop answers them without running. */
  private readonly inputErrors = new Map<string, string>();
  private model: string;
  /** True once message_stop arrived: the answer is complete. */
  stopped = false;
  /** True once anything reached the caller's callback (a retry would then repeat it). */
  delivered = false;

  constructor(
    requestedModel: string,
    private readonly onEvent: (event: ModelStreamEvent) => void,
  ) {
    this.model = requestedModel;
  }

  apply(event: WireStreamEvent): void {
    switch (event.type) {
      case 'message_start':
        this.model = event.message.model || this.model;
        this.mergeUsage(event.message.usage);
        break;
      case 'content_block_start': {
        const b = event.content_block;
        if (b.type === 'text') this.open.set(event.index, { kind: 'text', text: b.text ?? '' });
        else if (b.type === 'tool_use') this.open.set(event.index, { kind: 'tool', id: b.id ?? '', name: b.name ?? '', json: '' });
        else if (b.type === 'thinking') this.open.set(event.index, { kind: 'thinking', thinking: b.thinking ?? '', signature: b.signature ?? '' });
        else if (b.type === 'redacted_thinking') this.open.set(event.index, { kind: 'redacted', data: b.data ?? '' });
        else this.open.set(event.index, { kind: 'other' });
        break;
      }
      case 'content_block_delta': {
        const block = this.open.get(event.index);
        if (block?.kind === 'text' && event.delta.type === 'text_delta' && event.delta.text) {
          block.text += event.delta.text;
          this.emit({ type: 'text', text: event.delta.text });
        } else if (block?.kind === 'tool' && event.delta.type === 'input_json_delta') {
          block.json += event.delta.partial_json ?? '';
        } else if (block?.kind === 'thinking' && event.delta.type === 'thinking_delta') {
          block.thinking += event.delta.thinking ?? '';
        } else if (block?.kind === 'thinking' && event.delta.type === 'signature_delta') {
          block.signature += event.delta.signature ?? '';
        }
        break;
      }
      case 'content_block_stop':
        this.close(event.index);
        break;
      case 'message_delta':
        if (event.delta.stop_reason && STOP_REASONS.has(event.delta.stop_reason)) this.stopReason = event.delta.stop_reason as ModelStopReason;
        this.mergeUsage(event.usage);
        break;
      case 'message_stop':
        this.stopped = true;
        break;
    }
  }

  /**
   * The answer as it stands. Open text blocks are kept (their text was shown). An open tool call
   * (cut by max_tokens or a failure) is kept only when the answer ended at max_tokens, with an
   * empty input and an entry in `inputErrors`, so the loop can tell the model its call was cut;
   * otherwise it is dropped. An open thinking block is dropped: without its signature the API
   * would refuse it.
   */
  result(stopReason?: ModelStopReason): ModelResult {
    const reason = stopReason ?? this.stopReason;
    const blocks = new Map(this.done);
    const inputErrors = new Map(this.inputErrors);
    for (const [index, block] of this.open) {
      if (block.kind === 'text' && block.text) blocks.set(index, { type: 'text', text: block.text });
      if (block.kind === 'tool' && reason === 'max_tokens' && block.id) {
        blocks.set(index, { type: 'tool_use', id: block.id, name: block.name, input: {} });
        inputErrors.set(block.id, cutAtMaxTokens(block.name));
      }
    }
    const content = [...blocks.entries()].sort((a, b) => a[0] - b[0]).map(([, b]) => b);
    // A call closed with broken JSON in an answer cut at max_tokens was cut, not malformed.
    if (reason === 'max_tokens') for (const [id, why] of inputErrors) if (why.startsWith(NOT_JSON)) inputErrors.set(id, cutAtMaxTokens(nameOf(content, id)));
    return {
      message: { role: 'assistant', content },
      stopReason: reason,
      usage: { ...this.usage },
      model: this.model,
      ...(inputErrors.size > 0 ? { inputErrors: Object.fromEntries(inputErrors) } : {}),
    };
  }

  private close(index: number): void {
    const block = this.open.get(index);
    this.open.delete(index);
    if (!block || block.kind === 'other') return;
    // Thinking goes back to the API unchanged in the next turn of a tool loop (it checks the signature).
    if (block.kind === 'thinking') {
      if (block.signature) this.done.set(index, { type: 'thinking', thinking: block.thinking, signature: block.signature });
      return;
    }
    if (block.kind === 'redacted') {
      this.done.set(index, { type: 'redacted_thinking', data: block.data });
      return;
    }
    if (block.kind === 'text') {
      if (block.text) this.done.set(index, { type: 'text', text: block.text });
      return;
    }
    let input: Record<string, unknown> = {};
    let inputError: string | undefined;
    if (block.json.trim() !== '') {
      try {
        const parsed: unknown = JSON.parse(block.json);
        // The API wants an object as a tool_use input in every later request: anything else is never kept.
        if (isPlainObject(parsed)) input = parsed;
        else inputError = `the tool input must be a JSON object, not ${parsed === null ? 'null' : Array.isArray(parsed) ? 'an array' : typeof parsed}`;
      } catch (err) {
        inputError = `${NOT_JSON} (${err instanceof Error ? err.message : String(err)})`;
      }
    }
    const toolUse: ToolUseBlock = { type: 'tool_use', id: block.id, name: block.name, input };
    this.done.set(index, toolUse);
    if (inputError) this.inputErrors.set(block.id, inputError);
    this.emit(inputError ? { type: 'tool_use', block: toolUse, inputError } : { type: 'tool_use', block: toolUse });
  }

  private emit(event: ModelStreamEvent): void {
    this.delivered = true;
    this.onEvent(event);
  }

  /** message_delta figures are cumulative: a present figure replaces the earlier one. */
  private mergeUsage(u: WireUsage): void {
    this.usage = {
      inputTokens: u.input_tokens ?? this.usage.inputTokens,
      cacheWriteTokens: u.cache_creation_input_tokens ?? this.usage.cacheWriteTokens,
      cacheReadTokens: u.cache_read_input_tokens ?? this.usage.cacheReadTokens,
      outputTokens: u.output_tokens ?? this.usage.outputTokens,
    };
  }
}

const NOT_JSON = 'the tool input is not valid JSON';

function cutAtMaxTokens(name: string): string {
  return `the answer reached its output limit (max_tokens) while the input of ${name || 'this call'} was still being written, so the call was cut and not run; call it again with a smaller input (for a large file, write it in parts)`;
}

function nameOf(content: readonly ContentBlock[], id: string): string {
  const block = content.find((b): b is ToolUseBlock => b.type === 'tool_use' && b.id === id);
  return block?.name ?? '';
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
