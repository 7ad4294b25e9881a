import { describe, expect, it } from 'vitest';
import type { LiveExchange } from '../../src/engine/liveExchange';
import { contentTokens, messageTokens } from '../../src/engine/blockTokens';
import { fileChangesOf, fileReadsOf, orphanToText, renderInput, renderOutput } from '../../src/engine/liveExchange';
import type { ToolCall } from '../../src/engine/toolOutput';
import type { ContentBlock } from '../../src/shared/messages';

const limits = { codeMaxLines: 50, outputMaxLines: 50 };

function render(content: ContentBlock[], calls: Map<string, ToolCall> = new Map()): ContentBlock[] {
  return renderInput({ role: 'user', content }, calls, limits).blocks;
}

function liveWith(input: ContentBlock[], calls: Map<string, ToolCall>): LiveExchange {
  return { seq: 1, createdAt: 0, input, calls, originals: new Map(), inputTokens: 0, outputTokens: 0 };
}

describe('renderInput: blocks only answers may hold become text', () => {
  it('keeps thinking as its text, an empty one and a redacted one as a note', () => {
    expect(
      render([
        { type: 'thinking', thinking: 'weighing options', signature: 's' },
        { type: 'thinking', thinking: '', signature: 's' },
        { type: 'redacted_thinking', data: 'opaque' },
      ]),
    ).toEqual([
      { type: 'text', text: 'weighing options' },
      { type: 'text', text: '(empty thinking)' },
      { type: 'text', text: '(redacted thinking)' },
    ]);
  });

  it('writes a tool call as text naming its id, tool and input (null when it has none)', () => {
    expect(
      render([
        { type: 'tool_use', id: 'u1', name: 'Bash', input: { command: 'ls' } },
        { type: 'tool_use', id: 'u2', name: 'Ping', input: undefined },
      ]),
    ).toEqual([
      { type: 'text', text: '[tool call u1: Bash {"command":"ls"}]' },
      { type: 'text', text: '[tool call u2: Ping null]' },
    ]);
  });

  it('answers an empty output with a note, and a call left unanswered with the no-result text', () => {
    const calls = new Map<string, ToolCall>([
      ['t1', { name: 'Bash', input: { command: 'true' } }],
      ['t2', { name: 'Bash', input: { command: 'sleep 9' } }],
    ]);
    expect(render([{ type: 'tool_result', tool_use_id: 't1', content: '' }], calls)).toEqual([
      { type: 'tool_result', tool_use_id: 't1', content: '(no output)' },
      { type: 'tool_result', tool_use_id: 't2', content: '(no result was recorded for this call)' },
    ]);
  });
});

describe('renderOutput: the answer as re-sent', () => {
  it('turns a tool_result into text labelled with its call id', () => {
    expect(renderOutput({ role: 'assistant', content: [{ type: 'tool_result', tool_use_id: 'x9', content: 'stray' }] })).toEqual([
      { type: 'text', text: '[result of tool call x9]\nstray' },
    ]);
  });

  it('leaves text without a tag byte for byte, and trims only the end of text it strips protocol blocks from', () => {
    const answer = renderOutput({
      role: 'assistant',
      content: [
        { type: 'text', text: 'plain answer  \n' },
        { type: 'text', text: '  a < b <housekeeping>{}</housekeeping>  \n' },
      ],
    });
    expect(answer).toEqual([
      { type: 'text', text: 'plain answer  \n' },
      { type: 'text', text: '  a < b' },
    ]);
  });
});

describe('orphanToText', () => {
  it('marks the result of a failed call as an error', () => {
    const calls = new Map<string, ToolCall>([['t1', { name: 'Bash', input: { command: 'make' } }]]);
    expect(orphanToText([{ type: 'tool_result', tool_use_id: 't1', content: 'boom', is_error: true }], calls)).toEqual([
      { type: 'text', text: '[result of Bash make (error)]\nboom' },
    ]);
  });
});

describe('the files an exchange touched', () => {
  const calls = new Map<string, ToolCall>([
    ['ok', { name: 'Edit', input: { file_path: 'a.ts' } }],
    ['failed', { name: 'Write', input: { file_path: 'b.ts' } }],
    ['read', { name: 'Read', input: { file_path: 'c.ts' } }],
  ]);
  const input: ContentBlock[] = [
    { type: 'text', text: 'see below' },
    { type: 'tool_result', tool_use_id: 'ok', content: 'edited' },
    { type: 'tool_result', tool_use_id: 'failed', content: 'denied', is_error: true },
    { type: 'tool_result', tool_use_id: 'read', content: 'x' },
  ];

  it('changes: successful edits only', () => {
    expect(fileChangesOf(liveWith(input, calls))).toEqual(['a.ts']);
    expect(fileChangesOf(liveWith([{ type: 'text', text: 'nothing' }], calls))).toEqual([]);
  });

  it('reads: by tool_use_id', () => {
    expect([...fileReadsOf(liveWith(input, calls))]).toEqual([['read', 'c.ts']]);
  });
});

describe('contentTokens', () => {
  it('counts blocks as one message would', () => {
    const count = (s: string) => s.length;
    const blocks: ContentBlock[] = [
      { type: 'text', text: 'abc' },
      { type: 'tool_result', tool_use_id: 't', content: 'defgh' },
    ];
    expect(contentTokens(blocks, count)).toBe(messageTokens({ role: 'user', content: blocks }, count));
    expect(contentTokens(blocks, count)).toBeGreaterThan(contentTokens(blocks.slice(1), count));
  });
});
