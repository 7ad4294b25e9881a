/**
 * Turns a scripted answer into the Messages API's wire forms: the SSE event sequence of a
 * streamed answer and the JSON body of a non-streamed one. Event shapes follow
 * https://docs.anthropic.com/en/api/messages-streaming.
 */

/**
 * A block of a scripted answer. A tool_use without `id` gets a generated `toolu_...` id; its
 * `rawJson`, when given, is streamed instead of `input` (broken or non-object JSON, or JSON cut
 * at max_tokens). A thinking block streams as thinking_delta chunks then one signature_delta, as
 * adaptive thinking does.
 */
export type ScriptedBlock =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id?: string; name: string; input: Record<string, unknown>; rawJson?: string }
  | { type: 'thinking'; thinking: string; signature: string };

type WireBlock =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown>; rawJson?: string }
  | { type: 'thinking'; thinking: string; signature: string };

/** Token figures the server reports; missing ones are 0 (output: a rough count of the answer). */
export interface ScriptedUsage {
  input_tokens?: number;
  output_tokens?: number;
  cache_creation_input_tokens?: number;
  cache_read_input_tokens?: number;
}

export interface ScriptedAnswer {
  content: ScriptedBlock[];
  /** Defaults to `tool_use` when the answer holds a tool call, else `end_turn`. */
  stopReason?: string;
  usage?: ScriptedUsage;
  /** The model id reported back; defaults to the requested one. */
  model?: string;
}

/** Shorthand for a text-only answer. */
export function textAnswer(text: string, usage?: ScriptedUsage): ScriptedAnswer {
  return { content: [{ type: 'text', text }], usage };
}

/** Shorthand for an answer that calls one tool, optionally after some text. */
export function toolAnswer(name: string, input: Record<string, unknown>, text?: string, usage?: ScriptedUsage): ScriptedAnswer {
  return { content: [...(text ? [{ type: 'text' as const, text }] : []), { type: 'tool_use', name, input }], usage };
}

interface WireUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

function wireUsage(answer: ScriptedAnswer): WireUsage {
  const u = answer.usage ?? {};
  const outputChars = answer.content.reduce((n, b) => n + (b.type === 'text' ? b.text.length : b.type === 'thinking' ? b.thinking.length : JSON.stringify(b.input).length), 0);
  return {
    input_tokens: u.input_tokens ?? 0,
    output_tokens: u.output_tokens ?? Math.max(1, Math.ceil(outputChars / 4)),
    cache_creation_input_tokens: u.cache_creation_input_tokens ?? 0,
    cache_read_input_tokens: u.cache_read_input_tokens ?? 0,
  };
}

function stopReasonOf(answer: ScriptedAnswer): string {
  return answer.stopReason ?? (answer.content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn');
}

function wireBlocks(answer: ScriptedAnswer, messageId: string): WireBlock[] {
  return answer.content.map((b, i) => (b.type === 'tool_use' ? { type: 'tool_use', id: b.id ?? `toolu_${messageId}_${i}`, name: b.name, input: b.input, ...(b.rawJson !== undefined ? { rawJson: b.rawJson } : {}) } : b));
}

/** The non-streaming response body. */
export function answerMessage(answer: ScriptedAnswer, id: string, model: string): unknown {
  return {
    id,
    type: 'message',
    role: 'assistant',
    model: answer.model ?? model,
    content: wireBlocks(answer, id).map((b) => (b.type === 'tool_use' ? { type: b.type, id: b.id, name: b.name, input: b.input } : b)),
    stop_reason: stopReasonOf(answer),
    stop_sequence: null,
    usage: wireUsage(answer),
  };
}

function chunks(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/**
 * The SSE frames of a streamed answer, one string per event: message_start, per block
 * content_block_start / deltas / content_block_stop (a ping after the first start),
 * message_delta with stop_reason and cumulative usage, message_stop.
 */
export function answerEvents(answer: ScriptedAnswer, id: string, model: string, chunkSize: number): string[] {
  const usage = wireUsage(answer);
  const events: string[] = [];
  const push = (event: string, data: unknown): void => {
    events.push(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  };
  push('message_start', {
    type: 'message_start',
    message: {
      id,
      type: 'message',
      role: 'assistant',
      model: answer.model ?? model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { ...usage, output_tokens: 1 },
    },
  });
  wireBlocks(answer, id).forEach((block, index) => {
    if (block.type === 'text') {
      push('content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
      if (index === 0) push('ping', { type: 'ping' });
      for (const text of chunks(block.text, chunkSize)) {
        push('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text } });
      }
    } else if (block.type === 'thinking') {
      push('content_block_start', { type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } });
      if (index === 0) push('ping', { type: 'ping' });
      for (const thinking of chunks(block.thinking, chunkSize)) {
        push('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking } });
      }
      push('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'signature_delta', signature: block.signature } });
    } else {
      push('content_block_start', { type: 'content_block_start', index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } });
      if (index === 0) push('ping', { type: 'ping' });
      // The API's first input_json_delta is often empty; the rest carry the JSON in pieces.
      for (const partial_json of ['', ...chunks(block.rawJson ?? JSON.stringify(block.input), chunkSize)]) {
        push('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json } });
      }
    }
    push('content_block_stop', { type: 'content_block_stop', index });
  });
  push('message_delta', { type: 'message_delta', delta: { stop_reason: stopReasonOf(answer), stop_sequence: null }, usage });
  push('message_stop', { type: 'message_stop' });
  return events;
}
