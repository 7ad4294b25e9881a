import { describe, expect, it } from 'vitest';
import type { Exchange } from '../../src/engine/exchange';
import { exchangeEntities, extractEntities, isFilePath } from '../../src/engine/derive/entities';

describe('extractEntities: files', () => {
  it('finds relative, absolute, ./ and bare paths with an extension, not URLs, versions or dotted names', () => {
    const text =
      'Edited src/engine/relayer.ts and /abs/path/tool.py, see ./x.json and README.md; ' +
      'not https://github.com/a/b.ts nor www.x.com/y.js, e.g. os.path, 3.14 or v1.2.3.';
    expect(extractEntities(text).files).toEqual(['src/engine/relayer.ts', '/abs/path/tool.py', './x.json', 'README.md']);
  });

  it('strips quotes, brackets, line numbers, pytest node ids and --flag= prefixes', () => {
    const text = 'at file.py:12:3, `config.yaml`, "pkg/mod.go", (lib/x.rs), --config=tsconfig.json, tests/t.py::test_a, src/**/*.ts';
    expect(extractEntities(text).files).toEqual(['file.py', 'config.yaml', 'pkg/mod.go', 'lib/x.rs', 'tsconfig.json', 'tests/t.py']);
  });

  it('isFilePath agrees', () => {
    expect(['a/b.c', 'index.ts', '~/x/y.toml', '../up.md'].every(isFilePath)).toBe(true);
    expect(['claude_code_log.parser', 'self.foo', 'http://x.io/a.js', 'a/b', '1/2.5'].some(isFilePath)).toBe(false);
  });
});

describe('extractEntities: symbols', () => {
  it('keeps camelCase, PascalCase with an inner capital, snake_case and dotted calls; skips words and random ids', () => {
    const text =
      'Call parseSessionText() then ContextEngine.assemble( and self.assertEqual(a, b); snake my_var and __init__; ' +
      'plain words The Now Let; ids toolu_01F6zYmgwK2Amusn6FKg7QbX call_00_Q6yQCwwMaRxBimfOKxRSWqM9; src/a.ts(12,5)';
    expect(extractEntities(text).symbols).toEqual(['parseSessionText', 'ContextEngine.assemble', 'self.assertEqual', 'my_var', '__init__']);
  });

  it('a dotted name that is not called yields its clear parts; a file name yields none', () => {
    expect(extractEntities('order.product_id and claude_code_log.parser and test_utils.py').symbols).toEqual(['product_id', 'claude_code_log']);
  });
});

describe('extractEntities: error signatures', () => {
  it('finds TS codes, pytest FAILED ids, named errors with their first line, npm ERR!', () => {
    const text = [
      "src/a.ts(12,5): error TS2345: Argument of type 'string' is not assignable",
      'FAILED tests/test_x.py::test_y - AssertionError: assert 1 == 2',
      'npm ERR! code ELIFECYCLE',
      `TypeError: Cannot read properties of undefined (reading 'foo') ${'x'.repeat(100)}`,
      'This raises an Error sometimes.',
    ].join('\n');
    const errors = extractEntities(text).errors;
    expect(errors.slice(0, 4)).toEqual(['error TS2345', 'FAILED tests/test_x.py::test_y', 'AssertionError: assert 1 == 2', 'npm ERR! code ELIFECYCLE']);
    expect(errors[4]).toMatch(/^TypeError: Cannot read properties of undefined \(reading 'foo'\) x+…$/);
    expect(errors[4]!.length).toBe(80);
    expect(errors).toHaveLength(5);
  });

  it('takes the last line of a Python traceback, module prefix dropped', () => {
    const text = [
      'Traceback (most recent call last):',
      '  File "a.py", line 3, in <module>',
      '    main()',
      'django.core.exceptions.ImproperlyConfigured: Requested setting INSTALLED_APPS, but settings are not configured.',
    ].join('\n');
    expect(extractEntities(text).errors).toEqual(['ImproperlyConfigured: Requested setting INSTALLED_APPS, but settings are not co…']);
  });
});

describe('extractEntities: limits', () => {
  it('deduplicates in first-seen order and caps each list at 50', () => {
    const text = Array.from({ length: 80 }, (_, i) => `src/f${i}.ts fooBar${i} Err${i}Error`).join('\n');
    const again = `${text}\n${text}`;
    const entities = extractEntities(again);
    expect(entities.files).toHaveLength(50);
    expect(entities.files.slice(0, 2)).toEqual(['src/f0.ts', 'src/f1.ts']);
    expect(entities.symbols).toHaveLength(50);
    expect(new Set(entities.symbols).size).toBe(50);
    expect(entities.errors).toHaveLength(50);
  });

  it('is linear on pathological inputs (one 5 MB token, a/ a million times, long runs of letters)', () => {
    for (const text of ['x'.repeat(5_000_000), 'a/'.repeat(1_000_000), 'a.'.repeat(1_000_000), 'A'.repeat(5_000_000), `FAILED ${'a'.repeat(5_000_000)}`]) {
      const started = performance.now();
      const entities = extractEntities(text);
      expect(performance.now() - started).toBeLessThan(3_000);
      expect(entities.files).toEqual([]);
    }
  });
});

describe('exchangeEntities', () => {
  const exchange: Exchange = {
    seq: 3,
    createdAt: 0,
    input: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'p', content: `docs/notes.md mentions helperFn\n${'z'.repeat(60_000_000)}\nTypeError: boom` }] },
    output: {
      role: 'assistant',
      content: [
        { type: 'text', text: 'I will fix lib/util.py next.' },
        { type: 'tool_use', id: 'e', name: 'Edit', input: { file_path: '/repo/src/parser.ts', old_string: 'function parseLine(a) {', new_string: 'function parseLine(a, b) {' } },
        { type: 'tool_use', id: 'b', name: 'Bash', input: { command: 'npx vitest run test/parser.test.ts' } },
        { type: 'tool_use', id: 'g', name: 'Grep', input: { pattern: 'readHeader', path: 'src' } },
      ],
    },
  };

  it('puts tool arguments first, then the answer text, then the input (read head and tail only)', () => {
    const started = performance.now();
    const entities = exchangeEntities(exchange);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(entities.files).toEqual(['/repo/src/parser.ts', 'test/parser.test.ts', 'lib/util.py', 'docs/notes.md']);
    expect(entities.symbols).toEqual(['parseLine', 'readHeader', 'helperFn', 'TypeError']);
    expect(entities.errors).toEqual(['TypeError: boom']);
  });
});
