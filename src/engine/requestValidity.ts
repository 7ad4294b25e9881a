import type { ContentBlock, MessagesRequest } from '../shared/messages';
import { StrataError } from './ports';

/** The Messages API accepts at most this many `cache_control` breakpoints per request (system, messages and tools together). */
export const MAX_BREAKPOINTS = 4;

/**
 * What the Messages API would reject in `request`, one line each; empty when it is valid. The
 * rules checked are the ones a rebuilt history can break: the first message is the user's, roles
 * alternate, no message or text block is empty, tool_use only from the assistant and tool_result
 * only from the user, every tool_result sits in the user message right after the assistant
 * message holding its tool_use (before any text of that message), every tool_use of an
 * assistant message that a user message follows is answered there exactly once, tool_use ids are
 * unique, every tool_use input is an object, and at most four cache breakpoints. Pure; linear in the request's blocks.
 */
export function requestProblems(request: MessagesRequest): string[] {
  const problems: string[] = [];
  const messages = request.messages;
  let breakpoints = request.tools.filter((t) => t.cache_control).length;
  request.system.forEach((block, i) => {
    if (block.cache_control) breakpoints += 1;
    if (block.text.trim() === '') problems.push(`system block ${i} is an empty text block`);
  });
  if (messages.length === 0) problems.push('the request has no messages');
  else if (messages[0]!.role !== 'user') problems.push(`message 0 is from the ${messages[0]!.role}; the first message must be the user's`);
  const seenUses = new Set<string>();
  messages.forEach((message, i) => {
    const previous = messages[i - 1];
    if (previous && previous.role === message.role) problems.push(`messages ${i - 1} and ${i} are both from the ${message.role}; roles must alternate`);
    if (message.content.length === 0) problems.push(`message ${i} has an empty content array`);
    // The calls this message must answer: none unless it is the user's, right after the assistant's.
    const answerable = previous?.role === 'assistant' && message.role === 'user' ? usesOf(previous.content) : new Set<string>();
    const answered = new Set<string>();
    let textSeen = false;
    message.content.forEach((block, j) => {
      const where = `message ${i} block ${j}`;
      breakpoints += breakpointsOf(block);
      switch (block.type) {
        case 'text':
          textSeen = true;
          if (block.text.trim() === '') problems.push(`${where} is an empty text block`);
          break;
        case 'tool_use':
          if (message.role !== 'assistant') problems.push(`${where} is a tool_use in a ${message.role} message`);
          if (seenUses.has(block.id)) problems.push(`${where}: tool_use id ${block.id} is used twice`);
          if (typeof block.input !== 'object' || block.input === null || Array.isArray(block.input)) problems.push(`${where}: tool_use ${block.id} has an input that is not an object`);
          seenUses.add(block.id);
          break;
        case 'tool_result':
          if (message.role !== 'user') problems.push(`${where} is a tool_result in a ${message.role} message`);
          else if (!answerable.has(block.tool_use_id)) problems.push(`${where}: tool_result ${block.tool_use_id} has no tool_use in the assistant message just before it`);
          if (answered.has(block.tool_use_id)) problems.push(`${where}: tool_use ${block.tool_use_id} is answered twice`);
          answered.add(block.tool_use_id);
          if (textSeen && message.role === 'user') problems.push(`${where}: tool_result ${block.tool_use_id} comes after text; tool results must come first in their message`);
          if (typeof block.content !== 'string') {
            block.content.forEach((part, k) => {
              if (part.text.trim() === '') problems.push(`${where} part ${k} is an empty text block`);
            });
          }
          break;
        case 'thinking':
        case 'redacted_thinking':
          if (message.role !== 'assistant') problems.push(`${where} is a ${block.type} block in a ${message.role} message`);
          if (block.cache_control) problems.push(`${where}: a ${block.type} block cannot carry cache_control`);
          break;
      }
    });
    for (const id of answerable) if (!answered.has(id)) problems.push(`message ${i} does not answer tool_use ${id} of message ${i - 1}`);
  });
  if (breakpoints > MAX_BREAKPOINTS) problems.push(`${breakpoints} cache breakpoints; the API accepts at most ${MAX_BREAKPOINTS}`);
  return problems;
}

/** Throws StrataError 'invalid_request' naming every problem when `request` would be rejected. */
export function assertValidRequest(request: MessagesRequest, turn: number): void {
  const problems = requestProblems(request);
  if (problems.length === 0) return;
  throw new StrataError(
    `The request assembled for e${turn} would be rejected by the Messages API: ${problems.join('; ')}. This is a Strata bug: report it with the session file.`,
    'invalid_request',
  );
}

function usesOf(blocks: readonly ContentBlock[]): Set<string> {
  const ids = new Set<string>();
  for (const block of blocks) if (block.type === 'tool_use') ids.add(block.id);
  return ids;
}

function breakpointsOf(block: ContentBlock): number {
  let n = block.cache_control ? 1 : 0;
  if (block.type === 'tool_result' && typeof block.content !== 'string') n += block.content.filter((p) => p.cache_control).length;
  return n;
}
