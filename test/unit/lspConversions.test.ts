import { describe, expect, it } from 'vitest';
import { SymbolKind } from 'vscode-languageserver-protocol';
import { toCodeLocation, toDiagnosticInfo, toHoverText, toSymbolInfos } from '../../src/adapters/lspConversions';
import type { UriToPath } from '../../src/adapters/lspConversions';

// LSP positions are 0-based; the port's are 1-based. Every field below gets a different number so a
// line swapped for a column, a start for an end, or a missing `+ 1` shows.
const range = (sl: number, sc: number, el: number, ec: number) => ({ start: { line: sl, character: sc }, end: { line: el, character: ec } });
const toPath: UriToPath = (uri) => ({ path: uri.replace('file:///ws/', ''), outside: !uri.startsWith('file:///ws/') });

describe('toCodeLocation', () => {
  it('a Location starts and ends where its range does, 1-based, with the path the mapper gives', () => {
    expect(toCodeLocation({ uri: 'file:///ws/src/a.ts', range: range(3, 7, 5, 11) }, toPath)).toStrictEqual({ path: 'src/a.ts', outside: false, line: 4, column: 8, endLine: 6, endColumn: 12 });
    expect(toCodeLocation({ uri: 'file:///lib/x.d.ts', range: range(0, 0, 0, 2) }, toPath)).toStrictEqual({ path: 'file:///lib/x.d.ts', outside: true, line: 1, column: 1, endLine: 1, endColumn: 3 });
  });

  it('a LocationLink starts at the name (selection range) and ends where the whole declaration does (target range)', () => {
    const link = { targetUri: 'file:///ws/b.ts', targetRange: range(10, 0, 20, 1), targetSelectionRange: range(12, 16, 12, 19), originSelectionRange: range(0, 0, 0, 1) };
    expect(toCodeLocation(link, toPath)).toStrictEqual({ path: 'b.ts', outside: false, line: 13, column: 17, endLine: 21, endColumn: 2 });
  });
});

describe('toSymbolInfos', () => {
  /** SymbolKind's names in words, from the protocol package: `TypeParameter` -> `type parameter`. */
  const inWords = (name: string) => name.replace(/(?<=[a-z])(?=[A-Z])/g, ' ').toLowerCase();

  it('names every LSP symbol kind in words, and an unknown kind by its number', () => {
    const kinds: Array<[string, number]> = Object.entries(SymbolKind).filter(([, kind]) => typeof kind === 'number');
    expect(kinds.length).toBeGreaterThan(20);
    const infos = toSymbolInfos(kinds.map(([name, kind], i) => ({ name, kind, range: range(i, 0, i, 1) })));
    expect(infos.map((s) => [s.name, s.kind])).toEqual(kinds.map(([name]) => [name, inWords(name)]));
    const past = kinds.length + 1;
    expect(toSymbolInfos([{ name: 'x', kind: past, range: range(0, 0, 0, 1) }])[0]?.kind).toBe(`kind ${past}`);
    expect(toSymbolInfos([{ name: 'x', kind: 0, range: range(0, 0, 0, 1) }])[0]?.kind).toBe('kind 0');
  });

  it('puts a DocumentSymbol tree in file order at every level, keeping details and 1-based line spans', () => {
    const tree = [
      { name: 'later', kind: SymbolKind.Function, range: range(20, 0, 22, 1), children: [] },
      {
        name: 'Box',
        kind: SymbolKind.Class,
        detail: 'class Box',
        range: range(2, 0, 9, 1),
        children: [
          { name: 'b', kind: SymbolKind.Method, range: range(6, 2, 8, 3) },
          { name: 'a', kind: SymbolKind.Property, detail: '', range: range(3, 2, 3, 9) },
        ],
      },
    ];
    expect(toSymbolInfos(tree)).toStrictEqual([
      {
        name: 'Box',
        kind: 'class',
        detail: 'class Box',
        line: 3,
        endLine: 10,
        children: [
          { name: 'a', kind: 'property', line: 4, endLine: 4, children: [] },
          { name: 'b', kind: 'method', line: 7, endLine: 9, children: [] },
        ],
      },
      { name: 'later', kind: 'function', line: 21, endLine: 23, children: [] },
    ]);
  });

  it('flat SymbolInformation: lines from its location, its container as the detail, no children', () => {
    const flat = [
      { name: 'm', kind: SymbolKind.Method, containerName: 'Box', location: { uri: 'file:///ws/a.ts', range: range(7, 2, 8, 3) } },
      { name: 'Box', kind: SymbolKind.Class, location: { uri: 'file:///ws/a.ts', range: range(5, 0, 9, 1) } },
      { name: 'top', kind: SymbolKind.Variable, containerName: '', location: { uri: 'file:///ws/a.ts', range: range(1, 0, 1, 9) } },
    ];
    expect(toSymbolInfos(flat)).toStrictEqual([
      { name: 'top', kind: 'variable', line: 2, endLine: 2, children: [] },
      { name: 'Box', kind: 'class', line: 6, endLine: 10, children: [] },
      { name: 'm', kind: 'method', detail: 'in Box', line: 8, endLine: 9, children: [] },
    ]);
  });
});

describe('toHoverText', () => {
  it('MarkupContent gives its text as it is', () => {
    expect(toHoverText({ contents: { kind: 'markdown', value: '**add**(a, b)' } })).toBe('**add**(a, b)');
  });

  it('a marked string with a language becomes a fenced code block; parts are separated by one blank line', () => {
    expect(toHoverText({ contents: [{ language: 'typescript', value: 'function add(): number' }, 'Adds two numbers.'] })).toBe('```typescript\nfunction add(): number\n```\n\nAdds two numbers.');
    expect(toHoverText({ contents: 'plain' })).toBe('plain');
  });

  it('drops blank parts, trims the whole, and has no text when nothing is left', () => {
    expect(toHoverText({ contents: ['  ', 'one', '', '\n', 'two  \n'] })).toBe('one\n\ntwo');
    expect(toHoverText({ contents: ['\n lead'] })).toBe('lead');
    expect(toHoverText({ contents: [] })).toBeUndefined();
    expect(toHoverText({ contents: ['', ' '] })).toBeUndefined();
    expect(toHoverText({ contents: { kind: 'plaintext', value: ' \n' } })).toBeUndefined();
  });
});

describe('toDiagnosticInfo', () => {
  const at = { path: 'src/a.ts' };

  it('gives the start position 1-based, the severity in words, the source and the code as text', () => {
    expect(toDiagnosticInfo(at, { range: range(4, 9, 6, 1), severity: 2, source: 'ts', code: 6133, message: 'unused' })).toStrictEqual({
      path: 'src/a.ts',
      line: 5,
      column: 10,
      severity: 'warning',
      message: 'unused',
      source: 'ts',
      code: '6133',
    });
    const severities = [1, 2, 3, 4].map((severity) => toDiagnosticInfo(at, { range: range(0, 0, 0, 0), severity, message: 'm' }).severity);
    expect(severities).toEqual(['error', 'warning', 'info', 'hint']);
  });

  it('a missing or unknown severity counts as an error (LSP: the client decides; an error is the safe reading)', () => {
    expect(toDiagnosticInfo(at, { range: range(0, 0, 0, 0), message: 'm' }).severity).toBe('error');
    expect(toDiagnosticInfo(at, { range: range(0, 0, 0, 0), severity: 9, message: 'm' }).severity).toBe('error');
  });

  it('reads a markup message, keeps a code of 0 and a string code, and leaves out an empty source', () => {
    expect(toDiagnosticInfo(at, { range: range(1, 2, 1, 3), severity: 1, code: 0, source: '', message: { kind: 'markdown', value: 'bad `x`' } })).toStrictEqual({
      path: 'src/a.ts',
      line: 2,
      column: 3,
      severity: 'error',
      message: 'bad `x`',
      code: '0',
    });
    expect(toDiagnosticInfo(at, { range: range(0, 0, 0, 0), code: 'no-unused', message: 'm' }).code).toBe('no-unused');
    expect(toDiagnosticInfo(at, { range: range(0, 0, 0, 0), message: 'm' })).not.toHaveProperty('code');
  });
});
