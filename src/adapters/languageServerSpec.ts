import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

/** How to start one language server and which files it handles. */
export interface LanguageServerSpec {
  /** Shown in messages: `typescript-language-server`. */
  name: string;
  command: string;
  args: string[];
  /** Lower-case file extension with its dot -> LSP languageId. */
  languages: Readonly<Record<string, string>>;
  /** What the user runs when the server is missing. */
  installHint: string;
  initializationOptions?: Record<string, unknown>;
}

/** File types typescript-language-server handles. */
const TYPESCRIPT_LANGUAGES: Record<string, string> = {
  '.ts': 'typescript', '.mts': 'typescript', '.cts': 'typescript', '.tsx': 'typescriptreact',
  '.js': 'javascript', '.mjs': 'javascript', '.cjs': 'javascript', '.jsx': 'javascriptreact',
};

/**
 * typescript-language-server run by this Node over stdio, or `undefined` when it or TypeScript
 * does not resolve from Strata's own install. The workspace's own TypeScript wins when it has one;
 * ours (`fallbackPath`) serves workspaces without one.
 *
 * Pinned: typescript-language-server 5.3.0, the last line for Node 20 (6.x needs Node >= 22.22.2;
 * this machine and code-server 4.100.3 run Node 20), and typescript 5.9.3 (7.x is the native port
 * and ships no tsserver.js for the server to run).
 */
export function typescriptServerSpec(): LanguageServerSpec | undefined {
  const require = createRequire(__filename);
  try {
    const cli = require.resolve('typescript-language-server/lib/cli.mjs');
    const tsserver = join(require.resolve('typescript/package.json'), '..', 'lib', 'tsserver.js');
    if (!existsSync(tsserver)) return undefined;
    return {
      name: 'typescript-language-server',
      command: process.execPath,
      args: [cli, '--stdio'],
      languages: TYPESCRIPT_LANGUAGES,
      installHint: 'npm install typescript-language-server@5 typescript@5 beside Strata',
      // No syntax-only server: it answers while the project loads, and sends the definition of an
      // imported name to its import line instead of its declaration.
      initializationOptions: { tsserver: { fallbackPath: tsserver, useSyntaxServer: 'never' } },
    };
  } catch {
    return undefined;
  }
}

