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

describe('isFilePath: edges', () => {
  it('allows 260 characters and no more', () => {
    expect(isFilePath(`a/${'b'.repeat(255)}.ts`)).toBe(true);
    expect(isFilePath(`a/${'b'.repeat(256)}.ts`)).toBe(false);
  });

  it('any extension once there is a slash; a bare name needs a letter before the dot and a known extension', () => {
    expect(isFilePath('src/data.xyz')).toBe(true);
    expect(isFilePath('data.xyz')).toBe(false);
    expect(isFilePath('2fa.md')).toBe(true);
    expect(isFilePath('123.md')).toBe(false);
  });

  it.each(['index.ts', 'notes.txt', 'Cargo.lock', 'main.tf', 'build.gradle', 'logo.png', 'app.sqlite'])('knows the extension of %s', (name) => {
    expect(isFilePath(name)).toBe(true);
  });

  it('a host name at the start is a URL; www. or a domain-like folder further in is not', () => {
    expect(['github.com/owner/x.js', 'my-site.dev/a.ts', 'www.a.b/c.js'].some(isFilePath)).toBe(false);
    expect(['static/www.min.js', 'node_modules/socket.io/lib/index.js'].every(isFilePath)).toBe(true);
  });
});

describe('extractEntities: file tokens', () => {
  it('strips every leading @ # : and trailing punctuation, and only a trailing :line:col', () => {
    expect(extractEntities('see #src/a.ts and #:lib/b.py, then c/d.rs!? or e/f.go...').files).toEqual(['src/a.ts', 'lib/b.py', 'c/d.rs', 'e/f.go']);
    expect(extractEntities('open localhost:8080/app.js').files).toEqual([]);
  });

  it('reads a token of 260 characters and skips a longer one whole, even when its tail after = is a path', () => {
    expect(extractEntities(`${'a'.repeat(251)}=src/a.ts`).files).toEqual(['src/a.ts']);
    expect(extractEntities(`${'a'.repeat(252)}=src/a.ts`).files).toEqual([]);
  });
});

describe('extractEntities: symbol edges', () => {
  it.each([
    ['0', []],
    ['9', []],
    ['/', []],
    [' ', ['fooBar']],
    [':', ['fooBar']],
    ['=', ['fooBar']],
    ['[', ['fooBar']],
    ['{', ['fooBar']],
    ['~', ['fooBar']],
  ])('a name right after %j counts only when that character is not a digit or a slash', (before, expected) => {
    expect(extractEntities(`x ${before}fooBar`).symbols).toEqual(expected);
    expect(extractEntities(`${before}fooBar`).symbols).toEqual(before === ' ' ? ['fooBar'] : expected);
  });

  it.each([
    ['0', ['fooBar']],
    ['9', ['fooBar']],
    [')', ['obj.fooBar']],
    ['x', ['obj.fooBar']],
  ])('a dotted name followed by ( then %j is a call unless a digit follows (a line/column pair)', (after, expected) => {
    expect(extractEntities(`obj.fooBar(${after}`).symbols).toEqual(expected);
  });

  it('drops a call with a random-looking part', () => {
    expect(extractEntities('self.run123x(a)').symbols).toEqual([]);
  });

  it('a chain of 120 characters is read, a longer one skipped', () => {
    const part = 'fooBar'.padEnd(39, 'x');
    const chain120 = [part, part, part].join('.').slice(0, 118) + 'yz';
    expect(chain120).toHaveLength(120);
    expect(extractEntities(chain120).symbols.length).toBeGreaterThan(0);
    expect(extractEntities(`${chain120}w`).symbols).toEqual([]);
  });

  it('names of 3 to 60 characters only', () => {
    const long = `fooBar${'a'.repeat(54)}`;
    expect(extractEntities('aBc').symbols).toEqual(['aBc']);
    expect(extractEntities(`obj.aB obj.aBc obj.${long} obj.${long}b`).symbols).toEqual(['aBc', long]);
  });

  it('shapes: a leading _ or $ is not part of any shape; __dunder__ needs letters and both ends', () => {
    expect(extractEntities('_fooBar _FooBar _XMLParser $__init__ __init__$ _____ __1__').symbols).toEqual([]);
    expect(extractEntities('my__var fooBar$$$ __init__').symbols).toEqual(['my__var', 'fooBar$$$', '__init__']);
  });

  it('an undotted name is a symbol even when it spells a file extension; a dotted one ending in an extension is a file', () => {
    expect(extractEntities('dockerFile graphQl helperFn readMe.md').symbols).toEqual(['dockerFile', 'graphQl', 'helperFn']);
  });

  it('random-looking: 3+ digits inside a word, or more than 8 letters with at least as many capitals as lower case', () => {
    const kept = ['foo_123', 'getHTTP', 'getHTTPS', 'MAX_CONNECTIONS', 'aBcd$$$$$$', 'bCDEFGHIJKaaaaaaaaaa', 'xAAAAbcdefg'];
    const dropped = ['fooBar000', 'fooBar999', 'fooBar123', 'xAAAAAbcd', 'xZZZZZbcd', 'aBCDEFGHIJ', 'zBCDEFGHIJ', 'aBCDEFGHI$$$$$$$$$', 'aBcDeFgHiJ'];
    expect(extractEntities([...kept, ...dropped].join(' ')).symbols).toEqual(kept);
  });
});

describe('extractEntities: error edges', () => {
  it('a named error without a colon is its name; bare Error and Exception need a message; no space needed after the colon', () => {
    expect(extractEntities("raised ValueError here; KeyError:'a'\nError: boom\nException: bang").errors).toEqual(['ValueError', "KeyError: 'a'", 'Error: boom', 'Exception: bang']);
  });

  it('Rust error codes and Go panics at the start of a line', () => {
    const text = 'error[E0308]: mismatched types\nnote: panic: not at the start\npanic: runtime error: index out of range';
    expect(extractEntities(text).errors).toEqual(['error[E0308]', 'panic: runtime error: index out of range']);
  });

  it('one line per signature: runs of whitespace collapse, ends trimmed, 80 characters kept whole', () => {
    const eighty = `ValueError: ${'y'.repeat(68)}`;
    expect(eighty).toHaveLength(80);
    expect(extractEntities(`npm ERR! code   ELIFECYCLE  \r\n${eighty}`).errors).toEqual(['npm ERR! code ELIFECYCLE', eighty]);
  });

  it('drops the space a cut would leave before the ellipsis', () => {
    const message = `${'a'.repeat(66)} ${'b'.repeat(20)}`;
    expect(extractEntities(`ValueError: ${message}`).errors).toEqual([`ValueError: ${'a'.repeat(66)}…`]);
  });

  it('reads 200 named errors and 400 signatures in all, no more', () => {
    expect(extractEntities(`${'AError '.repeat(200)}BError`).errors).toEqual(['AError']);
    const codes = Array.from({ length: 10 }, (_, i) => `error TS${1000 + i}`);
    expect(extractEntities(codes.join('\n')).errors).toEqual(codes);
  });
});

describe('extractEntities: traceback edges', () => {
  const tb = 'Traceback (most recent call last):';

  it('skips blank and tab-indented lines; a header with nothing after it yields nothing', () => {
    expect(extractEntities(`${tb}\n  File "a.py", line 1\n\n\tx()\nKeyboardInterrupt`).errors).toEqual(['KeyboardInterrupt']);
    expect(extractEntities(tb).errors).toEqual([]);
    expect(extractEntities(`${tb}\n`).errors).toEqual([]);
  });

  it('a header right after a header starts over; an exception line quoting the header ends the traceback', () => {
    expect(extractEntities(`${tb}\n${tb}\n  File "a.py"\nKeyboardInterrupt`).errors).toEqual(['KeyboardInterrupt']);
    expect(extractEntities(`${tb}\n  File "a.py"\nwrapped: ${tb}\n  File "b.py"\nKeyboardInterrupt`).errors).toEqual([`wrapped: ${tb}`]);
  });

  it('drops only a leading module path, also when no message follows', () => {
    expect(extractEntities(`${tb}\n  x\nSystemExit: pkg.mod.main\n${tb}\n  y\nasyncio.exceptions.CancelledSignal`).errors).toEqual(['SystemExit: pkg.mod.main', 'CancelledSignal']);
  });

  it('reads at most 50 tracebacks', () => {
    const text = `${`${tb}\n  x\nKeyboardInterrupt\n`.repeat(50)}${tb}\n  x\nSystemExit: 2`;
    expect(extractEntities(text).errors).toEqual(['KeyboardInterrupt']);
  });
});

describe('exchangeEntities: edges', () => {
  const exchangeOf = (output: Exchange['output']['content'], input: Exchange['input']['content'] = []): Exchange => ({
    seq: 1,
    createdAt: 0,
    input: { role: 'user', content: input },
    output: { role: 'assistant', content: output },
  });
  const tool = (input: unknown) => ({ type: 'tool_use' as const, id: 't', name: 'T', input });

  it('trims file_path and path, skips a blank one, and reads old_string, new_string and content', () => {
    const entities = exchangeEntities(
      exchangeOf([
        tool({ file_path: '   ' }),
        tool({ file_path: ' /a/b.ts ' }),
        tool({ pattern: 'x', path: ' src/a.ts ' }),
        tool({ old_string: 'oldName()', new_string: 'newName()' }),
        tool({ file_path: 'w.py', content: 'import "./dep.ts"' }),
      ]),
    );
    expect(entities.files).toEqual(['/a/b.ts', 'src/a.ts', 'w.py', './dep.ts']);
    expect(entities.symbols).toEqual(['oldName', 'newName']);
  });

  it('ignores tool inputs that are not objects and thinking blocks', () => {
    const thinking = { type: 'thinking' as const, thinking: 'src/secret.ts', signature: 's' };
    const entities = exchangeEntities(exchangeOf([tool(null), tool(undefined), tool('src/a.ts'), tool(['src/b.ts'])], [thinking]));
    expect(entities).toEqual({ files: [], symbols: [], errors: [] });
  });

  it('reads the text blocks of a tool result', () => {
    const result = { type: 'tool_result' as const, tool_use_id: 't', content: [{ type: 'text' as const, text: 'see src/a.ts' }] };
    expect(exchangeEntities(exchangeOf([], [result])).files).toEqual(['src/a.ts']);
  });

  it('reads the first 64 blocks of the answer', () => {
    const blocks = Array.from({ length: 65 }, (_, i) => ({ type: 'text' as const, text: i === 64 ? 'src/late.ts' : 'nothing' }));
    expect(exchangeEntities(exchangeOf(blocks)).files).toEqual([]);
  });

  it('keeps reading while any kind has room', () => {
    const command = Array.from({ length: 50 }, (_, i) => `src/f${i}.ts error TS${1000 + i}`).join('\n');
    const entities = exchangeEntities(exchangeOf([tool({ command }), { type: 'text', text: 'fooBar src/late.ts' }]));
    expect(entities.files).toHaveLength(50);
    expect(entities.errors).toHaveLength(50);
    expect(entities.symbols).toEqual(['fooBar']);
  });
});
