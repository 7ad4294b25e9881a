import type { Message } from './messages';
import { withoutProtocolBlocks } from './protocolSchema';

/**
 * What a person reads of an archived exchange: the user's own words in an input, and the visible
 * text of an answer. Shared by the archive (session titles), the archive browser and the chat's
 * resumed history, so all three agree on what "the user's message" is.
 */

/** The input the Task loop sends after an answer that asked for archived context: not the user's words. */
export const CONTEXT_FOLLOW_UP = 'The archived context you asked for follows. Continue the task.';
/** The last automatic context follow-up of one user message (the loop caps them). */
export const CONTEXT_FOLLOW_UP_LAST = `${CONTEXT_FOLLOW_UP} This was the last automatic follow-up for this message: a further context request is served only with the user's next message, so answer with what you have.`;
/** The input the loop sends after an answer the API paused (`pause_turn`), so the model continues it. */
export const PAUSE_FOLLOW_UP = 'Your previous answer was paused by the API (pause_turn). Continue it from where it stopped.';
const LOOP_TEXTS: ReadonlySet<string> = new Set([CONTEXT_FOLLOW_UP, CONTEXT_FOLLOW_UP_LAST, PAUSE_FOLLOW_UP]);

/** Blocks the Task loop adds to a user message: the turn environment and resolved `@`-mentions. */
const ADDED_BLOCK = /^<(?:environment|mention\b)[^>]*>/;

/**
 * The user's typed text in an input message, or undefined when the input carries none (tool
 * results, the context follow-up). Tool results and added blocks are skipped.
 */
export function userText(input: Message): string | undefined {
  if (input.role !== 'user') return undefined;
  const texts: string[] = [];
  for (const block of input.content) {
    if (block.type !== 'text' || ADDED_BLOCK.test(block.text) || LOOP_TEXTS.has(block.text)) continue;
    if (block.text.trim() !== '') texts.push(block.text);
  }
  return texts.length > 0 ? texts.join('\n\n') : undefined;
}

/** True for the turn environment block (time, open files, terminal): bookkeeping a person searching or reading skips. */
export function isEnvironmentBlock(text: string): boolean {
  return text.startsWith('<environment>');
}

/** True for a text block the Task loop added to the user's message (environment, mention). */
export function isAddedBlock(text: string): boolean {
  return ADDED_BLOCK.test(text);
}

/** The visible text of an answer: its text blocks with protocol blocks removed, trimmed; '' when none. */
export function answerText(output: Message): string {
  return output.content
    .flatMap((b) => (b.type === 'text' ? [withoutProtocolBlocks(b.text)] : []))
    .join('\n\n')
    .trim();
}

/** True when the answer called a tool (so it is not the turn's final answer). */
export function callsTools(output: Message): boolean {
  return output.content.some((b) => b.type === 'tool_use');
}

/** `text` on one line (whitespace collapsed), cut to `max` characters with an ellipsis. */
export function oneLine(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= max ? line : `${line.slice(0, Math.max(0, max - 1)).trimEnd()}…`;
}
