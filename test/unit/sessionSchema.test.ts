import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readSessionFile } from '../../src/adapters/sessionFileReader';
import { makeTempDir } from '../../src/adapters/tempFiles';
import { decodeSessionBytes, parseSessionText } from '../../src/shared/sessionSchema';
import { sharedSessionFiles } from '../support/sharedSessions';
import { thrown } from '../support/thrown';

const META = '{"meta": {"agent": "test", "system": null}}';
const USER = '{"role": "user", "content": [{"type": "text", "text": "Fix the parser."}]}';
const ASSISTANT = '{"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "pytest"}}]}';
const RESULT = '{"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "1 passed"}]}';

function withResult(content: string): string {
  return [META, USER, ASSISTANT, JSON.stringify({ role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content }] })].join('\n');
}

describe('every shared real session parses cleanly', () => {
  for (const file of sharedSessionFiles()) {
    it(`${basename(file)}: no skipped line, one message per line after the meta`, () => {
      const lines = readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '');
      const session = readSessionFile(file);
      const merges = session.problems.filter((p) => p.includes('merged')).length;
      expect(session.problems.filter((p) => p.includes('skipped'))).toEqual([]);
      expect(session.messages.length).toBe(lines.length - 1 - merges);
      expect(session.messages[0]?.role).toBe('user');
      expect(typeof session.meta.agent).toBe('string');
      if (basename(file).startsWith('mini-')) expect(session.meta.system).toContain('shell');
      else expect(session.meta.system).toBeUndefined();
    });
  }
});

describe('parseSessionText: unusable files', () => {
  it('an empty (or blank) file is session_empty, naming the file and the format', () => {
    for (const text of ['', '\n  \n\r\n']) {
      const error = thrown(() => parseSessionText(text, 'empty.jsonl'));
      expect(error.code).toBe('session_empty');
      expect(error.message).toContain('empty.jsonl');
      expect(error.message).toContain('{"meta"');
    }
  });

  it('a first line that is neither meta nor message is session_format, naming file, line and format', () => {
    for (const first of ['hello world', '{"foo": 1}', '[1, 2]', '{"role": "system", "content": "x"}']) {
      const error = thrown(() => parseSessionText(`\n${first}\n${USER}`, 'odd.jsonl'));
      expect(error.code).toBe('session_format');
      expect(error.message).toContain('odd.jsonl');
      expect(error.message).toContain('line 2');
      expect(error.message).toContain('"role": "user" | "assistant"');
    }
  });
});

describe('parseSessionText: what it accepts and repairs', () => {
  it('reads meta and messages; a file without a meta line gets default meta', () => {
    const withMeta = parseSessionText([META, USER, ASSISTANT, RESULT].join('\n'), 's.jsonl');
    expect(withMeta.meta).toEqual({ agent: 'test' });
    expect(withMeta.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(withMeta.problems).toEqual([]);
    const bare = parseSessionText([USER, ASSISTANT].join('\r\n'), 'bare.jsonl');
    expect(bare.meta).toEqual({});
    expect(bare.messages.length).toBe(2);
    expect(bare.messages[1]!.content[0]).toEqual({ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'pytest' } });
  });

  it('skips a bad middle line with a "<file>:<line>: <what>" problem and goes on', () => {
    const text = [META, USER, '{"role": "assistant", "content": [{"type": "text"}]}', '{not json', ASSISTANT, RESULT].join('\n');
    const session = parseSessionText(text, 'mid.jsonl');
    expect(session.messages.length).toBe(3);
    expect(session.problems).toHaveLength(2);
    expect(session.problems[0]).toMatch(/^mid\.jsonl:3: not a message \(content\.0\.text: .+\); line skipped$/);
    expect(session.problems[1]).toMatch(/^mid\.jsonl:4: not valid JSON \(.+\); line skipped$/);
  });

  it('keeps signed thinking blocks (a recorded live chat sends them back) and redacted ones', () => {
    const lines = [
      '{"role": "user", "content": "go"}',
      '{"role": "assistant", "content": [{"type": "thinking", "thinking": "hm", "signature": "s1"}, {"type": "redacted_thinking", "data": "QUJD"}, {"type": "text", "text": "ok"}]}',
    ];
    const { messages, problems } = parseSessionText(lines.join('\n'), 't.jsonl');
    expect(problems).toEqual([]);
    expect(messages[1]!.content).toEqual([
      { type: 'thinking', thinking: 'hm', signature: 's1' },
      { type: 'redacted_thinking', data: 'QUJD' },
      { type: 'text', text: 'ok' },
    ]);
  });

  it('reads a tool_use block without input as an empty input (zod 4.4+ requires unknown keys unless optional)', () => {
    const line = '{"role": "assistant", "content": [{"type": "tool_use", "id": "a", "name": "Read"}]}';
    const { messages, problems } = parseSessionText(line, 'i.jsonl');
    expect(problems).toEqual([]);
    expect(messages[0]!.content).toEqual([{ type: 'tool_use', id: 'a', name: 'Read', input: {} }]);
  });

  it('normalises string content, tool_result parts and unknown blocks', () => {
    const lines = [
      '{"role": "user", "content": "plain words"}',
      '{"role": "assistant", "content": [{"type": "thinking", "thinking": "hm"}, {"type": "tool_use", "id": "a", "name": "Read", "input": {"file_path": "a.ts"}}]}',
      '{"role": "user", "content": [{"type": "tool_result", "tool_use_id": "a", "is_error": true, "content": [{"type": "text", "text": "line"}, {"type": "image", "source": {}}]}, {"type": "image", "source": {}}]}',
    ];
    const { messages, problems } = parseSessionText(lines.join('\n'), 'n.jsonl');
    expect(problems).toEqual([]);
    expect(messages[0]!.content).toEqual([{ type: 'text', text: 'plain words' }]);
    expect(messages[1]!.content[0]).toEqual({ type: 'text', text: '[unsupported block: thinking]' });
    expect(messages[2]!.content).toEqual([
      { type: 'tool_result', tool_use_id: 'a', is_error: true, content: [{ type: 'text', text: 'line' }, { type: 'text', text: '[unsupported block: image]' }] },
      { type: 'text', text: '[unsupported block: image]' },
    ]);
  });

  it('merges two messages of the same role in a row, saying so', () => {
    const session = parseSessionText([USER, USER.replace('Fix the parser.', 'And the tests.'), ASSISTANT].join('\n'), 'm.jsonl');
    expect(session.messages.length).toBe(2);
    expect(session.messages[0]!.content.map((b) => (b.type === 'text' ? b.text : ''))).toEqual(['Fix the parser.', 'And the tests.']);
    expect(session.problems).toEqual(['m.jsonl:2: second user message in a row (previous on line 1); merged into it']);
  });

  it('replaces binary-looking tool output (NUL bytes, or >10% control characters) and reports it', () => {
    for (const binary of ['PNG\u0000\u0001\u0002 data', '\u0001\u0002\u0003\u0004abcdef']) {
      const session = parseSessionText(withResult(binary), 'b.jsonl');
      const block = session.messages[2]!.content[0]!;
      expect(block).toMatchObject({ type: 'tool_result', content: `[binary output: ${Buffer.byteLength(binary)} bytes, not shown]` });
      expect(session.problems).toEqual([`b.jsonl:4: tool result t1 looks binary (${Buffer.byteLength(binary)} bytes); replaced by a placeholder`]);
    }
    const colored = '\u001b[32mPASSED\u001b[0m tests/test_a.py\n'.repeat(20);
    expect(parseSessionText(withResult(colored), 'c.jsonl').problems).toEqual([]);
  });

  it('parses a 50 MB tool-result line in linear time', () => {
    const started = performance.now();
    const huge = `${'0123456789abcdef'.repeat(3_276_800)}\nthe end`;
    const session = parseSessionText(withResult(huge), 'big.jsonl');
    expect(session.problems).toEqual([]);
    expect((session.messages[2]!.content[0] as { content: string }).content.length).toBe(huge.length);
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});

describe('decodeSessionBytes', () => {
  it('reports invalid UTF-8 (with the line of the first replacement) and keeps going', () => {
    const bytes = new Uint8Array([...Buffer.from(`${USER}\n{"role": "assistant", "content": "caf`), 0xff, 0xfe, ...Buffer.from('"}')]);
    const decoded = decodeSessionBytes(bytes, 'bad.jsonl');
    expect(decoded.problems).toEqual(['bad.jsonl: invalid UTF-8 bytes were replaced by U+FFFD (first replacement character on line 2)']);
    expect(parseSessionText(decoded.text, 'bad.jsonl').messages[1]!.content[0]).toEqual({ type: 'text', text: 'caf\uFFFD\uFFFD' });
  });

  it('a U+FFFD that really is in the file, and a BOM, are not problems', () => {
    const decoded = decodeSessionBytes(new Uint8Array([0xef, 0xbb, 0xbf, ...Buffer.from('{"role": "user", "content": "\uFFFD ok"}')]), 'ok.jsonl');
    expect(decoded.problems).toEqual([]);
    expect(parseSessionText(decoded.text, 'ok.jsonl').messages).toHaveLength(1);
  });
});

describe('readSessionFile', () => {
  it('names the path when the file is missing or is a folder', () => {
    const temp = makeTempDir('strata-session-');
    try {
      const missing = join(temp.dir, 'nope.jsonl');
      const error = thrown(() => readSessionFile(missing));
      expect(error.code).toBe('session_missing');
      expect(error.message).toContain(missing);
      const folder = join(temp.dir, 'folder.jsonl');
      mkdirSync(folder);
      expect(thrown(() => readSessionFile(folder))).toMatchObject({ code: 'session_missing', message: expect.stringContaining(folder) });
    } finally {
      temp.remove();
    }
  });

  it('reads bytes, decodes, parses, and reports decoding problems first', () => {
    const temp = makeTempDir('strata-session-');
    try {
      const path = join(temp.dir, 's.jsonl');
      writeFileSync(path, Buffer.concat([Buffer.from(`${META}\n${USER}\n{"role": "assistant", "content": "x`), Buffer.from([0xc3]), Buffer.from('"}\nnot json\n')]));
      const session = readSessionFile(path);
      expect(session.messages).toHaveLength(2);
      expect(session.problems[0]).toContain('invalid UTF-8');
      expect(session.problems[1]).toMatch(new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:4: not valid JSON`));
    } finally {
      temp.remove();
    }
  });
});
