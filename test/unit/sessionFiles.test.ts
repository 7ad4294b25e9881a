import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { archivedBodySchema } from '../../src/adapters/archivedBodySchema';
import { JsonlWriter } from '../../src/adapters/jsonlWriter';
import { SessionRecorder } from '../../src/adapters/sessionRecorder';
import type { RecordingMeta } from '../../src/adapters/sessionRecorder';
import { readSessionFile } from '../../src/adapters/sessionFileReader';
import { resolveEngineSettings } from '../../src/shared/engineSettings';
import type { Message } from '../../src/shared/messages';
import { thrown } from '../support/thrown';
import { useTempDirs } from '../support/tempDirs';

/** The small writers of session files (the replay dump, `strata chat --record`) and the archived-body check. */
const tempDir = useTempDirs('strata-session-files-');
const lines = (path: string) => readFileSync(path, 'utf8').split('\n');

describe('JsonlWriter (the replay dump)', () => {
  it('writes one JSON value per line, replacing what the file held', () => {
    const path = join(tempDir(), 'dump.jsonl');
    writeFileSync(path, 'an older dump that is longer than the new one\n'.repeat(4));
    const dump = new JsonlWriter(path);
    dump.write({ seq: 1, text: 'ünï\nline' });
    dump.write([1, 'two']);
    dump.close();
    expect(lines(path)).toEqual(['{"seq":1,"text":"ünï\\nline"}', '[1,"two"]', '']);
  });

  it('a folder that does not exist is an error naming the file, the cause and what to check', () => {
    const path = join(tempDir(), 'missing', 'dump.jsonl');
    expect(() => new JsonlWriter(path)).toThrow(new Error(`Cannot write the dump file ${path}: ENOENT. Check the folder exists and is writable.`));
  });
});

const meta: RecordingMeta = {
  model: 'claude-test',
  system: 'You are a coding agent.',
  tools: [{ name: 'Read', description: 'Reads a file', input_schema: { type: 'object', properties: { path: { type: 'string' } } } }],
  settings: resolveEngineSettings(),
  sessionId: 'chat-1',
};
const input = (text: string): Message => ({ role: 'user', content: [{ type: 'text', text }] });
const answer = (text: string): Message => ({ role: 'assistant', content: [{ type: 'text', text }] });

describe('SessionRecorder (strata chat --record)', () => {
  it('writes the meta line, then each exchange as input and answer lines with the notes a replay reads back', () => {
    const path = join(tempDir(), 'chat.jsonl');
    const recorder = new SessionRecorder(path, meta);
    recorder.add({ input: input('first'), output: answer('one'), at: 1_000, estimatedTokens: 120, reportedTokens: 130, userMessage: true });
    recorder.add({ input: input('second'), output: answer('two'), at: 2_000, estimatedTokens: 0, reportedTokens: 0, changedFiles: ['src/a.ts'], resendFrom: 1 });
    const written = lines(path);
    expect(written.at(-1)).toBe('');
    expect(written.slice(0, -1).map((l) => JSON.parse(l) as unknown)).toEqual([
      { meta: { source: 'strata chat', agent: 'strata', model: 'claude-test', session_id: 'chat-1', system: meta.system, tools: meta.tools, settings: meta.settings } },
      { ...input('first'), strata: { at: 1_000, userMessage: true } },
      { ...answer('one'), strata: { estimatedTokens: 120, reportedTokens: 130 } },
      { ...input('second'), strata: { at: 2_000, changedFiles: ['src/a.ts'], resendFrom: 1 } },
      { ...answer('two'), strata: { estimatedTokens: 0, reportedTokens: 0 } },
    ]);
    const read = readSessionFile(path);
    expect(read.problems).toEqual([]);
    expect(read.meta).toMatchObject({ source: 'strata chat', agent: 'strata', model: 'claude-test', session_id: 'chat-1', system: meta.system });
    expect(read.messages).toEqual([input('first'), answer('one'), input('second'), answer('two')]);
    expect(read.notes.get(2)).toEqual({ at: 2_000, changedFiles: ['src/a.ts'], resendFrom: 1 });
  });

  it('a plain exchange notes only its time: no false user flag, no empty file list, no resend', () => {
    const path = join(tempDir(), 'chat.jsonl');
    const recorder = new SessionRecorder(path, meta);
    recorder.add({ input: input('q'), output: answer('a'), at: 5, estimatedTokens: 1, reportedTokens: 2, userMessage: false, changedFiles: [] });
    expect(JSON.parse(lines(path)[1]!)).toEqual({ ...input('q'), strata: { at: 5 } });
  });

  it('an unwritable path is a StrataError that names it, the cause and the way out', () => {
    const path = join(tempDir(), 'missing', 'chat.jsonl');
    const error = thrown(() => new SessionRecorder(path, meta));
    expect(error.code).toBe('record_unwritable');
    expect(error.message).toBe(`Cannot write the recording ${path}: ENOENT. Check the folder exists and is writable, or drop --record.`);
  });
});

describe('archivedBodySchema', () => {
  it('accepts every block an archive stores, in user and assistant messages', () => {
    const body = [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'hi' },
          { type: 'tool_result', tool_use_id: 't1', content: 'out' },
          { type: 'tool_result', tool_use_id: 't2', content: [{ type: 'text', text: 'part' }], is_error: true },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'hmm', signature: 'sig' },
          { type: 'redacted_thinking', data: 'opaque' },
          { type: 'tool_use', id: 'u1', name: 'Read', input: { path: 'a.ts' } },
        ],
      },
    ];
    expect(archivedBodySchema.parse(body)).toEqual(body);
  });

  it.each([
    ['an unknown role', [{ role: 'system', content: [] }]],
    ['an unknown block', [{ role: 'user', content: [{ type: 'image', source: {} }] }]],
    ['text without its text', [{ role: 'user', content: [{ type: 'text' }] }]],
    ['a tool call without its id', [{ role: 'assistant', content: [{ type: 'tool_use', name: 'Read', input: {} }] }]],
    ['a result whose part is not text', [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: [{ type: 'image', text: 'x' }] }] }]],
    ['a result with a non-boolean error flag', [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: 'x', is_error: 'yes' }] }]],
    ['thinking without its signature', [{ role: 'assistant', content: [{ type: 'thinking', thinking: 'x' }] }]],
    ['redacted thinking without its data', [{ role: 'assistant', content: [{ type: 'redacted_thinking' }] }]],
    ['a message that is not in an array', { role: 'user', content: [] }],
  ])('refuses %s', (_what, body) => {
    expect(archivedBodySchema.safeParse(body).success).toBe(false);
  });
});
