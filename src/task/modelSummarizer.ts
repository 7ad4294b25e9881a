import type { Summarizer, SummarizeRequest, SummarizeResult } from '../engine/ports';
import { StrataError } from '../shared/strataError';
import type { ModelClient } from './modelClient';
import { promptTokens } from './modelClient';

/**
 * The engine's Summarizer port over a ModelClient: condensing as one model call (the condensing
 * model may be a cheaper one than the chat's). Failures reach the engine, which reports a
 * condense error and falls back to its sliding window.
 */
export class ModelSummarizer implements Summarizer {
  constructor(
    private readonly model: ModelClient,
    private readonly modelId: string,
  ) {}

  async summarize(request: SummarizeRequest, signal?: AbortSignal): Promise<SummarizeResult> {
    const result = await this.model.stream({ request: request.request, model: this.modelId, maxTokens: request.maxOutputTokens, ...(signal ? { signal } : {}) }, () => {});
    if (result.stopReason === 'aborted') throw new StrataError('Condensing was cancelled; the context is unchanged.', 'cancelled');
    const text = result.message.content.map((b) => (b.type === 'text' ? b.text : '')).join('').trim();
    return { text, inputTokens: promptTokens(result.usage), outputTokens: result.usage.outputTokens };
  }
}
