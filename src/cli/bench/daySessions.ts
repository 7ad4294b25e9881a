import type { ContentBlock, Message } from '../../shared/messages';
import type { ParsedSession } from '../../shared/sessionSchema';

/** A "day": sessions of one project in `bench/sessions`, in the order they were recorded, worked through in one conversation. */
export interface DayRecipe {
  name: string;
  /** Session names (file names without `.jsonl`), first to last. */
  parts: readonly string[];
}

/**
 * The long panel's day sessions. Only sessions of one source project join: the claude-code-log
 * author's three sessions on claude-code-log, in the order of their Claude Code versions (1.0.24,
 * 1.0.51, 1.0.56), and the two mini-swe-agent runs on sqlfluff, in issue order.
 */
export const DAY_RECIPES: readonly DayRecipe[] = [
  { name: 'day-cc-cclog-sample', parts: ['cc-cclog-sample-fe869ecb', 'cc-cclog-sample-37f83ec9', 'cc-cclog-sample-12a546d1'] },
  { name: 'day-mini-sqlfluff', parts: ['mini-deepseekR1-sqlfluff-1517', 'mini-deepseek-sqlfluff-1733'] },
];

/** What a tool call that ended a run gets as its result when the next task follows it. */
export const RUN_ENDED_RESULT = '(no output: the run ended here; the next task follows)';

/**
 * One conversation from several sessions, as a developer working through them one ticket after
 * another would have had it: each run's unanswered tool calls get a result saying the run ended,
 * and the next session's first message (its task) follows in that same user message; a run that
 * ended on a user message gets the task appended to it; one that ended on an answer, a new user
 * message. Messages are shared, never copied or changed; the first session's meta (system prompt,
 * agent) stands for the day. Deterministic: the same parts give the same messages.
 */
export function joinSessions(name: string, parts: ReadonlyArray<{ name: string; session: ParsedSession }>): ParsedSession {
  const messages: Message[] = [];
  for (const { session } of parts) {
    const [task, ...rest] = session.messages;
    if (!task) continue;
    const last = messages[messages.length - 1];
    if (!last) messages.push(task);
    else if (last.role === 'user') messages[messages.length - 1] = { role: 'user', content: [...last.content, ...task.content] };
    else messages.push({ role: 'user', content: [...unansweredResults(last), ...task.content] });
    messages.push(...rest);
  }
  const first = parts[0]?.session.meta ?? {};
  return {
    meta: { ...first, session_id: name, note: `Day session built by the bench from ${parts.map((p) => p.name).join(', ')} (src/cli/bench/daySessions.ts).`, parts: parts.map((p) => p.name) },
    messages,
    // Recording notes are per message index of one file; the bench's sessions have none.
    notes: new Map(),
    problems: parts.flatMap((p) => p.session.problems),
  };
}

/** A tool result for each tool call of the run's last answer (none had one: it was the last message). */
function unansweredResults(answer: Message): ContentBlock[] {
  return answer.content.flatMap((b): ContentBlock[] => (b.type === 'tool_use' ? [{ type: 'tool_result', tool_use_id: b.id, content: RUN_ENDED_RESULT }] : []));
}

/**
 * Builds each recipe whose parts are all among `available` (by name); `missing` lists the
 * recipes that could not be built and why, so the panel says what it left out.
 */
export function buildDays(available: ReadonlyArray<{ name: string; session: ParsedSession }>, recipes: readonly DayRecipe[] = DAY_RECIPES): { days: Array<{ name: string; session: ParsedSession }>; missing: string[] } {
  const days: Array<{ name: string; session: ParsedSession }> = [];
  const missing: string[] = [];
  for (const recipe of recipes) {
    const parts = recipe.parts.map((p) => available.find((s) => s.name === p));
    const absent = recipe.parts.filter((_, i) => !parts[i]);
    if (absent.length > 0) missing.push(`${recipe.name} (no ${absent.join(', ')})`);
    else days.push({ name: recipe.name, session: joinSessions(recipe.name, parts as Array<{ name: string; session: ParsedSession }>) });
  }
  return { days, missing };
}
