/**
 * A real local HTTP server that speaks Anthropic's Messages API as documented
 * (https://docs.anthropic.com/en/api/messages-streaming): POST /v1/messages streaming (SSE) and
 * not, GET /v1/models (paged), and error bodies `{type:'error', error:{type, message}}`.
 * Tests queue scripted answers and faults; every request is recorded (body + headers).
 * Used by the model-client tests, the Task loop tests and the extension's end-to-end tests.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerEvents, answerMessage, type ScriptedAnswer } from './messagesApiEvents';

export type { ScriptedAnswer, ScriptedBlock, ScriptedUsage } from './messagesApiEvents';

/** An HTTP error answer in Anthropic's JSON error shape. */
export interface StatusFault {
  fault: 'status';
  status: number;
  errorType: string;
  message: string;
  /** `retry-after` header value, seconds (as the API sends it). */
  retryAfter?: string;
}

/** Streams `answer` but stops after `afterEvents` SSE events: `destroy` resets the socket, `end` closes cleanly. */
export interface CutFault {
  fault: 'cut';
  answer: ScriptedAnswer;
  afterEvents: number;
  how: 'destroy' | 'end';
}

/** Sends nothing for `ms` (before the headers when `afterEvents` is undefined), then goes on. */
export interface StallFault {
  fault: 'stall';
  answer: ScriptedAnswer;
  ms: number;
  afterEvents?: number;
}

/** Streams `afterEvents` events of `answer`, then an SSE `error` event (as the API does mid-stream). */
export interface StreamErrorFault {
  fault: 'stream_error';
  answer: ScriptedAnswer;
  afterEvents: number;
  errorType: string;
  message: string;
}

export type Fault = StatusFault | CutFault | StallFault | StreamErrorFault;
export type Scripted = ScriptedAnswer | Fault;

/** Ready-made faults with the bodies the API really sends. */
export const faults = {
  rateLimited: (retryAfterSeconds: number): StatusFault => ({
    fault: 'status',
    status: 429,
    errorType: 'rate_limit_error',
    message: 'Number of request tokens has exceeded your per-minute rate limit',
    retryAfter: String(retryAfterSeconds),
  }),
  overloaded: (): StatusFault => ({ fault: 'status', status: 529, errorType: 'overloaded_error', message: 'Overloaded' }),
  serverError: (): StatusFault => ({ fault: 'status', status: 500, errorType: 'api_error', message: 'Internal server error' }),
  promptTooLong: (tokens: number, maximum: number): StatusFault => ({
    fault: 'status',
    status: 400,
    errorType: 'invalid_request_error',
    message: `prompt is too long: ${tokens} tokens > ${maximum} maximum`,
  }),
  unauthorized: (message = 'invalid x-api-key'): StatusFault => ({ fault: 'status', status: 401, errorType: 'authentication_error', message }),
  cut: (answer: ScriptedAnswer, afterEvents: number, how: 'destroy' | 'end' = 'destroy'): CutFault => ({ fault: 'cut', answer, afterEvents, how }),
  stall: (answer: ScriptedAnswer, ms: number, afterEvents?: number): StallFault => ({ fault: 'stall', answer, ms, afterEvents }),
  streamOverloaded: (answer: ScriptedAnswer, afterEvents: number): StreamErrorFault => ({
    fault: 'stream_error',
    answer,
    afterEvents,
    errorType: 'overloaded_error',
    message: 'Overloaded',
  }),
};

export interface RecordedRequest {
  method: string;
  /** Path without the query string. */
  path: string;
  query: URLSearchParams;
  /** Lower-cased header names, as node:http gives them. */
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON body (undefined for a GET). */
  body: unknown;
  /** Milliseconds since epoch when the request's body had arrived. */
  receivedAt: number;
}

/** One entry of GET /v1/models, in the API's field names. */
export interface ServedModel {
  id: string;
  display_name?: string;
  max_input_tokens?: number | null;
  max_tokens?: number | null;
  lifecycle?: 'active' | 'deprecated' | 'retired';
}

export interface MessagesApiServerOptions {
  /** Characters per `text_delta`; tool input JSON is cut into pieces of this size as well. */
  chunkSize?: number;
  /** Most entries per page of GET /v1/models (also the page size when the request gives no `limit`). */
  modelsPageSize?: number;
  models?: ServedModel[];
}

export class MessagesApiServer {
  readonly requests: RecordedRequest[] = [];
  models: ServedModel[];
  private readonly queue: Scripted[] = [];
  private readonly chunkSize: number;
  private readonly modelsPageSize: number;
  private readonly waiters: Array<{ count: number; resolve: () => void }> = [];
  private idCounter = 0;

  private constructor(
    private readonly server: Server,
    options: MessagesApiServerOptions,
  ) {
    this.chunkSize = options.chunkSize ?? 7;
    this.modelsPageSize = options.modelsPageSize ?? 20;
    this.models = options.models ?? [];
  }

  /** Starts on 127.0.0.1, port 0 (a free port). */
  static async start(options: MessagesApiServerOptions = {}): Promise<MessagesApiServer> {
    let instance: MessagesApiServer | undefined;
    const server = createServer((req, res) => {
      instance?.handle(req, res).catch((err: unknown) => {
        if (!res.headersSent) sendError(res, 500, 'api_error', `messagesApiServer: ${String(err)}`);
        else res.destroy();
      });
    });
    instance = new MessagesApiServer(server, options);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return instance;
  }

  /** Base URL to hand to the SDK (no trailing slash, no `/v1`). */
  get url(): string {
    const { port } = this.server.address() as AddressInfo;
    return `http://127.0.0.1:${port}`;
  }

  /** Appends answers and faults; each POST /v1/messages takes the next one. */
  enqueue(...entries: Scripted[]): void {
    this.queue.push(...entries);
  }

  /** Scripted entries not yet served. */
  get pending(): number {
    return this.queue.length;
  }

  /** Recorded POST /v1/messages requests only. */
  get messageRequests(): RecordedRequest[] {
    return this.requests.filter((r) => r.method === 'POST' && r.path === '/v1/messages');
  }

  /** Resolves once at least `count` requests have been recorded. */
  waitForRequests(count: number): Promise<void> {
    if (this.requests.length >= count) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ count, resolve }));
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const raw = await readBody(req);
    let body: unknown;
    if (raw.length > 0) {
      try {
        body = JSON.parse(raw);
      } catch {
        sendError(res, 400, 'invalid_request_error', 'messagesApiServer: body is not JSON');
        return;
      }
    }
    this.record({ method: req.method ?? '', path: url.pathname, query: url.searchParams, headers: req.headers, body, receivedAt: Date.now() });
    if (req.method === 'GET' && url.pathname === '/v1/models') return this.serveModels(url.searchParams, res);
    if (req.method === 'POST' && url.pathname === '/v1/messages') return this.serveMessage(body, res);
    sendError(res, 404, 'not_found_error', `messagesApiServer: no route ${req.method} ${url.pathname}`);
  }

  private record(request: RecordedRequest): void {
    this.requests.push(request);
    for (const w of this.waiters.filter((x) => this.requests.length >= x.count)) {
      this.waiters.splice(this.waiters.indexOf(w), 1);
      w.resolve();
    }
  }

  private serveModels(query: URLSearchParams, res: ServerResponse): void {
    // Like the API, a page never exceeds the server's cap whatever `limit` asks.
    const limit = Math.min(Number(query.get('limit') ?? this.modelsPageSize), this.modelsPageSize);
    const afterId = query.get('after_id');
    const start = afterId ? this.models.findIndex((m) => m.id === afterId) + 1 : 0;
    const page = this.models.slice(start, start + limit).map((m) => ({
      type: 'model',
      id: m.id,
      display_name: m.display_name ?? m.id,
      created_at: '2026-01-01T00:00:00Z',
      max_input_tokens: m.max_input_tokens ?? null,
      max_tokens: m.max_tokens ?? null,
      lifecycle: m.lifecycle ?? 'active',
    }));
    sendJson(res, 200, {
      data: page,
      has_more: start + limit < this.models.length,
      first_id: page[0]?.id ?? null,
      last_id: page[page.length - 1]?.id ?? null,
    });
  }

  private async serveMessage(body: unknown, res: ServerResponse): Promise<void> {
    const next = this.queue.shift();
    if (!next) {
      sendError(res, 400, 'invalid_request_error', 'messagesApiServer: no scripted answer left for this request');
      return;
    }
    const request = (body ?? {}) as { stream?: boolean; model?: string };
    const model = request.model ?? 'unknown-model';
    if ('fault' in next && next.fault === 'status') {
      const headers: Record<string, string> = next.retryAfter ? { 'retry-after': next.retryAfter } : {};
      sendError(res, next.status, next.errorType, next.message, headers);
      return;
    }
    const answer = 'fault' in next ? next.answer : next;
    const id = `msg_${String(++this.idCounter).padStart(4, '0')}`;
    if (!request.stream) {
      if ('fault' in next) {
        sendError(res, 500, 'api_error', `messagesApiServer: fault '${next.fault}' needs a streaming request`);
        return;
      }
      sendJson(res, 200, answerMessage(answer, id, model));
      return;
    }
    await this.streamAnswer(res, next, answerEvents(answer, id, model, this.chunkSize));
  }

  private async streamAnswer(res: ServerResponse, entry: Scripted, events: string[]): Promise<void> {
    const fault = 'fault' in entry ? entry : undefined;
    if (fault?.fault === 'stall' && fault.afterEvents === undefined) await pause(fault.ms, res);
    if (res.destroyed) return;
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', 'request-id': 'req_local' });
    for (let i = 0; i < events.length; i++) {
      if (fault && 'afterEvents' in fault && fault.afterEvents === i) {
        if (fault.fault === 'cut') {
          if (fault.how === 'destroy') res.socket?.destroy();
          else res.end();
          return;
        }
        if (fault.fault === 'stream_error') {
          res.end(sse('error', { type: 'error', error: { type: fault.errorType, message: fault.message } }));
          return;
        }
        if (fault.fault === 'stall') await pause(fault.ms, res);
      }
      if (res.destroyed) return;
      // Each event is flushed on its own, so the client sees separate chunks and a later cut
      // cannot swallow events already "sent".
      await new Promise<void>((resolve) => res.write(events[i], () => resolve()));
    }
    res.end();
  }
}

/** One SSE frame as the API writes it. */
export function sse(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

function sendJson(res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', 'request-id': 'req_local', ...headers });
  res.end(JSON.stringify(value));
}

function sendError(res: ServerResponse, status: number, type: string, message: string, headers: Record<string, string> = {}): void {
  sendJson(res, status, { type: 'error', error: { type, message }, request_id: 'req_local' }, headers);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** Waits `ms`, or less if the client goes away. */
function pause(ms: number, res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    res.once('close', done);
    function done(): void {
      clearTimeout(timer);
      res.off('close', done);
      resolve();
    }
  });
}
