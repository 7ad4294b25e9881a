import type { ContentBlock } from '../../shared/messages';
import type { Exchange } from '../exchange';

/** What an exchange or a text talks about: files, code symbols, error signatures. */
export interface Entities {
  files: string[];
  symbols: string[];
  errors: string[];
}

const MAX_PER_KIND = 50;
/** Longest token still taken for a path; longer runs (minified code, base64) are skipped whole. */
const MAX_PATH_CHARS = 260;
const MAX_SYMBOL_CHARS = 60;
/** exchangeEntities reads at most this head and tail of each text: a 50 MB log costs as much as a short one. */
const SCAN_HEAD = 64_000;
const SCAN_TAIL = 16_000;
/** Blocks of one message looked at. */
const MAX_BLOCKS = 64;

// Every pattern below has bounded or unambiguous repetition, so a scan is linear in the text.
const TOKEN = /[^\s"'`()<>[\]{},;|*]+/g;
const FILE_PATH = /^(?:~|\.{1,2})?\/?(?:[\w@+-][\w.@+-]*\/)*[\w@+-][\w.@+-]*\.([A-Za-z0-9]{1,8})$/;
const IDENT_CHAIN = /[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*/g;
const ERROR_NAME = /\b((?:[A-Z][A-Za-z0-9]{0,40})?(?:Error|Exception))\b(?::[ \t]*([^\n]{0,100}))?/g;
const OTHER_ERRORS = /\berror (?:TS\d{4,5})\b|\berror\[E\d{4}\]|\bFAILED [\w./-]{1,200}::[\w.:[\]()-]{1,200}|npm ERR! [^\n]{1,70}|^panic: [^\n]{1,70}/gm;
const TRACEBACK = 'Traceback (most recent call last):';
const URL_LIKE = /:\/\/|^www\.|^[\w-]+\.(?:com|org|net|io|dev|ai)\//;

/** Extensions a bare name (no slash) must have to count as a file, so `os.path` or `e.g` do not. */
const KNOWN_EXTENSIONS = new Set(
  ('ts tsx js jsx mjs cjs json jsonl md mdx py pyi ipynb rs go java kt kts scala c h cc cpp hpp cs rb php swift m ' +
    'sh bash zsh ps1 yml yaml toml ini cfg conf env txt rst html htm css scss sass less vue svelte sql xml csv tsv ' +
    'lock log proto graphql gql tf lua pl r dart ex exs erl hs ml el clj gradle properties dockerfile mk cmake ' +
    'png jpg jpeg gif svg ico pdf zip gz tar wasm map snap patch diff db sqlite').split(' '),
);

/**
 * Files, code symbols and error signatures named in `text`: deduplicated, first-seen order,
 * at most 50 of each. Linear in the text length (one pass per kind, bounded patterns).
 */
export function extractEntities(text: string): Entities {
  return { files: filesIn(text), symbols: symbolsIn(text), errors: errorsIn(text) };
}

/**
 * Entities of both messages of an exchange. Tool-call arguments (file_path, path, command,
 * edited strings) come first, then the answer's text, then the input; big texts are read head and tail.
 */
export function exchangeEntities(exchange: Exchange): Entities {
  const files = new Collector();
  const symbols = new Collector();
  const errors = new Collector();
  const add = (e: Entities) => {
    files.addAll(e.files);
    symbols.addAll(e.symbols);
    errors.addAll(e.errors);
  };
  const output = exchange.output.content.slice(0, MAX_BLOCKS);
  const full = () => files.full && symbols.full && errors.full;
  for (const block of output) {
    if (block.type !== 'tool_use' || full()) continue;
    const input = asRecord(block.input);
    const path = input.file_path ?? input.notebook_path;
    if (typeof path === 'string' && path.trim() !== '') files.add(path.trim());
    if (typeof input.path === 'string' && isFilePath(input.path.trim())) files.add(input.path.trim());
    for (const key of ['command', 'pattern', 'old_string', 'new_string', 'content']) {
      const value = input[key];
      if (typeof value === 'string') add(extractEntities(headTail(value, SCAN_HEAD, SCAN_TAIL)));
    }
  }
  for (const block of output) if (block.type === 'text' && !full()) add(extractEntities(headTail(block.text, SCAN_HEAD, SCAN_TAIL)));
  for (const block of exchange.input.content.slice(0, MAX_BLOCKS)) if (!full()) add(extractEntities(inputText(block)));
  return { files: files.items, symbols: symbols.items, errors: errors.items };
}

/** True for a plausible file path with an extension (`src/a.ts`, `/x/y.py`, `./c.json`, `README.md`); never a URL. */
export function isFilePath(candidate: string): boolean {
  if (candidate.length > MAX_PATH_CHARS || URL_LIKE.test(candidate)) return false;
  const match = FILE_PATH.exec(candidate);
  const ext = match?.[1];
  if (!ext || !/[A-Za-z]/.test(ext)) return false;
  if (candidate.includes('/')) return true;
  return /[A-Za-z]/.test(candidate.slice(0, -ext.length - 1)) && KNOWN_EXTENSIONS.has(ext.toLowerCase());
}

/** The first `head` and last `tail` characters of a long text, joined by a newline; short texts unchanged. */
export function headTail(text: string, head: number, tail: number): string {
  return text.length <= head + tail ? text : `${text.slice(0, head)}\n${text.slice(text.length - tail)}`;
}

function filesIn(text: string): string[] {
  const out = new Collector();
  const pattern = new RegExp(TOKEN.source, 'g');
  const verdicts = new Map<string, string>();
  for (let match = pattern.exec(text); match !== null && !out.full; match = pattern.exec(text)) {
    const token = match[0];
    if (token.length > MAX_PATH_CHARS || token.indexOf('.') === -1) continue;
    let path = verdicts.get(token);
    if (path === undefined) {
      const candidate = cleanPathToken(token);
      path = isFilePath(candidate) ? candidate : '';
      if (verdicts.size < 10_000) verdicts.set(token, path);
    }
    if (path !== '') out.add(path);
  }
  return out.items;
}

/** `--config=a.json` -> `a.json`, `x.py::test_y` -> `x.py`, `src/a.ts:12:5.` -> `src/a.ts`. */
function cleanPathToken(token: string): string {
  let t = token.slice(token.lastIndexOf('=') + 1);
  const nodeId = t.indexOf('::');
  if (nodeId !== -1) t = t.slice(0, nodeId);
  t = t.replace(/^[@#:]+/, '').replace(/[.,:;!?]+$/, '');
  return t.replace(/(?::\d{1,7}){1,2}$/, '');
}

function symbolsIn(text: string): string[] {
  const out = new Collector();
  const pattern = new RegExp(IDENT_CHAIN.source, 'g');
  const verdicts = new Map<string, string[]>();
  for (let match = pattern.exec(text); match !== null && !out.full; match = pattern.exec(text)) {
    const chain = match[0];
    const before = match.index > 0 ? text.charCodeAt(match.index - 1) : 32;
    if (chain.length < 3 || chain.length > MAX_SYMBOL_CHARS * 2 || isWordChar(before) || before === 47 /* / */) continue;
    const end = match.index + chain.length;
    const isCall = chain.includes('.') && text.charCodeAt(end) === 40 /* ( */ && !isDigit(text.charCodeAt(end + 1));
    const key = isCall ? `${chain}(` : chain;
    let found = verdicts.get(key);
    if (!found) {
      found = symbolsOfChain(chain, isCall);
      if (verdicts.size < 10_000) verdicts.set(key, found);
    }
    out.addAll(found);
  }
  return out.items;
}

/** `a.b.c(` is one symbol; otherwise each clear part is, unless the chain is a file name. */
function symbolsOfChain(chain: string, isCall: boolean): string[] {
  const dot = chain.lastIndexOf('.');
  if (dot === -1) return isClearSymbol(chain) ? [chain] : [];
  if (isCall) return chain.split('.').some(looksRandom) ? [] : [chain];
  if (KNOWN_EXTENSIONS.has(chain.slice(dot + 1).toLowerCase())) return [];
  return chain.split('.').filter(isClearSymbol);
}

/** camelCase, PascalCase with an inner capital, or snake_case; not random-looking ids or hashes. */
function isClearSymbol(id: string): boolean {
  if (id.length < 3 || id.length > MAX_SYMBOL_CHARS) return false;
  const shaped = /^[a-z][a-z0-9]*[A-Z]|^[A-Z][a-z0-9]+[A-Z]|^[A-Z]{2,}[a-z]/.test(id) || (/[A-Za-z0-9]_+[A-Za-z0-9]|^__\w+__$/.test(id) && /[A-Za-z]/.test(id));
  return shaped && !looksRandom(id);
}

/** Tool ids, hashes and base64 look like identifiers: real names rarely mix 3+ digits or half capitals into a word. */
function looksRandom(id: string): boolean {
  for (const segment of id.split('_')) {
    let digits = 0;
    let upper = 0;
    let lower = 0;
    for (let i = 0; i < segment.length; i++) {
      const c = segment.charCodeAt(i);
      if (c >= 48 && c <= 57) digits += 1;
      else if (c >= 65 && c <= 90) upper += 1;
      else if (c >= 97 && c <= 122) lower += 1;
    }
    if (digits >= 3 && digits < segment.length) return true;
    if (upper + lower > 8 && lower > 0 && upper >= lower) return true;
  }
  return false;
}

function errorsIn(text: string): string[] {
  const found: Array<{ at: number; value: string }> = [];
  for (const m of text.matchAll(ERROR_NAME)) {
    const name = m[1] ?? '';
    const message = (m[2] ?? '').trim();
    if ((name === 'Error' || name === 'Exception') && m[0].indexOf(':') === -1) continue;
    found.push({ at: m.index, value: signature(message ? `${name}: ${message}` : name) });
    if (found.length >= MAX_PER_KIND * 4) break;
  }
  for (const m of text.matchAll(OTHER_ERRORS)) {
    found.push({ at: m.index, value: signature(m[0]) });
    if (found.length >= MAX_PER_KIND * 8) break;
  }
  found.push(...tracebackEnds(text));
  found.sort((a, b) => a.at - b.at);
  const out = new Collector();
  out.addAll(found.map((f) => f.value));
  return out.items;
}

/** The exception line ending each Python traceback (first unindented line after the header), module prefix dropped. */
function tracebackEnds(text: string): Array<{ at: number; value: string }> {
  const out: Array<{ at: number; value: string }> = [];
  let from = text.indexOf(TRACEBACK);
  while (from !== -1 && out.length < MAX_PER_KIND) {
    let lineStart = text.indexOf('\n', from) + 1;
    let found: { at: number; end: number } | undefined;
    while (lineStart > 0 && lineStart < text.length) {
      const end = text.indexOf('\n', lineStart);
      const lineEnd = end === -1 ? text.length : end;
      const first = text.charCodeAt(lineStart);
      if (lineEnd > lineStart && first !== 32 && first !== 9) {
        found = { at: lineStart, end: lineEnd };
        break;
      }
      lineStart = lineEnd + 1;
    }
    if (!found) break;
    const line = text.slice(found.at, Math.min(found.end, found.at + 200));
    if (!line.startsWith(TRACEBACK)) out.push({ at: found.at, value: signature(line.replace(/^(?:[A-Za-z_]\w{0,60}\.){1,8}(?=[A-Za-z_]\w{0,60}(?::|$))/, '')) });
    from = text.indexOf(TRACEBACK, line.startsWith(TRACEBACK) ? found.at : found.end);
  }
  return out;
}

/** One line, at most 80 characters. */
function signature(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= 80 ? line : `${line.slice(0, 79).trimEnd()}…`;
}

/** Head and tail of an input block's text; a huge tool output is never joined or copied whole. */
function inputText(block: ContentBlock): string {
  if (block.type === 'text') return headTail(block.text, SCAN_HEAD, SCAN_TAIL);
  if (block.type !== 'tool_result') return '';
  const parts = typeof block.content === 'string' ? [block.content] : block.content.map((b) => b.text);
  return headTail(parts.map((t) => headTail(t, SCAN_HEAD, SCAN_TAIL)).join('\n'), SCAN_HEAD, SCAN_TAIL);
}

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

function isWordChar(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95 || code === 36;
}

/** Keeps first-seen order, drops repeats, stops at MAX_PER_KIND. */
class Collector {
  readonly items: string[] = [];
  private readonly seen = new Set<string>();

  get full(): boolean {
    return this.items.length >= MAX_PER_KIND;
  }

  add(item: string): void {
    if (this.full || this.seen.has(item)) return;
    this.seen.add(item);
    this.items.push(item);
  }

  addAll(items: string[]): void {
    for (const item of items) this.add(item);
  }
}
