import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openSqliteArchive } from '../../src/adapters/sqliteArchiveStore';
import { replaySession } from '../../src/host/replaySession';
import type { ArchivedExchange } from '../../src/engine/ports';
import { resolveEngineSettings } from '../../src/shared/engineSettings';
import { parseSessionText } from '../../src/shared/sessionSchema';
import { exportedMessages, loadSession, sessionJsonl } from '../../src/extension/sessionExport';
import { charTokenizer, silentLogger } from '../support/engineHarness';
import { useTempDirs } from '../support/tempDirs';

/**
 * JSONL export: a session replayed into a real archive, exported, parsed back with the session
 * parser (what `strata replay` reads) and replayed again into a second archive.
 */
const tempDir = useTempDirs('strata-export-');

const SESSION = join(__dirname, '..', '..', 'bench', 'sessions', 'cc-cclog-sample-12a546d1.jsonl');

describe('session export as JSON Lines', () => {
  it('round-trips a real session: archive -> export -> parse gives the same messages, and replaying it archives the same exchanges', async () => {
    const dir = tempDir();
    const original = parseSessionText(readFileSync(SESSION, 'utf8'), 'original.jsonl');
    const a = openSqliteArchive(join(dir, 'a.sqlite'));
    const first = await replaySession(original, 'orig', resolveEngineSettings({}), { tokenizer: charTokenizer, archive: a, logger: silentLogger }, () => undefined);
    expect(first.turns).toBeGreaterThan(5);
    const archived = loadSession(a, 'orig');
    expect(archived).toHaveLength(first.turns);

    const text = sessionJsonl('orig', archived);
    const parsed = parseSessionText(text, 'exported.jsonl');
    expect(parsed.problems).toEqual([]);
    expect(parsed.meta).toMatchObject({ source: 'strata archive', session_id: 'orig' });
    expect(parsed.messages).toEqual(original.messages);
    // Each input carries its exchange's time, so a replay stamps exchanges as the archive did.
    const inputs = [...parsed.notes.entries()].map(([index, note]) => [parsed.messages[index]!.role, note.at]);
    expect(inputs).toEqual(archived.map((e) => ['user', e.createdAt]));

    const b = openSqliteArchive(join(dir, 'b.sqlite'));
    const second = await replaySession(parsed, 'copy', resolveEngineSettings({}), { tokenizer: charTokenizer, archive: b, logger: silentLogger }, () => undefined);
    expect(second.turns).toBe(first.turns);
    const copied = loadSession(b, 'copy');
    expect(copied.map((e) => e.full)).toEqual(archived.map((e) => e.full));
    expect(copied.map((e) => e.createdAt)).toEqual(archived.map((e) => e.createdAt));
    a.close();
    b.close();
  });

  it('drops empty text blocks, empty answers and superseded exchanges, and merges two inputs in a row, as the parser would', () => {
    const ex = (seq: number, full: ArchivedExchange['full']): ArchivedExchange => ({ sessionId: 's', seq, createdAt: 1000 * seq, header: '', summary: '', tokens: 0, full });
    const exchanges = [
      ex(2, [{ role: 'user', content: [{ type: 'text', text: 'second' }] }, { role: 'assistant', content: [{ type: 'text', text: 'answer two' }] }]),
      ex(1, [{ role: 'user', content: [{ type: 'text', text: 'first' }, { type: 'text', text: '' }] }, { role: 'assistant', content: [{ type: 'text', text: '', cache_control: { type: 'ephemeral' } }] }]),
    ];
    const superseded = { ...ex(3, [{ role: 'user', content: [{ type: 'text', text: 'edited away' }] }, { role: 'assistant', content: [{ type: 'text', text: 'gone' }] }]), supersededBy: 4 };
    const out = exportedMessages([...exchanges, superseded]);
    expect(out).toEqual([
      { message: { role: 'user', content: [{ type: 'text', text: 'first' }, { type: 'text', text: 'second' }] }, at: 1000 },
      { message: { role: 'assistant', content: [{ type: 'text', text: 'answer two' }] } },
    ]);
    const parsed = parseSessionText(sessionJsonl('s', exchanges), 'x.jsonl');
    expect(parsed.problems).toEqual([]);
    expect(parsed.messages).toEqual(out.map((o) => o.message));
  });

  it('writes the meta line, stamps only the first input of an exchange, strips cache marks, and skips an exchange gone since the listing', () => {
    const ex = (seq: number, full: ArchivedExchange['full']): ArchivedExchange => ({ sessionId: 's', seq, createdAt: 1000 * seq, header: '', summary: '', tokens: 0, full });
    const exchanges = [
      ex(1, [
        { role: 'user', content: [{ type: 'text', text: 'q', cache_control: { type: 'ephemeral' } }] },
        { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'read_file', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'x' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'a' }] },
      ]),
      // An exchange whose first message is the model's (a resumed answer): no time on it.
      ex(2, [{ role: 'assistant', content: [{ type: 'text', text: 'more' }] }, { role: 'user', content: [{ type: 'text', text: 'ok' }] }]),
    ];
    const text = sessionJsonl('s-1', exchanges);
    expect(text.split('\n')[0]).toBe('{"meta":{"source":"strata archive","agent":"strata","session_id":"s-1"}}');
    expect(exportedMessages(exchanges)).toEqual([
      { message: { role: 'user', content: [{ type: 'text', text: 'q' }] }, at: 1000 },
      { message: { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'read_file', input: {} }] } },
      { message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'x' }] } },
      { message: { role: 'assistant', content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'more' }] } },
      { message: { role: 'user', content: [{ type: 'text', text: 'ok' }] } },
    ]);
    const listed = exchanges.map(({ sessionId, seq, createdAt, header, summary }) => ({ sessionId, seq, createdAt, header, summary }));
    // A turn stopped before its answer, then an exchange that starts with the model's message: only inputs carry a time.
    const stopped = [ex(1, [{ role: 'user', content: [{ type: 'text', text: 'q' }] }]), ex(2, [{ role: 'assistant', content: [{ type: 'text', text: 'late' }] }])];
    expect(exportedMessages(stopped)).toEqual([{ message: { role: 'user', content: [{ type: 'text', text: 'q' }] }, at: 1000 }, { message: { role: 'assistant', content: [{ type: 'text', text: 'late' }] } }]);
    const browser = { exchanges: () => listed, get: (_s: string, seq: number) => (seq === 1 ? exchanges[0] : undefined) };
    expect(loadSession(browser, 's')).toEqual([exchanges[0]]);
  });
});

