import { z } from 'zod';
import type { ContentBlock, Message } from './messages';
import { StrataError } from './strataError';

/** The first line of a session file; every field is optional. */
export const sessionMetaSchema = z
  .object({
    source: z.string().optional(),
    agent: z.string().optional(),
    model: z.string().optional(),
    system: z.string().nullable().optional(),
  })
  .passthrough();

export type SessionMeta = { model?: string; agent?: string; system?: string | null; [key: string]: unknown };

const textBlock = z.object({ type: z.literal('text'), text: z.string() });
const toolUseBlock = z.object({ type: z.literal('tool_use'), id: z.string(), name: z.string(), input: z.unknown() });
const toolResultBlock = z.object({
  type: z.literal('tool_result'),
  tool_use_id: z.string(),
  content: z.union([z.string(), z.array(z.object({ type: z.string(), text: z.string().optional() }).passthrough())]).optional(),
  is_error: z.boolean().optional(),
});
const anyBlock = z.object({ type: z.string() }).passthrough();
const messageSchema = z.object({
  role: z.enum(['user', 'assistant']),
  content: z.union([z.string(), z.array(anyBlock)]),
});

export interface ParsedSession {
  meta: SessionMeta;
  messages: Message[];
  /** Lines skipped or repaired, as "<file>:<line>: <what>"; the run goes on. */
  problems: string[];
}

const EXPECTED = 'JSON Lines: an optional {"meta": {...}} line, then one Anthropic Messages API message ({"role", "content"}) per line';

/**
 * Parses a session file's text. Empty or unrecognisable files throw a StrataError naming the
 * file and the expected format; a bad line in the middle is skipped and reported.
 */
export function parseSessionText(text: string, sourceName: string): ParsedSession {
  const lines = text.split('\n');
  const problems: string[] = [];
  const messages: Message[] = [];
  let meta: SessionMeta = {};
  let sawContent = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line.length === 0) continue;
    const where = `${sourceName}:${i + 1}`;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      if (!sawContent) throw new StrataError(`${where} is not a session file line (not JSON). Expected ${EXPECTED}.`, 'session_format');
      problems.push(`${where}: not valid JSON; line skipped`);
      continue;
    }
    if (!sawContent && json && typeof json === 'object' && 'meta' in json) {
      const parsed = sessionMetaSchema.safeParse((json as { meta: unknown }).meta);
      if (parsed.success) meta = parsed.data as SessionMeta;
      else problems.push(`${where}: meta line not understood; defaults used`);
      sawContent = true;
      continue;
    }
    const parsed = messageSchema.safeParse(json);
    if (!parsed.success) {
      if (!sawContent) throw new StrataError(`${where} is neither a meta line nor a message. Expected ${EXPECTED}.`, 'session_format');
      problems.push(`${where}: not a message (${parsed.error.issues[0]?.message ?? 'invalid'}); line skipped`);
      continue;
    }
    sawContent = true;
    const content = toBlocks(parsed.data.content, where, problems);
    const previous = messages[messages.length - 1];
    if (previous && previous.role === parsed.data.role) {
      previous.content.push(...content);
      problems.push(`${where}: second ${parsed.data.role} message in a row; merged into the previous one`);
    } else {
      messages.push({ role: parsed.data.role, content });
    }
  }
  if (!sawContent) throw new StrataError(`${sourceName} is empty. Expected ${EXPECTED}.`, 'session_empty');
  return { meta, messages, problems };
}

function toBlocks(content: string | Array<{ type: string }>, where: string, problems: string[]): ContentBlock[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  const blocks: ContentBlock[] = [];
  for (const raw of content) {
    const text = textBlock.safeParse(raw);
    if (text.success) {
      blocks.push(text.data);
      continue;
    }
    const use = toolUseBlock.safeParse(raw);
    if (use.success) {
      blocks.push({ type: 'tool_use', id: use.data.id, name: use.data.name, input: use.data.input ?? {} });
      continue;
    }
    const result = toolResultBlock.safeParse(raw);
    if (result.success) {
      const body = typeof result.data.content === 'string' ? result.data.content : (result.data.content ?? []).map((b) => b.text ?? `[${b.type} block]`).join('\n');
      const safe = binaryPlaceholder(body);
      if (safe !== body) problems.push(`${where}: binary tool output replaced by a placeholder`);
      blocks.push({ type: 'tool_result', tool_use_id: result.data.tool_use_id, content: safe, ...(result.data.is_error ? { is_error: true } : {}) });
      continue;
    }
    blocks.push({ type: 'text', text: `[unsupported block: ${raw.type}]` });
    problems.push(`${where}: unsupported ${raw.type} block kept as a placeholder`);
  }
  return blocks;
}

/** Tool output that looks binary (NUL bytes, or over 10% control characters in its start) is not shown. */
export function binaryPlaceholder(text: string): string {
  if (text.length === 0) return text;
  const sample = text.slice(0, 8_192);
  let control = 0;
  for (let i = 0; i < sample.length; i++) {
    const c = sample.charCodeAt(i);
    if (c === 0) return `[binary output: ${new TextEncoder().encode(text).length} bytes, not shown]`;
    if (c < 32 && c !== 9 && c !== 10 && c !== 13 && c !== 27) control += 1;
  }
  return control > sample.length / 10 ? `[binary output: ${new TextEncoder().encode(text).length} bytes, not shown]` : text;
}

/** Decodes file bytes as UTF-8, reporting (not failing on) invalid sequences. */
export function decodeSessionBytes(bytes: Uint8Array, sourceName: string): { text: string; problems: string[] } {
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), problems: [] };
  } catch {
    return {
      text: new TextDecoder('utf-8', { fatal: false }).decode(bytes),
      problems: [`${sourceName}: invalid UTF-8; the bad bytes were replaced by U+FFFD`],
    };
  }
}
