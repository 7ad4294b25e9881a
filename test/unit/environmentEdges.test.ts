import { describe, expect, it } from 'vitest';
import { MAX_ENV_TEXT_CHARS, MAX_OPEN_TABS, systemPrompt, turnEnvironmentBlock } from '../../src/task/environment';

// The exact environment text the model is given (found by mutation testing, task-rest): the
// system branch word for word, and each per-turn line at its edges.

const stable = { os: 'linux', shell: '/bin/bash', workspaceRoot: '/w', frontEnd: 'strata chat' };
const block = (env: Parameters<typeof turnEnvironmentBlock>[0]) => turnEnvironmentBlock(env)?.text;

describe('the system branch, word for word', () => {
  it('role, environment and guardrails (a change here changes every cached prefix)', () => {
    expect(systemPrompt(stable)).toBe(
      [
        "You are Strata, a coding agent working in the user's repository through tools.",
        '',
        '## Environment',
        '- Front end: strata chat',
        '- Operating system: linux',
        '- Shell: /bin/bash',
        '- Workspace root: /w (every path you use is relative to it; you cannot leave it)',
        '',
        '## Guardrails',
        '- Read before you edit; prefer edit_file (search/replace) over rewriting whole files.',
        "- Writes and commands may need the user's approval; if one is refused, ask or change course, do not retry it unchanged.",
        '- Never print secrets (API keys, tokens) you come across; never run destructive commands (rm -rf, force pushes) unless the user asked for exactly that.',
        '- Earlier exchanges you only see as headers, summaries or pointers are archived, not lost: call the recall tool (by id or by topic) rather than re-running a command or re-reading a file.',
        '- When the task is done, say what changed and how it was checked, in a few lines.',
      ].join('\n'),
    );
  });
});

describe('user instructions', () => {
  it('follow the guardrails after a blank line, under their own heading', () => {
    expect(systemPrompt(stable, ' Use tabs. ')).toBe(`${systemPrompt(stable)}\n\n## User instructions\nUse tabs.`);
  });
});

describe('the per-turn environment block at its edges', () => {
  it('is one text block', () => {
    expect(turnEnvironmentBlock({ time: 't' })).toEqual({ type: 'text', text: '<environment>\nTime: t\n</environment>' });
  });

  it('a selection with its lines, cut to its head past the limit', () => {
    expect(block({ selection: { lines: '3-4', text: 'a\nb' } })).toBe('<environment>\nSelection (lines 3-4):\na\nb\n</environment>');
    const exact = 's'.repeat(MAX_ENV_TEXT_CHARS);
    expect(block({ selection: { lines: '1', text: exact } })).toBe(`<environment>\nSelection (lines 1):\n${exact}\n</environment>`);
    expect(block({ selection: { lines: '1', text: `${exact}TAIL` } })).toBe(`<environment>\nSelection (lines 1):\n${exact}\n…\n</environment>`);
    expect(block({ selection: { lines: '1', text: '' } })).toBeUndefined();
  });

  it('open tabs: none says nothing, the cap lists all without a count, one more is counted', () => {
    expect(block({ openTabs: [] })).toBeUndefined();
    const tabs = Array.from({ length: MAX_OPEN_TABS }, (_, i) => `t${i}`);
    expect(block({ openTabs: tabs })).toBe(`<environment>\nOpen tabs: ${tabs.join(', ')}\n</environment>`);
    expect(block({ openTabs: [...tabs, 'extra'] })).toBe(`<environment>\nOpen tabs: ${tabs.join(', ')} (+1 more)\n</environment>`);
  });

  it('terminal output trimmed, a blank one left out; stale files joined, none left out', () => {
    expect(block({ terminalOutput: '\n  $ make\n  ok  \n\n' })).toBe('<environment>\nRecent terminal output:\n$ make\n  ok\n</environment>');
    expect(block({ terminalOutput: ' \n ' })).toBeUndefined();
    expect(block({ staleFiles: [] })).toBeUndefined();
    expect(block({ staleFiles: ['a.ts', 'b.ts'] })).toBe('<environment>\nChanged on disk since you read them (read again before editing): a.ts, b.ts\n</environment>');
  });
});
