import { StrataError } from '../shared/strataError';

export interface UrlFetchOptions {
  /** Bytes read from the response at most; the rest is not downloaded. */
  maxBytes?: number;
  /** Milliseconds before the fetch is given up. */
  timeoutMs?: number;
}

const DEFAULT_MAX_BYTES = 512 * 1024;
const DEFAULT_TIMEOUT_MS = 15_000;

/**
 * Fetches a web page for an `@url` mention (Node's own fetch): size-capped while streaming,
 * timed out, HTML reduced to its readable text. Only http(s); errors say what failed.
 */
export async function fetchUrlText(url: string, options: UrlFetchOptions = {}, signal?: AbortSignal): Promise<string> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new StrataError(`'${url}' is not a valid URL.`, 'url_invalid');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new StrataError(`Only http and https URLs can be fetched, not ${parsed.protocol}`, 'url_invalid');
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const timeout = AbortSignal.timeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
  let response: Response;
  try {
    response = await fetch(parsed, { signal: combined, redirect: 'follow', headers: { accept: 'text/html, text/plain, application/json;q=0.9, */*;q=0.5' } });
  } catch (error) {
    const why = timeout.aborted ? `no answer within ${options.timeoutMs ?? DEFAULT_TIMEOUT_MS} ms` : error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error);
    throw new StrataError(`Could not fetch ${url}: ${why}.`, 'url_unreachable');
  }
  if (!response.ok) throw new StrataError(`Fetching ${url} answered HTTP ${response.status}.`, 'url_status');
  const { bytes, cut } = await readCapped(response, maxBytes);
  const type = response.headers.get('content-type') ?? '';
  if (!/^(text\/|application\/(json|xml|xhtml))/.test(type) && type !== '') return `(${url} is ${type}, not text; nothing to show)`;
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  const body = /html/.test(type) ? htmlToText(text) : text;
  return cut ? `${body}\n… (cut at ${maxBytes} bytes)` : body;
}

async function readCapped(response: Response, maxBytes: number): Promise<{ bytes: Uint8Array; cut: boolean }> {
  const reader = response.body?.getReader();
  if (!reader) return { bytes: new Uint8Array(), cut: false };
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { bytes: concat(chunks, size), cut: false };
    chunks.push(value);
    size += value.byteLength;
    // Over, not at, the cap: a body of exactly `maxBytes` ends at the next read and is whole.
    if (size > maxBytes) {
      await reader.cancel();
      return { bytes: concat(chunks, size).subarray(0, maxBytes), cut: true };
    }
  }
}

function concat(chunks: Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

/** Readable text of an HTML page: scripts, styles and tags removed, entities decoded, blank runs collapsed. */
export function htmlToText(html: string): string {
  return html
    .replace(/<(script|style|noscript|svg)[\s\S]*?<\/\1>/gi, '')
    .replace(/<br\s*\/?>|<\/(p|div|li|h[1-6]|tr|pre|section|article)>/gi, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
