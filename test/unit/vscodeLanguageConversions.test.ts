import { describe, expect, it } from 'vitest';
import { fromEditorDiagnostic, fromEditorHovers, fromEditorLocations, fromEditorSymbols, languageFileExtensions } from '../../src/extension/vscodeLanguageConversions';

/** What `vscode.Uri` offers the conversions: its string form. */
const uri = (s: string) => ({ toString: () => s });
const range = (line: number, character: number, endLine: number, endCharacter: number) => ({ start: { line, character }, end: { line: endLine, character: endCharacter } });
const toPath = (u: string) => (u.startsWith('file:///ws/') ? { path: u.slice('file:///ws/'.length), outside: false } : { path: u, outside: true });

describe("VS Code's language answers as the language port's data", () => {
  it('turns 0-based Locations and LocationLinks into 1-based places; a link points at the name and spans the declaration', () => {
    const locations = fromEditorLocations(
      [
        { uri: uri('file:///ws/src/a.ts'), range: range(4, 2, 4, 9) },
        { targetUri: uri('file:///lib/b.d.ts'), targetRange: range(10, 0, 14, 1), targetSelectionRange: range(10, 17, 10, 22) },
      ],
      toPath,
    );
    expect(locations).toEqual([
      { path: 'src/a.ts', outside: false, line: 5, column: 3, endLine: 5, endColumn: 10 },
      { path: 'file:///lib/b.d.ts', outside: true, line: 11, column: 18, endLine: 15, endColumn: 2 },
    ]);
    expect(fromEditorLocations(undefined, toPath)).toEqual([]);
  });

  it("turns VS Code's 0-based symbol kinds into words, nests children, and sorts by line", () => {
    const symbols = fromEditorSymbols([
      { name: 'helper', detail: '', kind: 11, range: range(20, 0, 22, 1), children: [] },
      { name: 'Greeter', detail: 'class', kind: 4, range: range(2, 0, 10, 1), children: [{ name: 'greet', detail: '(name: string) => string', kind: 5, range: range(3, 2, 5, 3), children: [] }] },
    ]);
    expect(symbols).toEqual([
      { name: 'Greeter', kind: 'class', detail: 'class', line: 3, endLine: 11, children: [{ name: 'greet', kind: 'method', detail: '(name: string) => string', line: 4, endLine: 6, children: [] }] },
      { name: 'helper', kind: 'function', line: 21, endLine: 23, children: [] },
    ]);
    const flat = fromEditorSymbols([{ name: 'x', kind: 12, containerName: 'mod', location: { uri: uri('file:///ws/a.ts'), range: range(0, 6, 0, 7) } }]);
    expect(flat).toEqual([{ name: 'x', kind: 'variable', detail: 'in mod', line: 1, endLine: 1, children: [] }]);
    expect(fromEditorSymbols(undefined)).toEqual([]);
  });

  it("joins every provider's hover as Markdown, code fenced with its language, empty parts dropped", () => {
    expect(fromEditorHovers([{ contents: [{ language: 'typescript', value: 'const hello: string' }] }, { contents: [{ value: 'The **greeting**.' }, ''] }])).toBe(
      '```typescript\nconst hello: string\n```\n\nThe **greeting**.',
    );
    expect(fromEditorHovers([{ contents: [{ value: ' ' }] }])).toBeUndefined();
    expect(fromEditorHovers(undefined)).toBeUndefined();
  });

  it('turns 0-based severities into words and reads a code that carries a link', () => {
    const d = fromEditorDiagnostic({ path: 'src/a.ts' }, { range: range(6, 4, 6, 9), severity: 0, message: "Type 'number' is not assignable to type 'string'.", source: 'ts', code: { value: 2322 } });
    expect(d).toEqual({ path: 'src/a.ts', line: 7, column: 5, severity: 'error', message: "Type 'number' is not assignable to type 'string'.", source: 'ts', code: '2322' });
    expect(fromEditorDiagnostic({ path: 'b.md' }, { range: range(0, 0, 0, 1), severity: 3, message: 'hint' })).toStrictEqual({ path: 'b.md', line: 1, column: 1, severity: 'hint', message: 'hint' });
    expect(fromEditorDiagnostic({ path: 'c.ts' }, { range: range(0, 0, 0, 1), severity: 1, message: 'w', code: 'no-unused' }).severity).toBe('warning');
  });

  it("collects the file extensions installed extensions declare languages for, ignoring manifests it cannot read", () => {
    const set = languageFileExtensions([
      { contributes: { languages: [{ id: 'typescript', extensions: ['.ts', '.CTS'] }, { id: 'plaintext' }] } },
      { contributes: { languages: 'not a list' } },
      null,
      { name: 'no contributions' },
    ]);
    expect([...set].sort()).toEqual(['.cts', '.ts']);
  });
});
