import { StrataError } from '../../shared/strataError';

/** Alternatives `{a,b}` may expand to, at most (a glob is the model's input). */
export const GLOB_MAX_ALTERNATIVES = 256;

/** Tests workspace-relative POSIX paths against one file glob. */
export interface GlobMatcher {
  test(path: string): boolean;
}

type Token = { kind: 'star' } | { kind: 'one' } | { kind: 'class'; set: RegExp } | { kind: 'char'; ch: string };
/** A path segment's tokens, or `globstar` for a whole `**` segment (any number of segments). */
type Segment = Token[] | 'globstar';

/**
 * A file glob as ripgrep's `--glob` reads it: `*` and `?` stay within one path segment, a `**`
 * segment crosses segments, `{a,b}` and `[abc]` / `[!abc]` work, `\` escapes, and a glob without
 * `/` matches the base name at any depth (`*.ts`). Matching takes time proportional to the glob
 * times the path (no backtracking regular expression: `*a*a*a*a*b` against a long name took
 * 38 s that way), so a glob the model writes cannot stall the host.
 */
export function compileGlob(glob: string): GlobMatcher {
  const alternatives = expandBraces(glob).map((alt) => {
    const anchored = alt.includes('/');
    return { anchored, segments: alt.replace(/^\//, '').split('/').map(segmentOf) };
  });
  return {
    test(path: string): boolean {
      const parts = path.split('/');
      const base = parts.slice(-1);
      return alternatives.some((a) => matchSegments(a.segments, a.anchored ? parts : base));
    },
  };
}

/** `a{b,c{d,e}}` -> `ab`, `acd`, `ace`; an unclosed `{` runs to the end; refuses more than GLOB_MAX_ALTERNATIVES. */
function expandBraces(glob: string): string[] {
  const open = findUnescaped(glob, '{', 0);
  if (open < 0) return [glob];
  let depth = 0;
  let close = glob.length;
  const commas: number[] = [];
  for (let i = open; i < glob.length; i++) {
    const c = glob[i];
    if (c === '\\') i++;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) {
      close = i;
      break;
    } else if (c === ',' && depth === 1) commas.push(i);
  }
  const bounds = [open, ...commas, close];
  const options = bounds.slice(1).map((end, k) => glob.slice(bounds[k]! + 1, end));
  const rest = expandBraces(glob.slice(close + 1));
  const out: string[] = [];
  for (const option of options) {
    for (const head of expandBraces(option)) {
      for (const tail of rest) {
        out.push(glob.slice(0, open) + head + tail);
        if (out.length > GLOB_MAX_ALTERNATIVES) {
          throw new StrataError(`The file_pattern '${glob}' expands to more than ${GLOB_MAX_ALTERNATIVES} alternatives through {a,b}; use fewer braces or a plainer pattern.`, 'search-pattern');
        }
      }
    }
  }
  return out;
}

function findUnescaped(text: string, ch: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === ch) return i;
  }
  return -1;
}

function segmentOf(part: string): Segment {
  if (part === '**') return 'globstar';
  const tokens: Token[] = [];
  for (let i = 0; i < part.length; i++) {
    const c = part[i]!;
    if (c === '*') {
      if (tokens[tokens.length - 1]?.kind !== 'star') tokens.push({ kind: 'star' });
    } else if (c === '?') tokens.push({ kind: 'one' });
    else if (c === '[' && part.indexOf(']', i + 2) >= 0) {
      const close = part.indexOf(']', i + 2);
      tokens.push({ kind: 'class', set: classOf(part.slice(i + 1, close)) });
      i = close;
    } else if (c === '\\' && i + 1 < part.length) tokens.push({ kind: 'char', ch: part[++i]! });
    else tokens.push({ kind: 'char', ch: c });
  }
  return tokens;
}

/** `[abc]`, `[a-z]`, `[!abc]` as a one-character test. */
function classOf(inner: string): RegExp {
  try {
    return new RegExp(`^[${inner.replace(/^!/, '^').replace(/\\/g, '\\\\')}]$`);
  } catch {
    throw new StrataError(`The file_pattern has an invalid character class [${inner}]; write ranges low to high, e.g. [a-z].`, 'search-pattern');
  }
}

function matchToken(token: Token, ch: string): boolean {
  if (token.kind === 'one') return ch !== '/';
  if (token.kind === 'class') return token.set.test(ch);
  return token.kind === 'char' && token.ch === ch;
}

/** One segment, `*` as "any run": the classic wildcard walk, which retries only from the latest star. */
function matchSegment(tokens: readonly Token[], text: string): boolean {
  let t = 0;
  let i = 0;
  let starAt = -1;
  let starText = 0;
  while (i < text.length) {
    const token = tokens[t];
    if (token && token.kind !== 'star' && matchToken(token, text[i]!)) {
      t++;
      i++;
    } else if (token?.kind === 'star') {
      starAt = t++;
      starText = i;
    } else if (starAt >= 0) {
      t = starAt + 1;
      i = ++starText;
    } else return false;
  }
  while (tokens[t]?.kind === 'star') t++;
  return t === tokens.length;
}

/** Segments against path parts; `globstar` takes zero or more parts. Memoized: glob segments x path parts steps at most. */
function matchSegments(segments: readonly Segment[], parts: readonly string[]): boolean {
  const memo = new Map<number, boolean>();
  const at = (s: number, p: number): boolean => {
    const key = s * (parts.length + 1) + p;
    const known = memo.get(key);
    if (known !== undefined) return known;
    const segment = segments[s];
    let result: boolean;
    if (segment === undefined) result = p === parts.length;
    else if (segment === 'globstar') result = at(s + 1, p) || (p < parts.length && at(s, p + 1));
    else result = p < parts.length && matchSegment(segment, parts[p]!) && at(s + 1, p + 1);
    memo.set(key, result);
    return result;
  };
  return at(0, 0);
}
