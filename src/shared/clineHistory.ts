import { z } from 'zod';
import type { Message } from './messages';
import { nativeContent } from './nativeContent';
import type { ParsedSession, RecordingNote, SessionMeta } from './sessionSchema';
import { cleanMessage } from './sessionSchema';
import { sessionTitle } from './sessionTitle';
import { StrataError } from './strataError';

/** Quoted in every format error. */
const EXPECTED_FORMAT =
  "Expected Cline's api_conversation_history.json (in <VS Code globalStorage>/saoudrizwan.claude-dev/tasks/<taskId>/): " +
  'a JSON array of {"role": "user" | "assistant", "content": a string or content blocks}.';

/** One stored message: an Anthropic MessageParam plus Cline's own fields (`ts`, `modelInfo`, `metrics`...). */
const clineMessageSchema = z.looseObject({
  role: z.enum(['user', 'assistant']),
  content: z.unknown(),
  ts: z.number().optional().catch(undefined),
  modelInfo: z.looseObject({ modelId: z.string().optional().catch(undefined) }).optional().catch(undefined),
});

/**
 * Reads Cline's task history into Strata's session shape. Problems name the file and the
 * message's index in the array (`file#3`, 1-based): JSON has no useful line numbers when Cline
 * writes the whole array on one line. A message that is not one is skipped; two of one role in
 * a row are merged, as the session parser does. Throws StrataError 'session_empty' /
 * 'session_format' when the file holds no array or no message.
 */
export function parseClineHistory(text: string, sourceName: string): ParsedSession {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (body.trim() === '') throw new StrataError(`Cline history ${sourceName} is empty. ${EXPECTED_FORMAT}`, 'session_empty');
  let value: unknown;
  try {
    value = JSON.parse(body) as unknown;
  } catch (error) {
    throw new StrataError(`Cline history ${sourceName} is not valid JSON (${error instanceof Error ? error.message.slice(0, 120) : String(error)}). ${EXPECTED_FORMAT}`, 'session_format');
  }
  if (!Array.isArray(value)) throw new StrataError(`Cline history ${sourceName} is not a JSON array. ${EXPECTED_FORMAT}`, 'session_format');
  const problems: string[] = [];
  const messages: Message[] = [];
  const indexes: number[] = [];
  const notes = new Map<number, RecordingNote>();
  let model: string | undefined;
  value.forEach((item: unknown, i) => {
    const where = `${sourceName}#${i + 1}`;
    const parsed = clineMessageSchema.safeParse(item);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      problems.push(`${where}: not a message (${issue ? `${issue.path.join('.') || 'value'}: ${issue.message}` : 'unknown shape'}); skipped`);
      return;
    }
    const { role, content, ts, modelInfo } = parsed.data;
    const blocks = nativeContent(content, where, problems);
    if (!blocks) {
      problems.push(`${where}: content is neither a string nor a list of blocks; skipped`);
      return;
    }
    const message = cleanMessage({ role, content: blocks }, where, problems);
    if (!message) return;
    model ??= role === 'assistant' ? modelInfo?.modelId : undefined;
    const previous = messages[messages.length - 1];
    if (previous && previous.role === role) {
      previous.content.push(...message.content);
      problems.push(`${where}: second ${role} message in a row (previous #${indexes[indexes.length - 1]}); merged into it`);
      return;
    }
    if (role === 'user' && ts !== undefined && Number.isFinite(ts) && ts >= 0) notes.set(messages.length, { at: Math.floor(ts) });
    messages.push(message);
    indexes.push(i + 1);
  });
  if (messages.length === 0) {
    throw new StrataError(`Cline history ${sourceName} holds no message that could be read${problems[0] ? ` (${problems[0]})` : ''}. ${EXPECTED_FORMAT}`, 'session_format');
  }
  const title = sessionTitle(messages);
  const meta: SessionMeta = { source: 'cline', agent: 'Cline', ...(model !== undefined ? { model } : {}), ...(title !== undefined ? { title } : {}) };
  return { meta, messages, notes, problems };
}
