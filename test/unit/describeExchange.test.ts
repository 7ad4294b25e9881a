import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Message } from '../../src/shared/messages';
import type { Exchange } from '../../src/engine/exchange';
import { deriveHeader, deriveSummary, outcomeOf } from '../../src/engine/derive/describeExchange';
import { readSessionFile } from '../../src/adapters/sessionFileReader';
import { sharedSessionFiles } from '../support/sharedSessions';

/** A simple, deterministic stand-in for the tokenizer: four characters a token. */
const count = (s: string) => Math.ceil(s.length / 4);

// Hand-built exchanges; the mini-swe-agent one copies a short piece of
// mini-deepseek-django-13964.jsonl (SWE-agent/mini-swe-agent, MIT) in its raw text form.
const at = (h: number, m: number) => Date.UTC(2025, 0, 1, h, m);
const exchanges: Record<string, Exchange> = {
  edit: {
    seq: 3,
    createdAt: at(9, 14),
    input: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'r1', content: '     1→export function parseLine(line: string) {\n     2→  for (let i = 0; i <= line.length; i++) {' }] },
    output: {
      role: 'assistant',
      content: [
        { type: 'text', text: 'The off-by-one is in parseLine: the loop runs one step past the end. I will fix the bound and keep the signature.' },
        { type: 'tool_use', id: 'e1', name: 'Edit', input: { file_path: '/repo/src/parser.ts', old_string: '  for (let i = 0; i <= line.length; i++) {', new_string: '  for (let i = 0; i < line.length; i++) {\n    if (isBlank(line)) break;' } },
      ],
    },
  },
  pytest: {
    seq: 4,
    createdAt: at(9, 15),
    input: {
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: 'b1',
          is_error: true,
          content:
            'Exit code 1\n============================= test session starts ==============================\ncollected 5 items\n\ntests/test_parser.py ....F\n\n=================================== FAILURES ===================================\n____________________________ test_empty_line ____________________________\n>       assert parse_line("") == [""]\nE       AssertionError: assert [] == [\'\']\n=========================== short test summary info ============================\nFAILED tests/test_parser.py::test_empty_line - AssertionError: assert [] == [\'\']\n========================= 1 failed, 4 passed in 0.12s =========================',
        },
      ],
    },
    output: {
      role: 'assistant',
      content: [
        { type: 'text', text: 'The empty-line case still fails. Let me run just that test with more output.' },
        { type: 'tool_use', id: 'b2', name: 'Bash', input: { command: 'cd /repo && uv run pytest tests/test_parser.py::test_empty_line -x -vv', description: 'Run the failing test' } },
      ],
    },
  },
  question: {
    seq: 5,
    createdAt: at(9, 20),
    input: { role: 'user', content: [{ type: 'text', text: 'Refactor the config loader so it reads both files. Keep it small.' }] },
    output: {
      role: 'assistant',
      content: [{ type: 'text', text: 'I can merge loadUserConfig and loadProjectConfig into one function, or keep both and add a wrapper. Merging is simpler but changes the public API. Which do you prefer?' }],
    },
  },
  mini: {
    seq: 5,
    createdAt: at(10, 2),
    input: {
      role: 'user',
      content: [
        {
          type: 'text',
          text: '<returncode>1</returncode>\n<output>\nTraceback (most recent call last):\n  File "/testbed/reproduce_issue.py", line 22, in <module>\n    django.setup()\n  File "/testbed/django/utils/deprecation.py", line 5, in <module>\n    from asgiref.sync import sync_to_async\nModuleNotFoundError: No module named \'asgiref\'\n</output>',
        },
      ],
    },
    output: {
      role: 'assistant',
      content: [{ type: 'text', text: "I need to install dependencies. Let me check if there's a requirements file or setup.py:\n\n```bash\npip install asgiref -q\n```" }],
    },
  },
};

describe('deriveHeader and deriveSummary: golden exchanges', () => {
  it('a Claude Code Edit', () => {
    const e = exchanges.edit!;
    expect(deriveHeader(e, count)).toBe('e3 09:14 Edit parser.ts [isBlank] → ok');
    expect(deriveSummary(e, count)).toBe(
      'Results: 1 ok. Said: The off-by-one is in parseLine: the loop runs one step past the end. Changed: edited src/parser.ts (isBlank). retrievable: e3',
    );
  });

  it('a Bash call after a failing pytest run', () => {
    const e = exchanges.pytest!;
    expect(deriveHeader(e, count)).toBe('e4 09:15 pytest [test_parser.py] → error');
    expect(deriveSummary(e, count)).toBe(
      "Results: 1 failed (exit 1; 1 failed, 4 passed in 0.12s; AssertionError: assert [] == ['']; FAILED tests/test_parser.py::test_empty_line). " +
        'Said: The empty-line case still fails. Let me run just that test with more output. Ran: cd /repo && uv run pytest tests/test_parser.py::test_empty_line -x -vv. retrievable: e4',
    );
    expect(deriveSummary(e, count, 40)).toBe(
      'Results: 1 failed (exit 1; 1 failed, 4 passed in 0.12s). Said: The empty-line case still fails. Ran: cd /repo && uv run pytest tests/test_pa…. retrievable: e4',
    );
  });

  it('a pure-text question', () => {
    const e = exchanges.question!;
    expect(deriveHeader(e, count)).toBe('e5 09:20 I can merge loadUserConfig and… → asked');
    expect(deriveSummary(e, count)).toBe(
      'User: Refactor the config loader so it reads both files. Keep it small. Said: I can merge loadUserConfig and loadProjectConfig into one function, or keep both and add a wrapper. ' +
        'Merging is simpler but changes the public API. Open: Which do you prefer? retrievable: e5',
    );
    expect(deriveSummary(e, count, 40)).toBe(
      'Said: I can merge loadUserConfig and loadProjectConfig into one function, or keep both and add a wrapper. Open: Which do you prefer? retrievable: e5',
    );
  });

  it('a mini-swe-agent turn (```bash block, <returncode> output)', () => {
    const e = exchanges.mini!;
    expect(deriveHeader(e, count)).toBe('e5 10:02 pip install [setup.py] → error');
    expect(deriveSummary(e, count)).toBe(
      "Results: 1 failed (exit 1; ModuleNotFoundError: No module named 'asgiref'). Said: I need to install dependencies. " +
        "Let me check if there's a requirements file or setup.py: Ran: pip install asgiref -q. retrievable: e5",
    );
  });
});

describe('topics name the program that matters in a command line', () => {
  const bash = (command: string): Exchange => ({
    seq: 1,
    createdAt: Date.UTC(2025, 0, 1, 9, 0),
    input: { role: 'user', content: [{ type: 'text', text: 'Go.' }] },
    output: { role: 'assistant', content: [{ type: 'tool_use', id: 'x', name: 'Bash', input: { command } }] },
  });
  it.each([
    ['(source .venv/bin/activate && pytest -q)', 'e1 09:00 pytest → ok'],
    ['cd /testbed && python -m pytest tests/ -x', 'e1 09:00 pytest → ok'],
    ['FOO=1 timeout 60 python reproduce.py', 'e1 09:00 python reproduce.py → ok'],
    ['git diff --stat HEAD~1', 'e1 09:00 git diff → ok'],
    ["sed -n '771,850p' django/db/models/fields/related.py", 'e1 09:00 sed related.py → ok'],
  ])('%s', (command, header) => {
    expect(deriveHeader(bash(command), count, 40)).toBe(header);
  });
});

describe('headers say what was done to what, not which tool ran', () => {
  const call = (name: string, input: unknown): Exchange => ({
    seq: 7,
    createdAt: Date.UTC(2025, 0, 1, 9, 0),
    input: { role: 'user', content: [{ type: 'text', text: 'Go.' }] },
    output: { role: 'assistant', content: [{ type: 'tool_use', id: 'x', name, input }] },
  });
  it('names a todo update by the item in progress and the count done', () => {
    const todos = [{ content: 'Add parser', status: 'completed' }, { content: 'Run tests', status: 'in_progress' }, { content: 'Ship', status: 'pending' }];
    expect(deriveHeader(call('TodoWrite', { todos }), count, 40)).toBe('e7 09:00 todo 1/3: Run tests → ok');
  });
  it('names a tool without a path or command by its first argument', () => {
    expect(deriveHeader(call('ExitPlanMode', { plan: '# Add tar support\n1. read' }), count, 40)).toBe('e7 09:00 ExitPlanMode Add tar support → ok');
    expect(deriveHeader(call('AskUserQuestion', { questions: [{ question: 'Which branch?' }] }), count, 40)).toBe('e7 09:00 AskUserQuestion Which branch? → ok');
  });
  it('names a search by what it looked for, not where it looked', () => {
    expect(deriveHeader(call('Grep', { pattern: 'corrupted_nested', path: 'tests', output_mode: 'content' }), count, 40)).toBe('e7 09:00 Grep corrupted_nested in tests → ok');
    expect(deriveHeader(call('Glob', { pattern: 'src/**/*.ts' }), count, 40)).toBe('e7 09:00 Glob src/**/*.ts → ok');
    expect(deriveHeader(call('search_files', { path: 'src', regex: 'parseLine' }), count, 40)).toBe('e7 09:00 search_files parseLine in src → ok');
    expect(deriveHeader(call('Grep', { pattern: '  ', path: 'tests' }), count, 40)).toBe('e7 09:00 Grep tests → ok');
    // tight: the pattern stays, the scope goes first
    expect(deriveHeader(call('Grep', { pattern: 'corrupted_nested', path: 'tests/unit/archive' }), count, 9)).toMatch(/^e7 (09:00 )?Grep corrupted_nested.* → ok$/);
  });
  it('drops the time before the target when the line is tight', () => {
    const todos = [{ content: 'Update the changelog for the release', status: 'in_progress' }];
    expect(deriveHeader(call('TodoWrite', { todos }), count, 5)).toMatch(/^e7 todo 0\/1: U.*→ ok$/);
  });
});

describe('outcomes', () => {
  const answer = (text: string): Message => ({ role: 'assistant', content: [{ type: 'text', text }] });
  const ask: Message = { role: 'user', content: [{ type: 'text', text: 'Hi' }] };
  it('ok, error, asked, done', () => {
    expect(outcomeOf(exchanges.edit!)).toBe('ok');
    expect(outcomeOf(exchanges.pytest!)).toBe('error');
    expect(outcomeOf(exchanges.question!)).toBe('asked');
    expect(outcomeOf({ seq: 1, createdAt: 0, input: ask, output: answer('Done: all tests pass.') })).toBe('done');
    const fine = { seq: 1, createdAt: 0, input: { role: 'user' as const, content: [{ type: 'text' as const, text: '<returncode>0</returncode>\n<output>\nok\n</output>' }] }, output: answer('Good.') };
    expect(outcomeOf(fine)).toBe('done');
  });
});

describe('caps hold for huge and odd exchanges', () => {
  const huge = 'x'.repeat(50_000_000);
  const big: Exchange = {
    seq: 123456,
    createdAt: Date.UTC(2025, 5, 1, 23, 59),
    input: {
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'a', content: `${huge}\nFAILED tests/t.py::test_a - AssertionError` },
        { type: 'tool_result', tool_use_id: 'b', content: [{ type: 'text', text: huge }, { type: 'text', text: huge }] },
        { type: 'text', text: huge },
      ],
    },
    output: {
      role: 'assistant',
      content: [
        { type: 'text', text: `${huge}?` },
        ...Array.from({ length: 300 }, (_, i) => ({ type: 'tool_use' as const, id: `t${i}`, name: 'Edit', input: { file_path: `/r/src/${huge.slice(0, 200)}${i}.ts`, old_string: huge, new_string: huge } })),
        { type: 'tool_use', id: 'c', name: 'Bash', input: { command: huge } },
      ],
    },
  };

  it('header <= 12 and summary <= 120 tokens, fast, on 50 MB texts and 300 tool calls', () => {
    const started = performance.now();
    const header = deriveHeader(big, count);
    const summary = deriveSummary(big, count);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(count(header)).toBeLessThanOrEqual(12);
    expect(header.startsWith('e123456 23:59 Edit')).toBe(true);
    expect(header.endsWith('→ error')).toBe(true);
    expect(count(summary)).toBeLessThanOrEqual(120);
    expect(summary.endsWith('retrievable: e123456')).toBe(true);
  });

  it('tight budgets still fit, keeping the id, the outcome and the retrievable suffix', () => {
    for (const e of [big, ...Object.values(exchanges)]) {
      for (const max of [6, 8, 12, 30]) expect(count(deriveHeader(e, count, max))).toBeLessThanOrEqual(max);
      for (const max of [8, 20, 60]) {
        const summary = deriveSummary(e, count, max);
        expect(count(summary)).toBeLessThanOrEqual(max);
        expect(summary.endsWith(`retrievable: e${e.seq}`)).toBe(true);
      }
    }
    expect(deriveHeader(big, count, 6)).toBe('e123456 Edit → error');
  });

  it('empty answers and a bad clock do not throw', () => {
    const empty: Exchange = { seq: 2, createdAt: Number.NaN, input: { role: 'user', content: [] }, output: { role: 'assistant', content: [] } };
    expect(deriveHeader(empty, count)).toBe('e2 --:-- (no answer) → done');
    expect(deriveSummary(empty, count)).toBe('(no text) retrievable: e2');
  });
});

describe('every exchange of the shared real sessions fits its caps', () => {
  for (const file of sharedSessionFiles()) {
    it(basename(file), () => {
      const { messages } = readSessionFile(file);
      for (let i = 0, seq = 1; i + 1 < messages.length; i += 2, seq++) {
        const e: Exchange = { seq, createdAt: Date.UTC(2025, 0, 1, 9, 0) + seq * 60_000, input: messages[i]!, output: messages[i + 1]! };
        const header = deriveHeader(e, count);
        const summary = deriveSummary(e, count);
        expect(count(header), header).toBeLessThanOrEqual(12);
        expect(header).toMatch(new RegExp(`^e${seq} \\d\\d:\\d\\d .+ → (?:ok|error|asked|done)$`));
        expect(count(summary), summary).toBeLessThanOrEqual(120);
        expect(summary.endsWith(`retrievable: e${seq}`)).toBe(true);
      }
    });
  }
});
