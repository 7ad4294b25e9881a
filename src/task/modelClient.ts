/**
 * The Task loop's door to a language model. An adapter (`src/adapters/anthropicModelClient.ts`)
 * speaks the Messages API; tests may pass a scripted one. Nothing here imports a package.
 */
import type { Message, MessagesRequest, ToolUseBlock } from '../shared/messages';
import { StrataError } from '../shared/strataError';

/** Tokens the API reported for one call. `inputTokens` excludes cache writes and reads. */
export interface ModelUsage {
  inputTokens: number;
  /** Tokens written to the prompt cache (billed at 1.25x input). */
  cacheWriteTokens: number;
  /** Tokens read from the prompt cache (billed at 0.1x input). */
  cacheReadTokens: number;
  outputTokens: number;
}

/** Why an answer ended; `aborted` means the caller's signal stopped it. */
export type ModelStopReason = 'end_turn' | 'tool_use' | 'max_tokens' | 'stop_sequence' | 'pause_turn' | 'refusal' | 'aborted';

export interface ModelCall {
  /** The engine's three branches, cache marks included; sent as is. */
  request: MessagesRequest;
  model: string;
  /** Upper bound on the answer, in model tokens. */
  maxTokens: number;
  /** Stops the answer; the text received so far is still returned (never lost). */
  signal?: AbortSignal;
}

/** What streams out while an answer arrives, in order. */
export type ModelStreamEvent =
  | { type: 'text'; text: string }
  /**
   * A finished tool call. `input` is the parsed JSON object; when the model sent JSON that does
   * not parse or is not an object, `input` is `{}` and `inputError` says why.
   */
  | { type: 'tool_use'; block: ToolUseBlock; inputError?: string }
  /** The client waits `ms` before trying again (the API asked, `retry-after`); the caller's signal ends the wait. */
  | { type: 'wait'; ms: number; reason: string };

/** One whole answer, or the part of it that arrived before an abort or a failure. */
export interface ModelResult {
  /** Role `assistant`; text and complete tool_use blocks only (a half-received tool call is dropped). */
  message: Message;
  stopReason: ModelStopReason;
  usage: ModelUsage;
  /** The model id the API reports having used (may be a dated form of the requested alias). */
  model: string;
  /**
   * Tool calls of `message` that must not run, tool_use id -> why (input not JSON, not an object,
   * cut at max_tokens). Their input in `message` is `{}`, so the answer can be re-sent as is.
   */
  inputErrors?: Record<string, string>;
}

/** A model the API offers; figures are absent when the API does not give them. */
export interface ModelInfo {
  id: string;
  displayName?: string;
  /** Context window, tokens. */
  maxInputTokens?: number;
  /** Largest accepted `max_tokens`. */
  maxOutputTokens?: number;
  lifecycle?: string;
}

export interface ModelClient {
  /** Streams one answer to `onEvent` and resolves with it; throws `ModelError` on failure. */
  stream(call: ModelCall, onEvent: (event: ModelStreamEvent) => void): Promise<ModelResult>;
  /** Every model the endpoint lists (all pages). */
  listModels(signal?: AbortSignal): Promise<ModelInfo[]>;
}

export type ModelErrorCode =
  | 'model_auth'
  | 'model_permission'
  | 'model_not_found'
  | 'model_rate_limited'
  | 'model_overloaded'
  | 'model_server'
  | 'model_prompt_too_long'
  | 'model_bad_request'
  | 'model_unavailable'
  | 'model_stream_cut'
  | 'model_stalled';

/**
 * A failed model call. `partial` holds whatever arrived before the failure (possibly nothing),
 * so the caller can show and archive it. `retryable` says whether the same call may succeed later.
 */
export class ModelError extends StrataError {
  constructor(
    message: string,
    override readonly code: ModelErrorCode,
    readonly partial: ModelResult,
    readonly retryable: boolean,
  ) {
    super(message, code);
    this.name = 'ModelError';
  }
}

/** The whole prompt the API counted: plain input, cache writes and cache reads. */
export function promptTokens(usage: ModelUsage): number {
  return usage.inputTokens + usage.cacheWriteTokens + usage.cacheReadTokens;
}

export function emptyUsage(): ModelUsage {
  return { inputTokens: 0, cacheWriteTokens: 0, cacheReadTokens: 0, outputTokens: 0 };
}
