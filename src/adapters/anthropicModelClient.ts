/**
 * ModelClient over `@anthropic-ai/sdk` (the only file importing it). Streams with
 * `messages.create({stream: true})` and folds the raw events itself (`StreamedAnswer`), so the
 * part received before an abort, a cut or a stall is never lost.
 *
 * Retries: the SDK's own retry (read in node_modules/@anthropic-ai/sdk/client.js, `shouldRetry` /
 * `retryRequest`) retries 408, 409, 429 and every 5xx (so 529) and connection failures, waits
 * `retry-after-ms` or `retry-after` (seconds or an HTTP date) when the server gives one and
 * 0.5 s doubling to 8 s with jitter otherwise; it applies to a streamed request too (the body is
 * JSON, not a stream). So it is configured (`maxRetries`) rather than rewritten. It cannot see an
 * error that arrives inside a 200 stream (an SSE `error` event, a cut); those are retried here,
 * with the same backoff, only while nothing has reached the caller yet. Every HTTP request of a
 * call is counted (a `fetch` wrapper), so both kinds of retry together stay within `maxRetries`.
 *
 * Waits: the SDK honours any `retry-after` (up to 24 days) silently. The same wrapper reads it
 * first: a wait above `longWaitMs` is announced (a `wait` event; the caller's signal ends the SDK's
 * sleep), one above `maxWaitMs` is not waited at all (the response is marked `x-should-retry:
 * false`, so the SDK gives up and the error says how long the API asked to wait). The SDK's
 * `timeout` covers only the time until the response headers (`headerTimeoutMs`); a timeout is
 * retried like a connection failure.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import Anthropic, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from '@anthropic-ai/sdk';
import type { MessageCreateParamsStreaming, RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages/messages';
import type { ModelCall, ModelClient, ModelErrorCode, ModelInfo, ModelResult, ModelStreamEvent } from '../task/modelClient';
import { ModelError } from '../task/modelClient';
import { StreamedAnswer, type WireStreamEvent } from './streamedAnswer';

export interface AnthropicModelClientOptions {
  /** Never logged, never put in an error message. */
  apiKey: string;
  /** An Anthropic-compatible gateway; the SDK appends `/v1/...`. */
  baseURL?: string;
  /** Retries after the first try, for HTTP errors and in-stream failures alike. */
  maxRetries?: number;
  /** Time allowed until the response headers arrive, ms (the SDK's `timeout`); then the request is retried. */
  headerTimeoutMs?: number;
  /** A `retry-after` longer than this (ms) is announced with a `wait` event before the wait. */
  longWaitMs?: number;
  /** A `retry-after` longer than this (ms) is not waited: the call fails at once, saying how long. */
  maxWaitMs?: number;
  /** Longest silence allowed between two stream events once streaming began, ms. */
  idleTimeoutMs?: number;
}

const DEFAULT_BASE_URL = 'https://api.anthropic.com';
/** Until the response headers, ms: a request with no answer at all by then is retried. */
export const DEFAULT_HEADER_TIMEOUT_MS = 120_000;
const DEFAULT_LONG_WAIT_MS = 60_000;
const DEFAULT_MAX_WAIT_MS = 15 * 60_000;

/** What the fetch wrapper tracks for one stream() call. */
interface CallTries {
  /** HTTP requests the SDK sent, its own retries included. */
  count: number;
  onWait?: (ms: number, reason: string) => void;
  /** A wait the API asked for that was refused (above maxWaitMs), ms. */
  refusedWaitMs?: number;
}

export class AnthropicModelClient implements ModelClient {
  private readonly client: Anthropic;
  private readonly maxRetries: number;
  /** HTTP requests the SDK sent for the current stream() call, its own retries included. */
  private readonly httpTries = new AsyncLocalStorage<CallTries>();
  private readonly idleTimeoutMs: number;
  readonly headerTimeoutMs: number;

  constructor(private readonly options: AnthropicModelClientOptions) {
    this.maxRetries = options.maxRetries ?? 4;
    this.idleTimeoutMs = options.idleTimeoutMs ?? 120_000;
    this.headerTimeoutMs = options.headerTimeoutMs ?? DEFAULT_HEADER_TIMEOUT_MS;
    this.client = new Anthropic({
      apiKey: options.apiKey,
      // Explicit, so ANTHROPIC_BASE_URL / ANTHROPIC_LOG in the environment change nothing behind the caller's back.
      baseURL: options.baseURL ?? DEFAULT_BASE_URL,
      maxRetries: this.maxRetries,
      timeout: this.headerTimeoutMs,
      logLevel: 'off',
      // Counts each HTTP request, the SDK's retries included (it runs them in the caller's async
      // context), and reads a retry-after before the SDK sleeps on it.
      fetch: async (url, init) => {
        const tries = this.httpTries.getStore();
        if (tries) tries.count += 1;
        const response = await fetch(url, init);
        return tries ? this.screenWait(response, tries) : response;
      },
    });
  }

  async stream(call: ModelCall, onEvent: (event: ModelStreamEvent) => void): Promise<ModelResult> {
    // Every HTTP request counts, whether the SDK retried it or this loop did: maxRetries + 1 in all.
    const tries: CallTries = { count: 0, onWait: (ms, reason) => onEvent({ type: 'wait', ms, reason }) };
    return this.httpTries.run(tries, async () => {
      for (let attempt = 0; ; attempt++) {
        const answer = new StreamedAnswer(call.model, onEvent);
        try {
          return await this.once(call, answer, this.maxRetries - tries.count);
        } catch (err) {
          // Stopped by the caller before or between tries: an aborted (possibly empty) answer, not an error.
          if (call.signal?.aborted) return answer.result('aborted');
          const inStream = err instanceof StreamPhaseError;
          const error = tries.refusedWaitMs !== undefined && !inStream
            ? this.tooLongWait(err, answer, tries.refusedWaitMs)
            : this.toModelError(inStream ? err.cause : err, answer, inStream, Math.max(1, tries.count));
          if (!(inStream && error.retryable && !answer.delivered && tries.count <= this.maxRetries)) throw error;
          await backoff(attempt, call.signal);
          if (call.signal?.aborted) return answer.result('aborted');
        }
      }
    });
  }

  async listModels(signal?: AbortSignal): Promise<ModelInfo[]> {
    const out: ModelInfo[] = [];
    try {
      for await (const m of this.client.models.list({ limit: 100 }, { signal })) {
        out.push({
          id: m.id,
          displayName: m.display_name,
          maxInputTokens: m.max_input_tokens ?? undefined,
          maxOutputTokens: m.max_tokens ?? undefined,
          lifecycle: m.lifecycle,
        });
      }
    } catch (err) {
      throw this.toModelError(err, new StreamedAnswer('', () => undefined), false, this.maxRetries + 1);
    }
    return out;
  }

  /**
   * One request: resolves with the whole answer, or the partial one on abort; throws otherwise.
   * The SDK may retry HTTP errors only `sdkRetries` times: the retries left after every request
   * sent so far, so in-stream and HTTP retries together stay within `maxRetries`.
   */
  private async once(call: ModelCall, answer: StreamedAnswer, sdkRetries: number): Promise<ModelResult> {
    const idle = new AbortController();
    const signal = call.signal ? AbortSignal.any([call.signal, idle.signal]) : idle.signal;
    const body: MessageCreateParamsStreaming = {
      model: call.model,
      max_tokens: call.maxTokens,
      // The engine's shapes are the API's; the casts only widen our narrower block types.
      system: call.request.system as MessageCreateParamsStreaming['system'],
      messages: call.request.messages as MessageCreateParamsStreaming['messages'],
      ...(call.request.tools.length > 0 ? { tools: call.request.tools as MessageCreateParamsStreaming['tools'] } : {}),
      stream: true,
    };
    const stream = await this.client.messages.create(body, { signal, maxRetries: sdkRetries });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const arm = (): void => {
      clearTimeout(timer);
      timer = setTimeout(() => idle.abort(), this.idleTimeoutMs);
    };
    try {
      arm();
      for await (const event of stream) {
        arm();
        answer.apply(event as RawMessageStreamEvent as WireStreamEvent);
      }
    } catch (err) {
      if (!signal.aborted) throw new StreamPhaseError(err);
    } finally {
      clearTimeout(timer);
    }
    // The SDK ends iteration quietly on an abort, so the cause is read from the signals.
    if (call.signal?.aborted) return answer.result('aborted');
    if (idle.signal.aborted) throw new StreamPhaseError(new StallError(this.idleTimeoutMs));
    if (!answer.stopped) throw new StreamPhaseError(new CutError());
    return answer.result();
  }

  /**
   * The retry-after of a response the SDK would retry: announced when long, refused (marked not
   * retryable) when longer than allowed. Other responses pass unchanged.
   */
  private screenWait(response: Response, tries: CallTries): Response {
    if (response.ok || !retryableStatus(response) || tries.count > this.maxRetries) return response;
    const ms = retryAfterMs(response.headers);
    if (ms === undefined || ms <= (this.options.longWaitMs ?? DEFAULT_LONG_WAIT_MS)) return response;
    const reason = `HTTP ${response.status}${response.status === 429 ? ', rate limited' : response.status === 529 ? ', overloaded' : ''}`;
    if (ms > (this.options.maxWaitMs ?? DEFAULT_MAX_WAIT_MS)) {
      tries.refusedWaitMs = ms;
      const headers = new Headers(response.headers);
      headers.set('x-should-retry', 'false');
      return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
    }
    tries.onWait?.(ms, reason);
    return response;
  }

  private tooLongWait(err: unknown, answer: StreamedAnswer, ms: number): ModelError {
    const base = this.toModelError(err, answer, false, 1);
    const minutes = Math.ceil(ms / 60_000);
    const message = `The model API asked to wait ${Math.ceil(ms / 1000)} s (about ${minutes} min) before trying again; Strata does not wait that long. ${base.message.replace(/ Wait a minute and retry.*$/, '')} Send the message again later.`;
    return new ModelError(this.scrub(message), base.code, base.partial, base.retryable);
  }

  /** Maps any failure to a ModelError whose message says what to do; the API key is scrubbed out. */
  private toModelError(err: unknown, answer: StreamedAnswer, inStream: boolean, tryCount: number): ModelError {
    const partial = answer.result();
    const kept = partial.message.content.length > 0 ? ' The part of the answer received so far is kept.' : '';
    const make = (code: ModelErrorCode, message: string, retryable: boolean): ModelError =>
      new ModelError(this.scrub(message + kept), code, partial, retryable);
    const tries = tryCount === 1 ? '1 try' : `${tryCount} tries`;
    if (err instanceof StallError) return make('model_stalled', `The model stream went silent for ${err.ms} ms and was stopped after ${tries}. Send the message again.`, true);
    if (err instanceof CutError) return make('model_stream_cut', `The model's answer stopped before its end (the connection closed early) after ${tries}. Send the message again.`, true);
    // In a stream only an SSE `error` event carries an API error type; anything else (a reset, a
    // closed socket, bad framing) means the answer was cut.
    if (inStream && !(err instanceof APIError && err.type)) return make('model_stream_cut', `The model's answer was cut off (${errorText(err)}) after ${tries}. Send the message again.`, true);
    if (err instanceof APIUserAbortError) return make('model_unavailable', 'The model request was stopped.', false);
    if (err instanceof APIConnectionTimeoutError) return make('model_unavailable', `The model API sent no response within ${seconds(this.headerTimeoutMs)} (not even its headers), ${tries} in all. Check the network or the base URL (${this.baseURL}), then send the message again.`, true);
    if (err instanceof APIConnectionError) return make('model_unavailable', `Cannot reach the model API at ${this.baseURL} after ${tries}. Check the network or the base URL, then retry.`, true);
    if (err instanceof APIError) return this.fromApiError(err, make, tries, inStream);
    return make('model_unavailable', `The model call failed: ${errorText(err)}.`, false);
  }

  private fromApiError(
    err: APIError,
    make: (code: ModelErrorCode, message: string, retryable: boolean) => ModelError,
    tries: string,
    inStream: boolean,
  ): ModelError {
    const said = err.apiMessage ?? err.message;
    const status = err.status;
    const type = err.type ?? '';
    if (status === 401 || type === 'authentication_error')
      return make('model_auth', `The model API refused the API key (401: ${said}). Set a valid key (ANTHROPIC_API_KEY in a terminal, the Strata: Set API Key command in the editor).`, false);
    if (status === 403 || type === 'permission_error') return make('model_permission', `The API key may not use this model or feature (403: ${said}). Pick another model or check the key's workspace.`, false);
    if (status === 404 || type === 'not_found_error') return make('model_not_found', `The model API has no such model or route (404: ${said}). Check the model id and the base URL.`, false);
    if (status === 429 || type === 'rate_limit_error') return make('model_rate_limited', `The model API is rate-limiting this key (429: ${said}), still after ${tries}. Wait a minute and retry, or lower the request rate.`, true);
    if (status === 529 || type === 'overloaded_error') return make('model_overloaded', `The model API is overloaded (${status ?? 'in stream'}: ${said}), still after ${tries}. Retry in a few minutes or pick another model.`, true);
    if (/prompt is too long/i.test(said) || status === 413) return make('model_prompt_too_long', `The prompt is larger than the model's window (${said}). Condense the context and retry.`, false);
    if (status !== undefined && status >= 500) return make('model_server', `The model API failed (${status}: ${said}), still after ${tries}. Retry later.`, true);
    if (status === 400 || type === 'invalid_request_error') return make('model_bad_request', `The model API rejected the request (400: ${said}). This is a Strata bug; please report it.`, false);
    if (inStream) return make('model_stream_cut', `The model's answer was cut off by an error (${type}: ${said}) after ${tries}. Send the message again.`, true);
    return make('model_unavailable', `The model call failed (${status ?? type}: ${said}).`, false);
  }

  private get baseURL(): string {
    return this.options.baseURL ?? DEFAULT_BASE_URL;
  }

  /** Removes the API key from any text (a gateway may echo it back in an error body). */
  private scrub(text: string): string {
    return this.options.apiKey.length >= 8 ? text.split(this.options.apiKey).join('[api key]') : text;
  }
}

/** Marks a failure that happened after the response started (headers received). */
class StreamPhaseError extends Error {
  constructor(override readonly cause: unknown) {
    super('stream failed');
  }
}

class StallError extends Error {
  constructor(readonly ms: number) {
    super(`stalled ${ms} ms`);
  }
}

class CutError extends Error {}

function seconds(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 1000)} s` : `${ms} ms`;
}

/** The statuses the SDK retries (its `shouldRetry`), unless the server says otherwise. */
function retryableStatus(response: Response): boolean {
  const told = response.headers.get('x-should-retry');
  if (told === 'true' || told === 'false') return told === 'true';
  return response.status === 408 || response.status === 409 || response.status === 429 || response.status >= 500;
}

/** The wait a response asks for, ms, read as the SDK reads it (retry-after-ms, then retry-after: seconds or a date). */
function retryAfterMs(headers: Headers): number | undefined {
  const ms = Number.parseFloat(headers.get('retry-after-ms') ?? '');
  if (Number.isFinite(ms) && ms > 0) return ms;
  const after = headers.get('retry-after');
  if (!after) return undefined;
  const secs = Number.parseFloat(after);
  const wait = Number.isNaN(secs) ? Date.parse(after) - Date.now() : secs * 1000;
  return Number.isFinite(wait) && wait > 0 ? wait : undefined;
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** The SDK's own schedule: 0.5 s doubling per try up to 8 s, minus up to 25 % jitter; ends early on abort. */
function backoff(attempt: number, signal: AbortSignal | undefined): Promise<void> {
  const ms = Math.min(500 * 2 ** attempt, 8000) * (1 - Math.random() * 0.25);
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
  });
}
