import { z } from 'zod';
import type { Message } from './messages';
import { nativeContent } from './nativeContent';
import type { ParsedSession, RecordingNote, SessionMeta } from './sessionSchema';
import { cleanMessage } from './sessionSchema';
import { sessionTitle } from './sessionTitle';
import { StrataError } from './strataError';

/** Quoted in every format error. */
const EXPECTED_FORMAT =
  'Expected a Claude Code transcript (~/.claude/projects/<project>/<session>.jsonl): one JSON object per line, ' +
  '{"type": "user" | "assistant" | ..., "uuid", "parentUuid", "message": {"role", "content"}}.';

/** Line numbers listed in a problem before "and N more". */
const LINES_LISTED = 5;

/** One transcript line; only the fields the import reads, the rest kept loose. */
const entrySchema = z.looseObject({
  type: z.string(),
  uuid: z.string().optional().catch(undefined),
  parentUuid: z.string().nullish().catch(undefined),
  // After /compact the new root has no parent but names the last message before it here.
  logicalParentUuid: z.string().nullish().catch(undefined),
  isSidechain: z.boolean().optional().catch(undefined),
  isMeta: z.boolean().optional().catch(undefined),
  timestamp: z.string().optional().catch(undefined),
  sessionId: z.string().optional().catch(undefined),
  cwd: z.string().optional().catch(undefined),
  version: z.string().optional().catch(undefined),
  message: z.looseObject({ role: z.string().optional(), id: z.string().optional().catch(undefined), model: z.string().optional().catch(undefined), content: z.unknown() }).optional().catch(undefined),
});

type Entry = z.infer<typeof entrySchema>;

/** A user or assistant line of the main conversation, with where it came from. */
interface Turn {
  line: number;
  role: 'user' | 'assistant';
  entry: Entry;
}

/**
 * Reads a Claude Code transcript into Strata's session shape. The conversation is the chain of
 * `parentUuid` links ending at the last main-chain message (so branches left by an edited or
 * rewound message are not imported, and are reported); an assistant answer split over several
 * lines (same `message.id`) becomes one message, as do tool results on consecutive lines.
 * Sidechain lines (subagent runs: their answer reaches the main chain as the Task tool's
 * result), meta lines and lines that are not messages (summary, system, file-history-snapshot...)
 * are skipped and counted in one problem. A bad line is skipped with its number. Throws
 * StrataError 'session_empty' / 'session_format' when no message can be read.
 */
export function parseClaudeCodeTranscript(text: string, sourceName: string): ParsedSession {
  const problems: string[] = [];
  const skipped = new Map<string, number[]>();
  const skip = (why: string, line: number) => {
    const at = skipped.get(why);
    if (at) at.push(line);
    else skipped.set(why, [line]);
  };
  const parents = new Map<string, string | undefined>();
  const turns: Turn[] = [];
  const lines = (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).split('\n');
  let sawLine = false;
  lines.forEach((raw, i) => {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.trim() === '') return;
    sawLine = true;
    const parsed = parseEntry(line);
    if (!parsed.ok) {
      problems.push(`${sourceName}:${i + 1}: ${parsed.error}; line skipped`);
      return;
    }
    const entry = parsed.entry;
    if (entry.uuid !== undefined) parents.set(entry.uuid, entry.parentUuid ?? entry.logicalParentUuid ?? undefined);
    if (entry.type !== 'user' && entry.type !== 'assistant') return skip(entry.type, i + 1);
    if (entry.isSidechain) return skip('sidechain (subagent)', i + 1);
    if (entry.isMeta) return skip('meta', i + 1);
    if (entry.message) turns.push({ line: i + 1, role: entry.type, entry });
    else problems.push(`${sourceName}:${i + 1}: ${entry.type} line without a message; line skipped`);
  });
  if (!sawLine) throw new StrataError(`Transcript ${sourceName} is empty. ${EXPECTED_FORMAT}`, 'session_empty');
  for (const [why, at] of skipped) problems.push(`${sourceName}: ${plural(at.length, `${why} line`)} not imported (${lineList(at)})`);
  const live = liveTurns(turns, parents, sourceName, problems);
  const { messages, notes } = toMessages(live, sourceName, problems);
  if (messages.length === 0) {
    throw new StrataError(`Transcript ${sourceName} holds no main-chain user or assistant message that could be read${problems.length > 0 ? ` (${problems.join('; ').slice(0, 300)})` : ''}. ${EXPECTED_FORMAT}`, 'session_format');
  }
  return { meta: metaOf(turns, messages), messages, notes, problems };
}

/**
 * The turns on the conversation's path: ancestors of the last turn, answers that share a
 * `message.id` with one of them (split answers and parallel tool calls hang off different
 * lines of one answer), and tool results answering their calls. If a parent is missing (a
 * skipped line, a truncated file) every turn is kept, in file order, and that is reported.
 */
function liveTurns(turns: Turn[], parents: Map<string, string | undefined>, sourceName: string, problems: string[]): Turn[] {
  const last = turns[turns.length - 1];
  if (!last) return [];
  // Lines without uuids (an older or hand-made transcript) have no chain to follow: file order it is.
  if (turns.some((t) => t.entry.uuid === undefined)) return turns;
  const chain = new Set<string>();
  for (let id: string | undefined = last.entry.uuid; id !== undefined && !chain.has(id); ) {
    if (!parents.has(id)) {
      problems.push(`${sourceName}: the parentUuid chain breaks at ${id} (not in the file); every main-chain line is imported in file order, abandoned branches included`);
      return turns;
    }
    chain.add(id);
    id = parents.get(id);
  }
  const answerIds = new Set(turns.filter((t) => t.role === 'assistant' && chain.has(t.entry.uuid!)).map((t) => t.entry.message?.id).filter((id) => id !== undefined));
  const inAnswer = (t: Turn) => t.role === 'assistant' && t.entry.message?.id !== undefined && answerIds.has(t.entry.message.id);
  const callIds = new Set(turns.filter((t) => chain.has(t.entry.uuid!) || inAnswer(t)).flatMap((t) => toolUseIds(t.entry.message?.content)));
  const answersCall = (t: Turn) => t.role === 'user' && isOnlyToolResults(t.entry.message?.content, callIds);
  const live = new Set(turns.filter((t) => chain.has(t.entry.uuid!) || inAnswer(t) || answersCall(t)));
  const dead = turns.filter((t) => !live.has(t)).map((t) => t.line);
  if (dead.length > 0) problems.push(`${sourceName}: ${plural(dead.length, 'message line')} on abandoned branches (an edited or rewound message) not imported (${lineList(dead)})`);
  return [...live];
}

/** Consecutive turns of one role become one message; each input's time becomes its note. */
function toMessages(turns: Turn[], sourceName: string, problems: string[]): { messages: Message[]; notes: Map<number, RecordingNote> } {
  const messages: Message[] = [];
  const notes = new Map<number, RecordingNote>();
  // `seen`: the blocks of the current answer (one message.id), serialised, so a line that repeats one adds nothing.
  let previous: { turn: Turn; message: Message; seen: Set<string> } | undefined;
  const keysOf = (m: Message) => new Set(m.role === 'assistant' ? m.content.map((b) => JSON.stringify(b)) : []);
  for (const turn of turns) {
    const where = `${sourceName}:${turn.line}`;
    const content = nativeContent(turn.entry.message?.content, where, problems);
    if (!content) {
      problems.push(`${where}: message content is neither a string nor a list of blocks; line skipped`);
      continue;
    }
    const message = cleanMessage({ role: turn.role, content }, where, problems);
    if (!message) continue;
    if (previous && previous.message.role === message.role) {
      const sameAnswer = turn.role === 'assistant' && turn.entry.message?.id !== undefined && turn.entry.message.id === previous.turn.entry.message?.id;
      if (turn.role === 'assistant' && !sameAnswer) problems.push(`${where}: second answer in a row (previous on line ${previous.turn.line}); merged into it`);
      const seen = sameAnswer ? previous.seen : keysOf(message);
      const added = sameAnswer ? message.content.filter((b) => !seen.has(JSON.stringify(b))) : message.content;
      if (sameAnswer) for (const block of added) seen.add(JSON.stringify(block));
      previous.message.content.push(...added);
      previous = { turn, message: previous.message, seen };
      continue;
    }
    const at = turn.entry.timestamp !== undefined ? Date.parse(turn.entry.timestamp) : Number.NaN;
    if (turn.role === 'user' && Number.isFinite(at) && at >= 0) notes.set(messages.length, { at });
    messages.push(message);
    previous = { turn, message, seen: keysOf(message) };
  }
  return { messages, notes };
}

function metaOf(turns: Turn[], messages: Message[]): SessionMeta {
  const first = turns.find((t) => t.entry.sessionId !== undefined)?.entry;
  const model = turns.find((t) => t.role === 'assistant' && t.entry.message?.model !== undefined && t.entry.message.model !== '<synthetic>')?.entry.message?.model;
  const cwd = turns.find((t) => t.entry.cwd !== undefined)?.entry.cwd;
  const title = sessionTitle(messages);
  return {
    source: 'claude-code',
    agent: `Claude Code${first?.version !== undefined ? ` ${first.version}` : ''}`,
    ...(model !== undefined ? { model } : {}),
    ...(first?.sessionId !== undefined ? { session_id: first.sessionId } : {}),
    ...(cwd !== undefined ? { cwd } : {}),
    ...(title !== undefined ? { title } : {}),
  };
}

function parseEntry(line: string): { ok: true; entry: Entry } | { ok: false; error: string } {
  let value: unknown;
  try {
    value = JSON.parse(line) as unknown;
  } catch (error) {
    return { ok: false, error: `not valid JSON (${error instanceof Error ? error.message.slice(0, 120) : String(error)})` };
  }
  const parsed = entrySchema.safeParse(value);
  if (!parsed.success) return { ok: false, error: 'not a transcript entry (no "type")' };
  const { type, message } = parsed.data;
  if ((type === 'user' || type === 'assistant') && message?.role !== undefined && message.role !== type) {
    return { ok: false, error: `a ${type} line whose message has role '${message.role}'` };
  }
  return { ok: true, entry: parsed.data };
}

function toolUseIds(content: unknown): string[] {
  if (!Array.isArray(content)) return [];
  return content.flatMap((b: unknown) => {
    const block = b as { type?: unknown; id?: unknown };
    return block.type === 'tool_use' && typeof block.id === 'string' ? [block.id] : [];
  });
}

function isOnlyToolResults(content: unknown, callIds: ReadonlySet<string>): boolean {
  if (!Array.isArray(content) || content.length === 0) return false;
  return content.every((b: unknown) => {
    const block = b as { type?: unknown; tool_use_id?: unknown };
    return block.type === 'tool_result' && typeof block.tool_use_id === 'string' && callIds.has(block.tool_use_id);
  });
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

/** "lines 3, 7, 9" or "lines 3, 7, 9, 12, 15 and 4 more". */
function lineList(lines: number[]): string {
  const shown = lines.slice(0, LINES_LISTED).join(', ');
  return `line${lines.length === 1 ? '' : 's'} ${shown}${lines.length > LINES_LISTED ? ` and ${lines.length - LINES_LISTED} more` : ''}`;
}
