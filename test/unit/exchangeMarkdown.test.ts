import { describe, expect, it } from 'vitest';
import type { ArchivedExchange } from '../../src/engine/ports';
import { exchangeMarkdown, fenced, sessionMarkdown } from '../../src/extension/exchangeMarkdown';

const createdAt = new Date(2026, 10, 3, 9, 7).getTime();
const exchange: ArchivedExchange = {
  sessionId: 's1',
  seq: 4,
  createdAt,
  header: 'e4 09:07 Edit hello.ts → ok',
  summary: 'e4: changed the greeting.\nTests pass.',
  tokens: 321,
  full: [
    {
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'tu1', content: 'file with ``` fence inside' },
        { type: 'tool_result', tool_use_id: 'tu2', content: [{ type: 'text', text: 'boom' }], is_error: true },
        { type: 'text', text: '<environment>\nTime: now\n</environment>' },
        { type: 'text', text: '<mention path="a.ts">\nconst a = 1;\n</mention>' },
      ],
    },
    {
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'secret reasoning here', signature: 'sig' },
        { type: 'redacted_thinking', data: 'xyz' },
        { type: 'text', text: 'I will edit it.' },
        { type: 'tool_use', id: 'tu3', name: 'edit_file', input: { path: 'hello.ts' } },
      ],
    },
  ],
};

describe('an archived exchange as Markdown', () => {
  it('shows header, time, summary, both messages, tool calls and results; thinking is marked, not shown', () => {
    const md = exchangeMarkdown(exchange);
    expect(md).toBe(
      [
        '# e4 09:07 Edit hello.ts → ok',
        '_2026-11-03 09:07 · session s1 · 321 tokens_',
        '> e4: changed the greeting.\n> Tests pass.',
        '## User',
        '**Tool result** (tu1)\n\n````text\nfile with ``` fence inside\n````',
        '**Tool result** (tu2) **error**\n\n```text\nboom\n```',
        // The environment block is left out; a mention Strata added is shown as such.
        '**Added by Strata:**\n\n```xml\n<mention path="a.ts">\nconst a = 1;\n</mention>\n```',
        '## Assistant',
        '_(thinking omitted: 21 characters)_',
        '_(redacted thinking omitted)_',
        'I will edit it.',
        '**Tool call** `edit_file` (tu3)\n\n```json\n{\n  "path": "hello.ts"\n}\n```',
      ].join('\n\n') + '\n',
    );
    expect(md).not.toContain('secret reasoning');
    expect(md).not.toContain('environment');
  });

  it('renders a session with its title and every exchange one heading level down', () => {
    const md = sessionMarkdown({ id: 's1', title: 'Greet strata', firstAt: createdAt, lastAt: createdAt, exchanges: 1 }, [exchange]);
    expect(md.startsWith('# Greet strata\n\n_Session s1 · 2026-11-03 09:07 – 2026-11-03 09:07 · 1 exchange_\n\n## e4 09:07 Edit')).toBe(true);
    // A header that does not start with its id gets one.
    expect(exchangeMarkdown({ ...exchange, header: 'Edit hello.ts' }).split('\n')[0]).toBe('# e4 · Edit hello.ts');
    expect(md).toContain('\n### User\n');
    expect(md).toContain('\n### Assistant\n');
    expect(md.endsWith('```\n')).toBe(true);
  });

  it('marks a superseded exchange, skips an empty summary, trims text, and shows an empty message as empty', () => {
    const md = exchangeMarkdown({
      ...exchange,
      summary: '  \n ',
      supersededBy: 6,
      full: [
        { role: 'user', content: [{ type: 'text', text: '  Why?  \n' }] },
        { role: 'assistant', content: [{ type: 'text', text: '<environment>\nTime: now\n</environment>' }] },
      ],
    });
    expect(md).toBe(
      ['# e4 09:07 Edit hello.ts → ok', '_2026-11-03 09:07 · session s1 · 321 tokens · superseded by e6 (an edited, resent message)_', '## User', 'Why?', '## Assistant', '_(empty)_'].join('\n\n') + '\n',
    );
    expect(exchangeMarkdown({ ...exchange, summary: '  one line  ' }).split('\n\n')[2]).toBe('> one line');
  });

  it('a session with no title is named by its id; the exchanges are counted', () => {
    const md = sessionMarkdown({ id: 's9', title: '', firstAt: createdAt, lastAt: createdAt, exchanges: 2 }, [exchange, { ...exchange, seq: 5, header: 'e5 done' }]);
    expect(md.split('\n\n').slice(0, 2)).toEqual(['# Session s9', '_Session s9 · 2026-11-03 09:07 – 2026-11-03 09:07 · 2 exchanges_']);
    expect(sessionMarkdown({ id: 's0', title: '', firstAt: createdAt, lastAt: createdAt, exchanges: 0 }, [])).toBe('# Session s0\n\n_Session s0 · 2026-11-03 09:07 – 2026-11-03 09:07 · 0 exchanges_\n');
  });

  it('fences text with a fence longer than any backtick run inside', () => {
    expect(fenced('a ````` b\n\n', 'text')).toBe('``````text\na ````` b\n``````');
    expect(fenced('plain', '')).toBe('```\nplain\n```');
  });
});
