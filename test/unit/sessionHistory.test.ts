import { describe, expect, it } from 'vitest';
import type { ArchivedExchange } from '../../src/engine/ports';
import { CONTEXT_FOLLOW_UP } from '../../src/shared/exchangeText';
import { HISTORY_MAX_CHARS, HISTORY_MAX_ENTRIES, sessionHistory } from '../../src/extension/sessionHistory';
import { hostToWebviewSchema } from '../../src/shared/webviewMessages';

const ex = (seq: number, full: ArchivedExchange['full']): ArchivedExchange => ({ sessionId: 's', seq, createdAt: seq, header: '', summary: '', tokens: 0, full });
const env = { type: 'text' as const, text: '<environment>\nTime: now\n</environment>' };

describe('the compact history of a resumed session', () => {
  it('keeps user messages and final answers; drops tool rounds, added blocks, protocol blocks, the context follow-up and superseded exchanges', () => {
    const history = sessionHistory([
      ex(3, [
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'ok' }, env] },
        { role: 'assistant', content: [{ type: 'text', text: 'Done: hello is now "strata".\n<housekeeping>{"summaries":{}}</housekeeping>' }] },
      ]),
      ex(1, [
        { role: 'user', content: [{ type: 'text', text: 'What does hello.ts export?' }, { type: 'text', text: '<mention ref="hello.ts">\nx\n</mention>' }, env] },
        { role: 'assistant', content: [{ type: 'text', text: 'It exports hello.' }] },
      ]),
      ex(2, [
        { role: 'user', content: [{ type: 'text', text: '  Make it say strata  ' }, env] },
        { role: 'assistant', content: [{ type: 'text', text: 'I will change it.' }, { type: 'tool_use', id: 't1', name: 'edit_file', input: {} }] },
      ]),
      { ...ex(5, [
        { role: 'user', content: [{ type: 'text', text: 'A question later edited' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'An answer to it' }] },
      ]), supersededBy: 6 },
      ex(4, [
        { role: 'user', content: [{ type: 'text', text: CONTEXT_FOLLOW_UP }] },
        { role: 'assistant', content: [{ type: 'thinking', thinking: 'hmm', signature: 's' }] },
      ]),
    ]);
    expect(history).toEqual({
      omitted: 0,
      entries: [
        { role: 'user', text: 'What does hello.ts export?', seq: 1 },
        { role: 'assistant', text: 'It exports hello.', seq: 1 },
        { role: 'user', text: 'Make it say strata', seq: 2 },
        { role: 'assistant', text: 'Done: hello is now "strata".', seq: 3 },
      ],
    });
  });

  it('keeps the latest entries and counts the rest; cuts a long text with a note; the message fits the webview schema', () => {
    const many = Array.from({ length: HISTORY_MAX_ENTRIES }, (_, i) =>
      ex(i + 1, [
        { role: 'user', content: [{ type: 'text', text: i === HISTORY_MAX_ENTRIES - 1 ? 'x'.repeat(HISTORY_MAX_CHARS + 10) : `q${i + 1}` }] },
        { role: 'assistant', content: [{ type: 'text', text: `a${i + 1}` }] },
      ]),
    );
    const { entries, omitted } = sessionHistory(many);
    expect(omitted).toBe(HISTORY_MAX_ENTRIES);
    expect(entries).toHaveLength(HISTORY_MAX_ENTRIES);
    expect(entries[0]).toEqual({ role: 'user', text: `q${HISTORY_MAX_ENTRIES / 2 + 1}`, seq: HISTORY_MAX_ENTRIES / 2 + 1 });
    const long = entries.at(-2)!.text;
    expect(long.startsWith('x'.repeat(HISTORY_MAX_CHARS))).toBe(true);
    expect(long).toMatch(/\[… 10 more characters: open the exchange in the Archive view\]$/);
    expect(hostToWebviewSchema.safeParse({ type: 'session/started', sessionId: 's', history: entries, omitted }).success).toBe(true);
  });

  it('takes the final answer of a tool round, and cuts only a text longer than the limit', () => {
    const round = sessionHistory([
      ex(1, [
        { role: 'user', content: [{ type: 'text', text: 'Fix it' }] },
        { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'edit_file', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'ok' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'Fixed.' }] },
      ]),
    ]);
    expect(round.entries).toEqual([
      { role: 'user', text: 'Fix it', seq: 1 },
      { role: 'assistant', text: 'Fixed.', seq: 1 },
    ]);
    // The user's message is found wherever it stands in the exchange.
    const late = sessionHistory([ex(2, [{ role: 'assistant', content: [{ type: 'text', text: 'Continued.' }] }, { role: 'user', content: [{ type: 'text', text: 'Go on' }] }])]);
    expect(late.entries).toEqual([
      { role: 'user', text: 'Go on', seq: 2 },
      { role: 'assistant', text: 'Continued.', seq: 2 },
    ]);
    const exact = 'a'.repeat(HISTORY_MAX_CHARS);
    const over = `${'b'.repeat(HISTORY_MAX_CHARS)}tail`;
    const texts = sessionHistory([ex(1, [{ role: 'user', content: [{ type: 'text', text: exact }] }, { role: 'assistant', content: [{ type: 'text', text: over }] }])]).entries.map((e) => e.text);
    expect(texts[0]).toBe(exact);
    expect(texts[1]).toBe(`${'b'.repeat(HISTORY_MAX_CHARS)}\n\n[… 4 more characters: open the exchange in the Archive view]`);
  });
});

