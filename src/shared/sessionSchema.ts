import { z } from 'zod';
import type { ContentBlock, Message, TextBlock, ToolResultBlock } from './messages';
import { StrataError } from './strataError';

/** What a session file must look like; quoted in every format error. */
const EXPECTED_FORMAT =
  'Expected JSON Lines: line 1 {"meta": {...}} (optional), then one Anthropic message per line, ' +
  '{"role": "user" | "assistant", "content": [text / tool_use / tool_result blocks]}.';

/** Characters of a tool output sampled for control characters; NULs are searched everywhere. */
const BINARY_SAMPLE_CHARS = 65_536;

const optionalText = z.string().optional().catch(undefined);

/** Line 1 of a session file. Unknown fields are kept; a `system` of text blocks is joined. */
export const sessionMetaSchema = z.looseObject({
  source: optionalText,
  agent: optionalText,
  model: optionalText,
  session_id: optionalText,
  cwd: optionalText,
  system: z
    .union([z.string(), z.array(z.looseObject({ text: z.string() }))])
    .nullish()
    .catch(undefined)
    .transform((s) => (Array.isArray(s) ? s.map((b) => b.text).join('\n') : (s ?? undefined))),
});

/** Session meta with every field optional (a file without a meta line gets `{}`). */
export interface SessionMeta {
  source?: string;
  agent?: string;
  model?: string;
  session_id?: string;
  /** The folder the agent worked in (absolute), when the source recorded it. */
  cwd?: string;
  /** The agent's system prompt, when the source recorded one. */
  system?: string;
  [key: string]: unknown;
}

const textBlockSchema = z.object({ type: z.literal('text'), text: z.string() });

const toolUseBlockSchema = z.object({
  type: z.literal('tool_use'),
  id: z.string(),
  name: z.string(),
  input: z.unknown().optional().transform((v) => v ?? {}),
});

/** Parts of a tool result: text kept, anything else (images...) becomes a one-line placeholder. */
const resultPartSchema = z.looseObject({ type: z.string(), text: z.unknown().optional() }).transform(
  (p): TextBlock => ({ type: 'text', text: p.type === 'text' && typeof p.text === 'string' ? p.text : `[unsupported block: ${p.type}]` }),
);

const toolResultBlockSchema = z.object({
  type: z.literal('tool_result'),
  tool_use_id: z.string(),
  content: z.union([z.string(), z.array(resultPartSchema)]).optional(),
  // Claude Code writes `"is_error": null` for a result that is not an error.
  is_error: z.boolean().nullish(),
});

/** Reasoning blocks, as a recorded live chat holds them (replay sends them back as the chat did). */
const thinkingBlockSchema = z.object({ type: z.literal('thinking'), thinking: z.string(), signature: z.string() });
const redactedThinkingBlockSchema = z.object({ type: z.literal('redacted_thinking'), data: z.string() });

const KNOWN_BLOCKS = {
  text: textBlockSchema,
  tool_use: toolUseBlockSchema,
  tool_result: toolResultBlockSchema,
  thinking: thinkingBlockSchema,
  redacted_thinking: redactedThinkingBlockSchema,
};

function isKnownType(type: string): type is keyof typeof KNOWN_BLOCKS {
  return Object.hasOwn(KNOWN_BLOCKS, type);
}

/** One content block; a block of an unknown type becomes `[unsupported block: <type>]` text. */
export const contentBlockSchema = z.looseObject({ type: z.string() }).transform((raw, ctx): ContentBlock => {
  // A thinking block without its signature cannot be sent back: it is kept as a placeholder, as unknown blocks are.
  const unsigned = raw.type === 'thinking' && typeof raw.signature !== 'string';
  if (!isKnownType(raw.type) || unsigned) return { type: 'text', text: `[unsupported block: ${raw.type}]` };
  const parsed = KNOWN_BLOCKS[raw.type].safeParse(raw);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
    return z.NEVER;
  }
  const block = parsed.data;
  if (block.type !== 'tool_result') return block;
  const result: ToolResultBlock = { type: 'tool_result', tool_use_id: block.tool_use_id, content: block.content ?? '' };
  if (typeof block.is_error === 'boolean') result.is_error = block.is_error;
  return result;
});

/**
 * What `strata chat --record` writes beside a message so a replay sends the same requests: on an
 * input, the time the engine gave the exchange and how it began (a user message, files changed on
 * disk, an edited resend); on an answer, the prompt size the engine estimated
 * and the API reported (the pair that corrected the tokenizer).
 */
export const recordingNoteSchema = z.object({
  at: z.number().int().nonnegative().optional(),
  /** The input was the user's own message: a later edited resend may restart from it. */
  userMessage: z.boolean().optional(),
  /** Files the chat saw change on disk before this input. */
  changedFiles: z.array(z.string().max(4_096)).max(10_000).optional(),
  /** The input is an edited resend of exchange `resendFrom`: the replay supersedes from there first. */
  resendFrom: z.number().int().positive().optional(),
  estimatedTokens: z.number().int().nonnegative().optional(),
  reportedTokens: z.number().int().nonnegative().optional(),
});

export type RecordingNote = z.infer<typeof recordingNoteSchema>;

/** One message line; string content becomes a single text block. */
export const messageSchema = z.object({
  role: z.enum(['user', 'assistant']),
  content: z.union([z.string().transform((text): ContentBlock[] => [{ type: 'text', text }]), z.array(contentBlockSchema)]),
  strata: recordingNoteSchema.optional().catch(undefined),
});

/** A session file read and checked: problems are what was skipped or repaired, one line each. */
export interface ParsedSession {
  meta: SessionMeta;
  messages: Message[];
  /** Recording notes by message index (sessions recorded by `strata chat`); empty for others. */
  notes: Map<number, RecordingNote>;
  problems: string[];
}

/**
 * Parses a session file's text (see EXPECTED_FORMAT). Throws StrataError 'session_empty' or
 * 'session_format' when the file is unusable; a bad later line is skipped and reported. Linear.
 */
export function parseSessionText(text: string, sourceName: string): ParsedSession {
  const lines = (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).split('\n');
  const first = lines.findIndex((l) => l.trim() !== '');
  if (first === -1) throw new StrataError(`Session file ${sourceName} is empty. ${EXPECTED_FORMAT}`, 'session_empty');
  const problems: string[] = [];
  const messages: Message[] = [];
  const lineNumbers: number[] = [];
  const notes = new Map<number, RecordingNote>();
  let meta: SessionMeta = {};
  for (let i = first; i < lines.length; i++) {
    const line = lines[i]!.endsWith('\r') ? lines[i]!.slice(0, -1) : lines[i]!;
    if (line.trim() === '') continue;
    const where = `${sourceName}:${i + 1}`;
    const json = parseJson(line);
    if (i === first && json.ok && isMetaLine(json.value)) {
      meta = withoutUndefined(sessionMetaSchema.parse(json.value.meta));
      continue;
    }
    const parsed = json.ok ? messageSchema.safeParse(json.value) : undefined;
    if (!parsed?.success) {
      const what = json.ok ? `not a message (${describeIssue(parsed?.error)})` : `not valid JSON (${json.error})`;
      if (i === first) throw new StrataError(`Session file ${sourceName}: line ${i + 1} is neither a meta line nor a message: ${what}. ${EXPECTED_FORMAT}`, 'session_format');
      problems.push(`${where}: ${what}; line skipped`);
      continue;
    }
    const { strata: note, ...rest } = parsed.data;
    const message = cleanMessage(rest, where, problems);
    if (!message) continue;
    const previous = messages[messages.length - 1];
    if (previous && previous.role === message.role) {
      previous.content.push(...message.content);
      problems.push(`${where}: second ${message.role} message in a row (previous on line ${lineNumbers[lineNumbers.length - 1]}); merged into it`);
      continue;
    }
    if (note) notes.set(messages.length, note);
    messages.push(message);
    lineNumbers.push(i + 1);
  }
  return { meta, messages, notes, problems };
}

/**
 * Decodes a session file's bytes as UTF-8. Invalid bytes become U+FFFD and are reported once
 * (a U+FFFD that was really in the file is not a problem). A leading BOM is dropped.
 */
export function decodeSessionBytes(bytes: Uint8Array, sourceName: string): { text: string; problems: string[] } {
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  const replaced = text.indexOf('\uFFFD');
  if (replaced === -1) return { text, problems: [] };
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return { text, problems: [] };
  } catch {
    const line = countLines(text, replaced);
    return { text, problems: [`${sourceName}: invalid UTF-8 bytes were replaced by U+FFFD (first replacement character on line ${line})`] };
  }
}

/**
 * The message with binary-looking tool outputs replaced by a placeholder and empty text blocks
 * dropped; undefined (with a problem) when nothing is left. Shared by every session reader.
 */
export function cleanMessage(message: Message, where: string, problems: string[]): Message | undefined {
  const content: ContentBlock[] = [];
  for (const block of message.content) {
    if (block.type === 'text' && block.text === '') continue;
    if (block.type !== 'tool_result') {
      content.push(block);
      continue;
    }
    const texts = typeof block.content === 'string' ? [block.content] : block.content.map((b) => b.text);
    if (!texts.some(looksBinary)) {
      content.push(block);
      continue;
    }
    const bytes = texts.reduce((n, t) => n + utf8Length(t), 0);
    problems.push(`${where}: tool result ${block.tool_use_id} looks binary (${bytes} bytes); replaced by a placeholder`);
    content.push({ ...block, content: `[binary output: ${bytes} bytes, not shown]` });
  }
  if (content.length === 0) {
    problems.push(`${where}: message has no content; line skipped`);
    return undefined;
  }
  return { role: message.role, content };
}

/** NUL anywhere, or more than 10% control characters (tab, newline, CR and ESC excepted) in a sample. */
function looksBinary(text: string): boolean {
  if (text.indexOf('\u0000') !== -1) return true;
  const end = Math.min(text.length, BINARY_SAMPLE_CHARS);
  if (end === 0) return false;
  let control = 0;
  for (let i = 0; i < end; i++) {
    const c = text.charCodeAt(i);
    if ((c < 32 && c !== 9 && c !== 10 && c !== 13 && c !== 27) || c === 127 || c === 0xfffd) control += 1;
  }
  return control * 10 > end;
}

/** UTF-8 byte length without allocating an encoded copy. */
function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      bytes += 4;
      i += 1;
    } else bytes += 3;
  }
  return bytes;
}

function countLines(text: string, end: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < end; i = text.indexOf('\n', i + 1)) line += 1;
  return line;
}

function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

function isMetaLine(value: unknown): value is { meta: Record<string, unknown> } {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || 'role' in value) return false;
  const meta = (value as { meta?: unknown }).meta;
  return typeof meta === 'object' && meta !== null && !Array.isArray(meta);
}

function parseJson(line: string): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: JSON.parse(line) as unknown };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message.slice(0, 120) : String(error) };
  }
}

function describeIssue(error: z.ZodError | undefined): string {
  const issue = error?.issues[0];
  if (!issue) return 'unknown shape';
  const { path, message } = deepestIssue(issue);
  return `${path.length > 0 ? `${path.join('.')}: ` : ''}${message}`.slice(0, 160);
}

/** For a failed union (string or blocks...), the branch that got furthest says what is wrong. */
function deepestIssue(issue: z.core.$ZodIssue): { path: PropertyKey[]; message: string } {
  if (issue.code !== 'invalid_union') return { path: issue.path, message: issue.message };
  let best = { path: issue.path, message: issue.message };
  for (const branch of issue.errors) {
    const first = branch[0];
    if (!first) continue;
    const inner = deepestIssue(first);
    if (inner.path.length > 0 && issue.path.length + inner.path.length > best.path.length) best = { path: [...issue.path, ...inner.path], message: inner.message };
  }
  return best;
}
