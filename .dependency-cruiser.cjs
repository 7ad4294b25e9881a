/**
 * The layering of STYLE.md, checked by dependency-cruiser on the real parse of every file (ES
 * imports on any number of lines, `require`, dynamic `import()`, type-only imports).
 * Run by test/unit/layering.test.ts; by hand: `npx depcruise src --config .dependency-cruiser.cjs`.
 * Paths are relative to the folder it runs in (the repository, or a fixture folder in the test).
 */
/** npm packages only adapter files may import (their @types too). */
const ADAPTER_ONLY = '(^|node_modules/)(@types/)?(better-sqlite3|js-tiktoken|@anthropic-ai/sdk|ignore|vscode-languageserver-protocol|vscode-jsonrpc|vscode-languageserver-types)(/|$)';
const ZOD = '(^|node_modules/)zod(/|$)';

module.exports = {
  forbidden: [
    {
      name: 'engine-imports-no-package',
      comment: 'src/engine is pure: the outside world comes in through ports (src/engine/ports.ts), never by import (no npm package, no node: builtin).',
      severity: 'error',
      from: { path: '^src/engine/' },
      to: { dependencyTypesNot: ['local'] },
    },
    {
      name: 'task-imports-only-zod',
      comment: 'src/task is pure like the engine, except zod: tool calls are validated at the loop\'s trust boundary.',
      severity: 'error',
      from: { path: '^src/task/' },
      to: { dependencyTypesNot: ['local'], pathNot: ZOD },
    },
    {
      name: 'engine-imports-no-outer-layer',
      comment: 'src/engine may use src/shared and itself; adapters, cli, extension and task sit above it.',
      severity: 'error',
      from: { path: '^src/engine/' },
      to: { path: '^src/(adapters|cli|extension|task)/' },
    },
    {
      name: 'task-imports-no-outer-layer',
      comment: 'src/task may use src/engine and src/shared; adapters, cli and extension sit above it.',
      severity: 'error',
      from: { path: '^src/task/' },
      to: { path: '^src/(adapters|cli|extension)/' },
    },
    {
      name: 'host-imports-no-front-end',
      comment: 'src/host wires adapters into a Task for both front ends; it may not reach into either (the CLI or the extension).',
      severity: 'error',
      from: { path: '^src/host/' },
      to: { path: '^src/(cli|extension)/' },
    },
    {
      name: 'shared-imports-only-zod',
      comment: 'src/shared is loaded by the extension host and the webview alike: zod and itself, nothing else.',
      severity: 'error',
      from: { path: '^src/shared/' },
      to: { pathNot: ['^src/shared/', ZOD] },
    },
    {
      name: 'library-only-in-adapters',
      comment: 'Each outside library has its adapter file in src/adapters/; everyone else goes through a port.',
      severity: 'error',
      from: { pathNot: '^src/adapters/' },
      to: { path: ADAPTER_ONLY },
    },
    {
      name: 'vscode-only-in-extension',
      comment: 'Only src/extension talks to the editor; the engine and the CLI run in plain Node.',
      severity: 'error',
      from: { pathNot: '^src/extension/' },
      // With @types/vscode installed, 'vscode' resolves to its typings: match both forms.
      to: { path: ['^vscode$', '(^|/)node_modules/@types/vscode/'] },
    },
    {
      name: 'webview-imports-only-shared',
      comment: 'The webview talks to the host by messages: of the repository it may import src/shared only, and no node: builtin.',
      severity: 'error',
      from: { path: '^webview-ui/' },
      to: { pathNot: ['^webview-ui/', '^src/shared/', 'node_modules/'] },
    },
    {
      name: 'nothing-imports-the-extension',
      comment: 'src/extension is the top layer: nothing below it may import it.',
      severity: 'error',
      from: { pathNot: '^src/extension/' },
      to: { path: '^src/extension/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // type-only imports count too: an `import type` from a library still ties the engine to it
    tsPreCompilationDeps: true,
    moduleSystems: ['es6', 'cjs'],
  },
};
