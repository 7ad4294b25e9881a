import type { ContentBlock } from '../../shared/messages';
import { toolResultText } from '../../shared/messages';
import type { Exchange } from '../exchange';
import { exchangeId } from '../exchange';
import { trimToTokens } from '../text/trimToBudget';
import { describeCall } from '../toolOutput';
import { extractEntities } from './entities';

const HEAD_CHARS = 2_000;
const ERROR_SIGNAL = /\b(error|exception|traceback|failed|failure|fatal|panic)\b|exit code [1-9]|<returncode>[1-9]/i;

/** How an exchange ended, from its tool results and its answer. */
export type Outcome = 'ok' | 'error' | 'asked' | 'done';

export function outcomeOf(exchange: Exchange): Outcome {
  const results = exchange.input.content.filter((b) => b.type === 'tool_result');
  if (results.some((b) => b.type === 'tool_result' && (b.is_error || ERROR_SIGNAL.test(toolResultText(b).slice(0, HEAD_CHARS))))) return 'error';
  const uses = exchange.output.content.filter((b) => b.type === 'tool_use');
  if (uses.length > 0) return 'ok';
  const text = answerText(exchange).trim();
  return text.endsWith('?') ? 'asked' : 'done';
}

/** `e12 09:14 Edit parser.ts [parseLine] → ok`, shortened until it fits `maxTokens`. */
export function deriveHeader(exchange: Exchange, count: (s: string) => number, maxTokens = 12): string {
  const time = new Date(exchange.createdAt).toISOString().slice(11, 16);
  const topic = topicOf(exchange);
  const entities = extractEntities(answerText(exchange).slice(0, HEAD_CHARS)).symbols.slice(0, 2);
  const outcome = outcomeOf(exchange);
  const id = exchangeId(exchange.seq);
  const candidates = [
    `${id} ${time} ${topic}${entities.length ? ` [${entities.join(', ')}]` : ''} → ${outcome}`,
    `${id} ${time} ${topic} → ${outcome}`,
  ];
  for (const line of candidates) if (count(line) <= maxTokens) return line;
  const fixed = `${id} ${time}  → ${outcome}`;
  const room = Math.max(1, maxTokens - count(fixed));
  const short = trimToTokens(topic, room, count);
  const line = `${id} ${time} ${short} → ${outcome}`;
  return count(line) <= maxTokens ? line : trimToTokens(`${id} ${short}`, maxTokens, count);
}

/**
 * Up to `maxTokens`: what the answer said, the code changes, the commands and their outcome,
 * open questions; always ends with `retrievable: eN`.
 */
export function deriveSummary(exchange: Exchange, count: (s: string) => number, maxTokens = 120): string {
  const id = exchangeId(exchange.seq);
  const suffix = ` (retrievable: ${id})`;
  const said = firstSentences(answerText(exchange), 2);
  const actions = exchange.output.content.filter((b) => b.type === 'tool_use').map((b) => actionLine(b, exchange.input.content));
  const questions = sentences(answerText(exchange)).filter((s) => s.endsWith('?')).slice(0, 2);
  const parts = [
    said ? `said: ${said}` : '',
    actions.length ? `did: ${actions.join('; ')}` : '',
    questions.length ? `open: ${questions.join(' ')}` : '',
  ].filter(Boolean);
  const body = `${id}: ${parts.join(' | ') || 'no text'}`;
  const room = maxTokens - count(suffix);
  return `${trimToTokens(body, Math.max(1, room), count)}${suffix}`;
}

function topicOf(exchange: Exchange): string {
  const uses = exchange.output.content.filter((b) => b.type === 'tool_use');
  if (uses.length > 0) {
    const first = uses[0]!;
    const desc = first.type === 'tool_use' ? shortCall(first.name, first.input) : '';
    return uses.length > 1 ? `${desc} +${uses.length - 1}` : desc;
  }
  const words = answerText(exchange).trim().split(/\s+/).slice(0, 5).join(' ');
  return words || 'answer';
}

/** `Edit parser.ts`, `Bash pytest -x`: the tool and the last path segment or first words. */
function shortCall(name: string, input: unknown): string {
  const args = (input ?? {}) as Record<string, unknown>;
  const path = args.file_path ?? args.path ?? args.notebook_path;
  if (typeof path === 'string') return `${name} ${path.split('/').pop()}`;
  const command = args.command ?? args.pattern ?? args.query ?? args.description;
  if (typeof command === 'string') return `${name} ${command.trim().split(/\s+/).slice(0, 3).join(' ')}`;
  return name;
}

function actionLine(use: ContentBlock, inputs: ContentBlock[]): string {
  if (use.type !== 'tool_use') return '';
  const result = inputs.find((b) => b.type === 'tool_result' && b.tool_use_id === use.id);
  const call = describeCall({ name: use.name, input: use.input });
  if (!result || result.type !== 'tool_result') return call;
  const text = toolResultText(result);
  const errors = extractEntities(text.slice(0, HEAD_CHARS)).errors;
  const lines = text.length === 0 ? 0 : text.split('\n').length;
  const status = result.is_error || errors.length ? `error ${errors[0] ?? ''}`.trim() : `${lines} lines`;
  return `${call} → ${status}`;
}

function answerText(exchange: Exchange): string {
  return exchange.output.content.map((b) => (b.type === 'text' ? b.text : '')).join('\n');
}

function sentences(text: string): string[] {
  return text
    .slice(0, HEAD_CHARS)
    .split(/(?<=[.!?])\s+|\n+/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

function firstSentences(text: string, n: number): string {
  return sentences(text).slice(0, n).join(' ');
}
