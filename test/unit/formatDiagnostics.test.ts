import { describe, expect, it } from 'vitest';
import { formatDiagnostics, LSP_MAX_DIAGNOSTICS } from '../../src/task/tools/lspTools';
import { diagnostic } from '../support/fakeLanguageService';

describe('formatDiagnostics: what lsp_diagnostics and @problems show', () => {
  it('lists errors, then warnings, then infos, each by path and line; hints are only counted', () => {
    const list = [
      diagnostic('b.ts', 1, 'info'),
      diagnostic('b.ts', 9, 'warning'),
      diagnostic('a.ts', 4, 'hint'),
      diagnostic('b.ts', 3, 'error'),
      diagnostic('a.ts', 12, 'error'),
      diagnostic('a.ts', 2, 'error'),
      diagnostic('a.ts', 7, 'warning'),
    ];
    expect(formatDiagnostics(list, 'src')).toBe(
      [
        '3 errors, 2 warnings, 1 info in src (1 hint not listed):',
        'a.ts:2:1: error: problem 2',
        'a.ts:12:1: error: problem 12',
        'b.ts:3:1: error: problem 3',
        'a.ts:7:1: warning: problem 7',
        'b.ts:9:1: warning: problem 9',
        'b.ts:1:1: info: problem 1',
      ].join('\n'),
    );
  });

  it.each([
    [[], 'No errors or warnings in src.'],
    [[diagnostic('a.ts', 1, 'hint'), diagnostic('a.ts', 2, 'hint')], 'No errors or warnings in src (2 hints not listed).'],
    [[diagnostic('a.ts', 1, 'warning')], '0 errors, 1 warning in src:\na.ts:1:1: warning: problem 1'],
    [[diagnostic('a.ts', 1, 'info')], '0 errors, 0 warnings, 1 info in src:\na.ts:1:1: info: problem 1'],
  ])('%j: %j', (list, expected) => {
    expect(formatDiagnostics(list, 'src')).toBe(expected);
  });

  it.each([
    [{ source: 'typescript', code: '2322' }, 'a.ts:1:1: error TS2322: problem 1'],
    [{ source: 'eslint', code: 'no-undef' }, 'a.ts:1:1: error eslint:no-undef: problem 1'],
    [{ code: '7' }, 'a.ts:1:1: error 7: problem 1'],
    [{ source: 'eslint' }, 'a.ts:1:1: error: problem 1'],
    [{ message: 'first\nsecond' }, 'a.ts:1:1: error: first\n    second'],
  ])('writes %j as %j', (extra, line) => {
    expect(formatDiagnostics([diagnostic('a.ts', 1, 'error', extra)], 'src')).toBe(`1 error, 0 warnings in src:\n${line}`);
  });

  it(`lists ${LSP_MAX_DIAGNOSTICS} and says how many more`, () => {
    const errors = (n: number) => Array.from({ length: n }, (_, i) => diagnostic('a.ts', i + 1, 'error'));
    const lines = errors(LSP_MAX_DIAGNOSTICS).map((d) => `a.ts:${d.line}:1: error: problem ${d.line}`);
    expect(formatDiagnostics(errors(LSP_MAX_DIAGNOSTICS), 'src')).toBe([`${LSP_MAX_DIAGNOSTICS} errors, 0 warnings in src:`, ...lines].join('\n'));
    expect(formatDiagnostics(errors(LSP_MAX_DIAGNOSTICS + 2), 'src')).toBe([`${LSP_MAX_DIAGNOSTICS + 2} errors, 0 warnings in src:`, ...lines, '[2 more not shown]'].join('\n'));
  });
});
