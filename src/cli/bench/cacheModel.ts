import { createHash } from 'node:crypto';
import type { MessagesRequest } from '../../shared/messages';
import { blockTokens, MESSAGE_OVERHEAD, toolsTokens } from '../../engine/blockTokens';

/** Anthropic's price ratios for Sonnet-class models, in units of one plain input token. */
export const PRICE = { input: 1, cacheWrite: 1.25, cacheRead: 0.1, output: 5 } as const;

/** Smallest prefix Anthropic caches, tokens. */
export const MIN_CACHEABLE = 1_024;

/** How one request's input tokens are billed. */
export interface BilledInput {
  total: number;
  cacheRead: number;
  cacheWrite: number;
  plain: number;
}

/**
 * Prompt-cache model of one conversation: a request reads the longest prefix, ending at a
 * breakpoint of an earlier request that wrote it (>= 1,024 tokens) and not past the request's
 * own last breakpoint; it writes from there up to its own last breakpoint; the rest is plain input. Prefixes are compared byte for byte (hashes of
 * the canonical request, cache marks removed). Cache lifetime is taken as unlimited.
 */
export class PromptCache {
  private readonly written = new Set<string>();

  bill(request: MessagesRequest, count: (s: string) => number): BilledInput {
    const points = prefixPoints(request, count);
    const total = points.length ? points[points.length - 1]!.tokens : 0;
    let lastBreakpoint = 0;
    for (const p of points) if (p.breakpoint) lastBreakpoint = Math.max(lastBreakpoint, p.tokens);
    // The read may end at any block an earlier request wrote a breakpoint after, up to this request's last breakpoint.
    let read = 0;
    for (const p of points) {
      if (p.tokens > lastBreakpoint) break;
      if (p.tokens >= MIN_CACHEABLE && this.written.has(p.hash)) read = p.tokens;
    }
    for (const p of points) if (p.breakpoint && p.tokens >= MIN_CACHEABLE) this.written.add(p.hash);
    const write = lastBreakpoint >= MIN_CACHEABLE ? Math.max(0, lastBreakpoint - read) : 0;
    return { total, cacheRead: read, cacheWrite: write, plain: total - read - write };
  }
}

export function inputCost(b: BilledInput): number {
  return b.plain * PRICE.input + b.cacheWrite * PRICE.cacheWrite + b.cacheRead * PRICE.cacheRead;
}

interface PrefixPoint {
  hash: string;
  tokens: number;
  breakpoint: boolean;
}

/**
 * The request as a chain of segments in the order the API caches them (tools, system, then
 * message blocks); each point carries the running hash and token count up to that segment.
 */
export function prefixPoints(request: MessagesRequest, count: (s: string) => number): PrefixPoint[] {
  const points: PrefixPoint[] = [];
  let hash = '';
  let tokens = 0;
  const push = (canonical: string, t: number, breakpoint: boolean) => {
    hash = createHash('sha1').update(hash).update(canonical).digest('hex');
    tokens += t;
    points.push({ hash, tokens, breakpoint });
  };
  if (request.tools.length) {
    const marked = request.tools.some((t) => t.cache_control);
    push(JSON.stringify(request.tools.map(({ cache_control: _c, ...t }) => t)), toolsTokens(request.tools, count), marked);
  }
  for (const block of request.system) {
    const { cache_control, ...rest } = block;
    push(`s${JSON.stringify(rest)}`, blockTokens(block, count), cache_control !== undefined);
  }
  for (const message of request.messages) {
    message.content.forEach((block, i) => {
      const { cache_control, ...rest } = block;
      const overhead = i === 0 ? MESSAGE_OVERHEAD : 0;
      push(`${i === 0 ? `|${message.role}|` : ''}${JSON.stringify(rest)}`, blockTokens(block, count) + overhead, cache_control !== undefined);
    });
  }
  return points;
}
