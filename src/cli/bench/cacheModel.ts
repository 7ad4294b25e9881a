import { createHash } from 'node:crypto';
import type { ContentBlock, MessagesRequest } from '../../shared/messages';
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

/** A prefix of some request: one node per segment sequence seen, so prefixes compare by identity. */
interface PrefixNode {
  readonly children: Map<string, PrefixNode>;
}

/**
 * Prompt-cache model of one conversation: a request reads the longest prefix, ending at a
 * breakpoint of an earlier request that wrote it (>= 1,024 tokens) and not past the request's
 * own last breakpoint; it writes from there up to its own last breakpoint; the rest is plain input.
 * Prefixes are compared byte for byte: each segment is keyed by a hash of its canonical JSON
 * (cache marks removed) and a prefix is a path in a trie of those keys. Cache lifetime is taken as unlimited.
 */
export class PromptCache {
  private readonly root: PrefixNode = { children: new Map() };
  private readonly written = new Set<PrefixNode>();

  bill(request: MessagesRequest, count: (s: string) => number): BilledInput {
    const points = prefixPoints(request, count, this.root);
    const total = points.length ? points[points.length - 1]!.tokens : 0;
    let lastBreakpoint = 0;
    for (const p of points) if (p.breakpoint) lastBreakpoint = Math.max(lastBreakpoint, p.tokens);
    // The read may end at any block an earlier request wrote a breakpoint after, up to this request's last breakpoint.
    let read = 0;
    for (const p of points) {
      if (p.tokens > lastBreakpoint) break;
      if (p.tokens >= MIN_CACHEABLE && this.written.has(p.node)) read = p.tokens;
    }
    for (const p of points) if (p.breakpoint && p.tokens >= MIN_CACHEABLE) this.written.add(p.node);
    const write = lastBreakpoint >= MIN_CACHEABLE ? Math.max(0, lastBreakpoint - read) : 0;
    return { total, cacheRead: read, cacheWrite: write, plain: total - read - write };
  }
}

export function inputCost(b: BilledInput): number {
  return b.plain * PRICE.input + b.cacheWrite * PRICE.cacheWrite + b.cacheRead * PRICE.cacheRead;
}

interface PrefixPoint {
  node: PrefixNode;
  tokens: number;
  breakpoint: boolean;
}

/** A segment's content hash and tokens, memoised per block object (blocks are never mutated) and per tokenizer. */
interface Segment {
  key: string;
  tokens: number;
}
const segmentMemo = new WeakMap<(s: string) => number, WeakMap<object, Segment>>();

function segment(block: ContentBlock, count: (s: string) => number): Segment {
  let memo = segmentMemo.get(count);
  if (!memo) {
    memo = new WeakMap();
    segmentMemo.set(count, memo);
  }
  const hit = memo.get(block);
  if (hit) return hit;
  const { cache_control: _c, ...rest } = block;
  const made = { key: createHash('sha1').update(JSON.stringify(rest)).digest('base64'), tokens: blockTokens(block, count) };
  memo.set(block, made);
  return made;
}

/**
 * The request as a chain of segments in the order the API caches them (tools, system, then
 * message blocks); each point carries the trie node of the prefix up to that segment and its tokens.
 */
function prefixPoints(request: MessagesRequest, count: (s: string) => number, root: PrefixNode): PrefixPoint[] {
  const points: PrefixPoint[] = [];
  let node = root;
  let tokens = 0;
  const push = (key: string, t: number, breakpoint: boolean) => {
    let next = node.children.get(key);
    if (!next) {
      next = { children: new Map() };
      node.children.set(key, next);
    }
    node = next;
    tokens += t;
    points.push({ node, tokens, breakpoint });
  };
  if (request.tools.length) {
    const marked = request.tools.some((t) => t.cache_control);
    push(`t${createHash('sha1').update(JSON.stringify(request.tools.map(({ cache_control: _c, ...t }) => t))).digest('base64')}`, toolsTokens(request.tools, count), marked);
  }
  for (const block of request.system) {
    const s = segment(block, count);
    push(`s${s.key}`, s.tokens, block.cache_control !== undefined);
  }
  for (const message of request.messages) {
    message.content.forEach((block, i) => {
      const s = segment(block, count);
      push(i === 0 ? `|${message.role}|${s.key}` : s.key, s.tokens + (i === 0 ? MESSAGE_OVERHEAD : 0), block.cache_control !== undefined);
    });
  }
  return points;
}
