import type { ModelCall, ModelClient, ModelInfo, ModelResult, ModelStreamEvent } from '../task/modelClient';

/**
 * A ModelClient that keeps the body of the latest Messages API call, for "Strata: Show Last
 * Request". The body is built the way the Anthropic adapter builds it (model, max_tokens,
 * system, messages, tools when any, stream), from the engine's request as it was passed on:
 * the three branches and their cache marks exactly as sent. The API key is not part of it.
 */
export class RecordingModelClient implements ModelClient {
  private last: { body: Record<string, unknown>; at: number } | undefined;

  constructor(
    private readonly inner: ModelClient,
    private readonly now: () => number = Date.now,
  ) {}

  /** The latest request body and when it was sent (ms since epoch), or undefined before the first call. */
  get lastRequest(): { body: Record<string, unknown>; at: number } | undefined {
    return this.last;
  }

  stream(call: ModelCall, onEvent: (event: ModelStreamEvent) => void): Promise<ModelResult> {
    const { system, messages, tools } = call.request;
    this.last = { body: { model: call.model, max_tokens: call.maxTokens, system, messages, ...(tools.length > 0 ? { tools } : {}), stream: true }, at: this.now() };
    return this.inner.stream(call, onEvent);
  }

  listModels(signal?: AbortSignal): Promise<ModelInfo[]> {
    return this.inner.listModels(signal);
  }
}
