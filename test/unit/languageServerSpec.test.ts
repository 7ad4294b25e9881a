import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import { typescriptServerSpec } from '../../src/adapters/languageServerSpec';
import { LspLanguageService } from '../../src/adapters/lspLanguageService';
import { useTempDirs } from '../support/tempDirs';

const tempDir = useTempDirs('strata-lspspec-');

describe('typescriptServerSpec', () => {
  it('runs the installed typescript-language-server over stdio with this Node, TypeScript as its fallback and no syntax-only server', () => {
    const spec = typescriptServerSpec();
    expect(spec).toBeDefined();
    const { name, command, args, installHint, initializationOptions } = spec!;
    expect(name).toBe('typescript-language-server');
    expect(command).toBe(process.execPath);
    expect(args).toHaveLength(2);
    expect(existsSync(args[0]!)).toBe(true);
    expect(basename(args[0]!)).toBe('cli.mjs');
    expect(args[1]).toBe('--stdio');
    expect(installHint).toMatch(/^npm install typescript-language-server@\d+ typescript@\d+/);
    const tsserver = (initializationOptions as { tsserver: { fallbackPath: string; useSyntaxServer: string } }).tsserver;
    expect(tsserver.useSyntaxServer).toBe('never');
    expect(existsSync(tsserver.fallbackPath)).toBe(true);
    expect(tsserver.fallbackPath.split(/[\\/]/).slice(-3)).toEqual(['typescript', 'lib', 'tsserver.js']);
  });

  it('handles TypeScript and JavaScript files of every module flavour, by extension in any case, and nothing else', () => {
    const spec = typescriptServerSpec()!;
    expect(spec.languages).toEqual({
      '.ts': 'typescript',
      '.mts': 'typescript',
      '.cts': 'typescript',
      '.tsx': 'typescriptreact',
      '.js': 'javascript',
      '.mjs': 'javascript',
      '.cjs': 'javascript',
      '.jsx': 'javascriptreact',
    });
    // supports() needs no server: nothing starts here.
    const service = new LspLanguageService({ root: tempDir(), server: spec });
    expect(['a.ts', 'b/c.MTS', 'x.cjs', 'App.tsx', 'App.JSX'].map((p) => service.supports(p))).toEqual([true, true, true, true, true]);
    expect(['a.json', 'README.md', 'Makefile', 'a.ts.bak'].map((p) => service.supports(p))).toEqual([false, false, false, false]);
    expect(service.pid).toBeUndefined();
  });
});
