import type { Exchange } from '../exchange';
import { blockText } from '../blockTokens';

/** What an exchange or a text talks about: files, code symbols, error signatures. */
export interface Entities {
  files: string[];
  symbols: string[];
  errors: string[];
}

const MAX_PER_KIND = 50;
/** Only this much of any one text is scanned: entities of a 50 MB log are in its head and tail. */
const SCAN_CHARS = 40_000;

// Bounded quantifiers only: these run on arbitrary tool output.
const FILE = /(?:^|[\s"'`(\[=:,])((?:\.{0,2}\/)?(?:[\w@.+-]{1,64}\/){0,12}[\w@+-][\w@.+-]{0,80}\.[A-Za-z][A-Za-z0-9]{0,7})(?=$|[\s"'`)\]:,;!?]|\.(?:\s|$))/gm;
const CAMEL = /\b([a-z][a-z0-9]{1,30}(?:[A-Z][a-z0-9]{0,30}){1,6})\b/g;
const PASCAL = /\b([A-Z][a-z0-9]{1,30}(?:[A-Z][a-z0-9]{0,30}){1,6})\b/g;
const SNAKE = /\b([a-z][a-z0-9]{0,30}(?:_[a-z0-9]{1,30}){1,6})\b/g;
const ERROR_LINE = /^.{0,40}?\b((?:[A-Z][A-Za-z]{0,40}(?:Error|Exception)|error TS\d{4}|FAILED [\w/.:\[\]-]{1,120}|npm ERR!|panic:|fatal:)[^\n]{0,60})/gm;
const NOT_FILES = new Set(['e.g', 'i.e', 'etc.', 'vs.']);
const FILE_EXT_BLOCKLIST = /\.(?:com|org|net|io|dev)$/;

/** Files, symbols and error signatures in `text`, first-seen order, deduplicated, capped. */
export function extractEntities(text: string): Entities {
  const scanned = text.length > SCAN_CHARS * 2 ? `${text.slice(0, SCAN_CHARS)}\n${text.slice(-SCAN_CHARS)}` : text;
  const files = collect(scanned, FILE, (m) => (NOT_FILES.has(m) || /^\d/.test(m) || m.includes('://') || FILE_EXT_BLOCKLIST.test(m) ? undefined : m));
  const symbols = collect(scanned, CAMEL).concat(collect(scanned, PASCAL), collect(scanned, SNAKE));
  const errors = collect(scanned, ERROR_LINE, (m) => m.trim().slice(0, 80));
  return { files: unique(files), symbols: unique(symbols), errors: unique(errors) };
}

/** Entities of both messages of an exchange; tool-call arguments (paths, commands) come first. */
export function exchangeEntities(exchange: Exchange): Entities {
  const argumentTexts: string[] = [];
  const otherTexts: string[] = [];
  for (const block of exchange.output.content) {
    if (block.type === 'tool_use') argumentTexts.push(argumentText(block.input));
    else otherTexts.push(blockText(block));
  }
  for (const block of exchange.input.content) otherTexts.push(blockText(block));
  const parts = [...argumentTexts, ...otherTexts].map(extractEntities);
  return {
    files: unique(parts.flatMap((p) => p.files)),
    symbols: unique(parts.flatMap((p) => p.symbols)),
    errors: unique(parts.flatMap((p) => p.errors)),
  };
}

function argumentText(input: unknown): string {
  if (input === null || typeof input !== 'object') return String(input ?? '');
  return Object.values(input as Record<string, unknown>)
    .map((v) => (typeof v === 'string' ? v : JSON.stringify(v) ?? ''))
    .join('\n');
}

function collect(text: string, pattern: RegExp, map: (m: string) => string | undefined = (m) => m): string[] {
  const out: string[] = [];
  pattern.lastIndex = 0;
  for (const match of text.matchAll(pattern)) {
    const value = map(match[1] ?? '');
    if (value) out.push(value);
    if (out.length >= MAX_PER_KIND * 4) break;
  }
  return out;
}

function unique(items: string[]): string[] {
  return [...new Set(items)].slice(0, MAX_PER_KIND);
}
