import type { ToolResultBlock, ToolUseBlock } from '../../shared/messages';
import type { Exchange } from '../exchange';
import { exchangeId } from '../exchange';
import { trimToTokens } from '../text/trimToBudget';
import { exchangeEntities, extractEntities, headTail, isFilePath } from './entities';
import { isEditCall, shellCommandOf } from '../toolOutput';
import { basename, commandLabel, commandsRun, editedChanges, MAX_BLOCKS, TEXT_HEAD } from './exchangeActions';

/** How an exchange ended: its inputs failed, it asks the user, tools ran fine, or a plain answer. */
export type Outcome = 'ok' | 'error' | 'asked' | 'done';

/** Head and tail of each tool output searched for failure signs. */
const RESULT_HEAD = 8_000;
const RESULT_TAIL = 8_000;

const FAILURE_LINE =
  /^(?:Traceback \(most recent call last\)|FAILED |ERROR |npm ERR!|error(?:\[E\d{4}\]| TS\d{4,5})|fatal: |panic: |(?:[\w.]{1,80}\.)?[A-Z]\w{0,40}(?:Error|Exception)(?::|$))/m;
const EXIT_CODE = /<returncode>(-?\d{1,4})<\/returncode>|^Exit code (-?\d{1,4})/m;
/** User-side blocks Claude Code records around local commands; not the user's request. */
const LOCAL_COMMAND_NOISE = /^(?:Caveat:|<returncode>|\s*<(?:command-name|command-message|command-args|local-command-stdout|local-command-stderr|bash-input|bash-stdout|bash-stderr|system-reminder)>)/;
const TEST_TALLY = /\b\d{1,6} (?:failed|passed|errors?)(?:, \d{1,6} \w{1,12}){0,5} in \d{1,6}(?:\.\d{1,3})?s\b/;

/**
 * One line `e<seq> HH:MM <topic> [<entities>] → <outcome>` (time in UTC), shortened (entities, the
 * `Bash` before a command, the topic's target, the time) until `count(line) <= maxTokens`. Bounded reads.
 */
export function deriveHeader(exchange: Exchange, count: (s: string) => number, maxTokens = 12): string {
  const id = exchangeId(exchange.seq);
  const time = clockTime(exchange.createdAt);
  const topic = topicOf(exchange);
  const tail = ` → ${outcomeOf(exchange)}`;
  const fits = (line: string) => count(line) <= maxTokens;
  const entities = headerEntities(exchange, topic);
  for (let n = entities.length; n >= 0; n--) {
    const line = `${id} ${time} ${topic}${n > 0 ? ` [${entities.slice(0, n).join(', ')}]` : ''}${tail}`;
    if (fits(line)) return line;
  }
  const shell = /^(?:bash|shell|sh) (?=\S)/i.exec(topic);
  if (shell && fits(`${id} ${time} ${topic.slice(shell[0].length)}${tail}`)) return `${id} ${time} ${topic.slice(shell[0].length)}${tail}`;
  const space = topic.indexOf(' ');
  const action = space === -1 ? topic : topic.slice(0, space);
  const target = space === -1 ? '' : topic.slice(space + 1);
  // what was acted on matters more than the time: clip the target, and drop the time before losing it
  for (const head of [`${id} ${time} ${action}`, `${id} ${action}`]) {
    let lo = 0;
    let hi = target.length;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (fits(`${head} ${clip(target, mid)}${tail}`)) lo = mid;
      else hi = mid - 1;
    }
    if (lo >= Math.min(4, target.length) && lo > 0) return `${head} ${clip(target, lo)}${tail}`;
  }
  for (const line of [`${id} ${time} ${action}${tail}`, `${id} ${action}${tail}`, `${id}${tail}`]) if (fits(line)) return line;
  return trimToTokens(`${id}${tail}`, maxTokens, count);
}

/**
 * What the exchange did, within `maxTokens`: the user's request, what the answer said, files
 * changed (with edited symbols), commands run, results seen, open questions, then
 * `retrievable: e<seq>`. Sentences are trimmed first, then the least important parts dropped.
 */
export function deriveSummary(exchange: Exchange, count: (s: string) => number, maxTokens = 120): string {
  const suffix = `retrievable: ${exchangeId(exchange.seq)}`;
  const parts = summaryParts(exchange);
  const render = (kept: SummaryPart[], compact: boolean) => [...kept.map((p) => p.text(compact)).filter((t) => t !== ''), suffix].join(' ');
  for (const compact of [false, true]) {
    const line = render(parts, compact);
    if (count(line) <= maxTokens) return line;
  }
  const byRank = [...parts].sort((a, b) => a.rank - b.rank);
  while (byRank.length > 1) {
    byRank.shift();
    const kept = parts.filter((p) => byRank.includes(p));
    const line = render(kept, true);
    if (count(line) <= maxTokens) return line;
  }
  const best = byRank[0]?.text(true) ?? '';
  for (let room = maxTokens - count(suffix) - 1; room > 0; room--) {
    const line = `${trimToTokens(best, room, count)} ${suffix}`;
    if (best !== '' && count(line) <= maxTokens) return line;
  }
  return count(suffix) <= maxTokens ? suffix : trimToTokens(suffix, maxTokens, count);
}

/** `error` if a tool result failed, `asked` if the answer ends on a question without tools, `ok` if tools ran, else `done`. */
export function outcomeOf(exchange: Exchange): Outcome {
  return outcomeFrom(exchange, resultFacts(exchange));
}

function outcomeFrom(exchange: Exchange, results: ResultFact[]): Outcome {
  if (results.some((r) => r.failed)) return 'error';
  const usesTools = exchange.output.content.some((b) => b.type === 'tool_use') || commandsRun(exchange.output).length > 0;
  if (!usesTools && answerText(exchange).trimEnd().endsWith('?')) return 'asked';
  return usesTools || exchange.input.content.some((b) => b.type === 'tool_result') ? 'ok' : 'done';
}

interface SummaryPart {
  /** Higher survives longer when the summary has to shrink. */
  rank: number;
  text: (compact: boolean) => string;
}

function summaryParts(exchange: Exchange): SummaryPart[] {
  const parts: SummaryPart[] = [];
  const said = sentencesOf(answerText(exchange)).filter((s) => !s.endsWith('?'));
  const questions = sentencesOf(answerText(exchange)).filter((s) => s.endsWith('?'));
  const request = userRequest(exchange);
  const changes = editedChanges(exchange.output);
  const commands = commandsRun(exchange.output);
  const results = resultFacts(exchange);
  const used = exchange.output.content.slice(0, MAX_BLOCKS).flatMap((b) => (b.type === 'tool_use' && !isCommandOrEdit(b) ? [callLabel(b)] : []));
  const asked = outcomeFrom(exchange, results) === 'asked';
  if (request.length > 0) parts.push({ rank: 2, text: (c) => `User: ${clip(request.slice(0, c ? 1 : 2).join(' '), c ? 120 : 280)}` });
  if (results.length > 0) parts.push({ rank: 5, text: (c) => `Results: ${describeResults(results, c)}.` });
  if (said.length > 0) parts.push({ rank: 4, text: (c) => `Said: ${clip(said.slice(0, c ? 1 : 2).join(' '), c ? 160 : 320)}` });
  if (changes.length > 0) parts.push({ rank: 6, text: (c) => `Changed: ${listed(changes, c ? 3 : 6)}.` });
  if (used.length > 0) parts.push({ rank: 3, text: (c) => `Used: ${listed(used, c ? 2 : 4)}.` });
  if (commands.length > 0) parts.push({ rank: 3, text: (c) => `Ran: ${listed(commands.map((cmd) => clip(cmd, c ? 40 : 80)), c ? 2 : 4)}.` });
  if (questions.length > 0) parts.push({ rank: asked ? 7 : 1, text: (c) => `Open: ${clip(questions.slice(0, c ? 1 : 2).join(' '), c ? 160 : 320)}` });
  if (parts.length === 0) parts.push({ rank: 1, text: () => '(no text)' });
  return parts;
}

/** A tool result's head and tail, without joining or copying a huge output first. */
function boundedResultText(block: ToolResultBlock): string {
  const parts = typeof block.content === 'string' ? [block.content] : block.content.map((b) => b.text);
  return headTail(parts.map((t) => headTail(t, RESULT_HEAD, RESULT_TAIL)).join('\n'), RESULT_HEAD, RESULT_TAIL);
}

interface ResultFact {
  failed: boolean;
  details: string[];
}

/** What the tool outputs in the input say: failed or not, exit code, failing tests, error signatures, test tallies. */
function resultFacts(exchange: Exchange): ResultFact[] {
  const facts: ResultFact[] = [];
  for (const block of exchange.input.content.slice(0, MAX_BLOCKS)) {
    const text = block.type === 'tool_result' ? boundedResultText(block) : block.type === 'text' && block.text.startsWith('<returncode>') ? headTail(block.text, RESULT_HEAD, RESULT_TAIL) : undefined;
    if (text === undefined) continue;
    const exit = EXIT_CODE.exec(text);
    const code = exit ? Number(exit[1] ?? exit[2]) : undefined;
    const failed = (block.type === 'tool_result' && block.is_error === true) || (code !== undefined && code !== 0) || FAILURE_LINE.test(text);
    const details: string[] = [];
    if (code !== undefined && code !== 0) details.push(`exit ${code}`);
    const tally = TEST_TALLY.exec(text.slice(-RESULT_TAIL));
    if (tally) details.push(tally[0]);
    if (failed) details.push(...extractEntities(text).errors.slice(0, 3));
    facts.push({ failed, details });
  }
  return facts;
}

function describeResults(results: ResultFact[], compact: boolean): string {
  const failed = results.filter((r) => r.failed);
  const ok = results.length - failed.length;
  const counts = [ok > 0 ? `${ok} ok` : '', failed.length > 0 ? `${failed.length} failed` : ''].filter(Boolean).join(', ');
  const all = [...new Set((failed.length > 0 ? failed : results).flatMap((r) => r.details))];
  const details = all.filter((d) => !all.some((other) => other.startsWith(`${d}: `))).slice(0, compact ? 2 : 4);
  return details.length > 0 ? `${counts} (${details.map((d) => clip(d, compact ? 60 : 80)).join('; ')})` : counts;
}

function topicOf(exchange: Exchange): string {
  const uses = exchange.output.content.filter((b): b is ToolUseBlock => b.type === 'tool_use');
  if (uses.length > 0) {
    const main = [...uses].sort((a, b) => actionRank(b) - actionRank(a))[0]!;
    return `${callLabel(main)}${uses.length > 1 ? ` +${uses.length - 1}` : ''}`;
  }
  const commands = commandsRun(exchange.output);
  if (commands.length > 0) return commandLabel(commands[0]!);
  const first = sentencesOf(answerText(exchange))[0];
  return first ? first.replace(/[*_#`>[\]]/g, '').split(' ').filter(Boolean).slice(0, 6).join(' ') : '(no answer)';
}

function isCommandOrEdit(use: ToolUseBlock): boolean {
  return isEditCall(use) || shellCommandOf(use) !== undefined;
}

/** Edits matter most, then commands, then the rest. */
function actionRank(use: ToolUseBlock): number {
  return isEditCall(use) ? 2 : isCommandOrEdit(use) ? 1 : 0;
}

/**
 * What a call did to what, in a few words: `Edit parser.ts`, `pytest` (a command names its
 * program, not the shell tool), `Grep parseLine` (a search names what it looked for, not where),
 * `WebFetch docs.python.org`, `todo 2/5: Run the tests` (the item in progress), else the tool
 * and its first short string argument.
 */
function callLabel(use: ToolUseBlock): string {
  const input = (typeof use.input === 'object' && use.input !== null ? use.input : {}) as Record<string, unknown>;
  const sought = input.pattern ?? input.query ?? input.regex;
  const path = input.file_path ?? input.notebook_path ?? input.path;
  if (typeof sought === 'string' && sought.trim() !== '') {
    const where = typeof path === 'string' && path !== '' ? ` in ${basename(path)}` : '';
    return `${use.name} ${fewWords(sought)}${where}`;
  }
  if (typeof path === 'string' && path !== '') return `${use.name} ${basename(path)}`;
  const command = shellCommandOf(use);
  if (command !== undefined) return commandLabel(command);
  if (typeof input.url === 'string') return `${use.name} ${input.url.replace(/^\w+:\/\//, '').split('/')[0] ?? ''}`.trimEnd();
  if (Array.isArray(input.todos)) return todoLabel(input.todos as unknown[]);
  const words = input.description ?? firstString(input);
  return typeof words === 'string' && words.trim() !== '' ? `${use.name} ${fewWords(words)}` : use.name;
}

/** The first three words of an argument, at most 30 characters. */
function fewWords(text: string): string {
  return clip(text.trim().split(/\s+/).slice(0, 3).join(' '), 30);
}

/** A todo list update named by the item in progress (else the next pending one) and the count done. */
function todoLabel(todos: unknown[]): string {
  const items = todos.filter((t): t is { content: string; status?: string } => typeof t === 'object' && t !== null && typeof (t as { content?: unknown }).content === 'string');
  const done = items.filter((t) => t.status === 'completed').length;
  const active = items.find((t) => t.status === 'in_progress') ?? items.find((t) => t.status === 'pending');
  return `todo ${done}/${items.length}${active ? `: ${clip(active.content, 40)}` : ''}`;
}

/** The first string value of a tool input (a plan, a question, an id), up to one level deep. */
function firstString(input: Record<string, unknown>): string | undefined {
  for (const value of Object.values(input)) {
    if (typeof value === 'string') return value.replace(/^[#\s]+/, '');
    if (Array.isArray(value) && value[0] && typeof value[0] === 'object') {
      const inner = Object.values(value[0] as Record<string, unknown>).find((v) => typeof v === 'string');
      if (typeof inner === 'string') return inner;
    }
  }
  return undefined;
}

/** Entities of the answer alone (its tool arguments and text): what this exchange acted on. */
function headerEntities(exchange: Exchange, topic: string): string[] {
  const entities = exchangeEntities({ ...exchange, input: { role: 'user', content: [] } });
  const names = [...entities.files.map(basename), ...entities.symbols];
  return [...new Set(names)].filter((n) => !topic.includes(n)).slice(0, 2);
}

/** The user's words in the input, without tags and Claude Code's local-command caveats. */
function userRequest(exchange: Exchange): string[] {
  for (const block of exchange.input.content) {
    if (block.type !== 'text' || LOCAL_COMMAND_NOISE.test(block.text)) continue;
    const sentences = sentencesOf(block.text.slice(0, TEXT_HEAD).replace(/<[^<>\n]{1,80}>/g, ' '));
    if (sentences.length > 0) return sentences.slice(0, 2);
  }
  return [];
}

function answerText(exchange: Exchange): string {
  let text = '';
  for (const block of exchange.output.content) {
    if (block.type === 'text') text += `${block.text.slice(0, TEXT_HEAD - text.length)}\n`;
    if (text.length >= TEXT_HEAD) break;
  }
  return text;
}

/** Sentences of the first TEXT_HEAD characters, fenced code dropped, whitespace collapsed. */
function sentencesOf(text: string): string[] {
  return text
    .slice(0, TEXT_HEAD)
    .replace(/```[^]*?(?:```|$)/g, ' ')
    .split(/(?<=[.!?:])\s+|\n+/)
    .map((s) => s.replace(/\s+/g, ' ').trim())
    .filter((s) => s.length > 1 && !isFilePath(s));
}

function listed(items: string[], max: number): string {
  return items.length <= max ? items.join('; ') : `${items.slice(0, max).join('; ')}; +${items.length - max} more`;
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`;
}


function clockTime(ms: number): string {
  return Number.isFinite(ms) ? new Date(ms).toISOString().slice(11, 16) : '--:--';
}
