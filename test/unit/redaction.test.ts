import { describe, expect, it } from 'vitest';
import type { Message } from '../../src/shared/messages';
import { redactingLogger, redactMessage } from '../../src/task/redaction';

// The door into the engine, with a marker redactor: every text a user message carries is passed
// through it, answers' own blocks are not, and nothing else of a block changes.
const redact = (text: string) => `<${text}>`;

describe('redactMessage', () => {
  it('redacts text and both forms of tool result, and keeps every other field and block', () => {
    const message: Message = {
      role: 'user',
      content: [
        { type: 'text', text: 'hi', cache_control: { type: 'ephemeral' } },
        { type: 'tool_result', tool_use_id: 't1', content: 'out', is_error: true },
        { type: 'tool_result', tool_use_id: 't2', content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }] },
        { type: 'tool_use', id: 't3', name: 'read_file', input: { path: 'x' } },
        { type: 'thinking', thinking: 'secret thought', signature: 's' },
      ],
    };
    expect(redactMessage(message, redact)).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: '<hi>', cache_control: { type: 'ephemeral' } },
        { type: 'tool_result', tool_use_id: 't1', content: '<out>', is_error: true },
        { type: 'tool_result', tool_use_id: 't2', content: [{ type: 'text', text: '<a>' }, { type: 'text', text: '<b>' }] },
        { type: 'tool_use', id: 't3', name: 'read_file', input: { path: 'x' } },
        { type: 'thinking', thinking: 'secret thought', signature: 's' },
      ],
    });
    expect(message.content[0]).toEqual({ type: 'text', text: 'hi', cache_control: { type: 'ephemeral' } });
  });
});

describe('redactingLogger', () => {
  it('redacts each level before it reaches the logger', () => {
    const lines: string[] = [];
    const log = redactingLogger({ info: (m) => lines.push(`info ${m}`), warn: (m) => lines.push(`warn ${m}`), error: (m) => lines.push(`error ${m}`) }, redact);
    log.info('a');
    log.warn('b');
    log.error('c');
    expect(lines).toEqual(['info <a>', 'warn <b>', 'error <c>']);
  });
});
