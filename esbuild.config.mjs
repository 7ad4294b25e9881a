import { build } from 'esbuild';
import { cpSync, mkdirSync, rmSync } from 'node:fs';

// `--production`: minified, no source maps (what `npm run package` ships).
const production = process.argv.includes('--production');
const common = { bundle: true, sourcemap: !production, minify: production, logLevel: 'warning' };

// Node bundles (CLI and extension host) keep the native SQLite driver (and the editor's own
// `vscode` module) outside: they load from node_modules / the editor at run time. node:sqlite is
// looked up at run time by process.getBuiltinModule (src/adapters/nodeSqliteDriver.ts), never bundled.
// Start clean so a production build carries no stale source maps.
rmSync('dist', { recursive: true, force: true });

const node = { ...common, platform: 'node', format: 'cjs', target: 'node20', external: ['vscode', 'better-sqlite3'] };

await Promise.all([
  build({ ...node, entryPoints: { cli: 'src/cli/main.ts' }, outdir: 'dist', banner: { js: '#!/usr/bin/env node' } }),
  build({ ...node, entryPoints: { extension: 'src/extension/extension.ts' }, outdir: 'dist' }),
  // The webview: fixed names (dist/webview/main.js, main.css) so the CSP'd HTML can point at them.
  build({
    ...common,
    entryPoints: { main: 'webview-ui/src/main.tsx' },
    outdir: 'dist/webview',
    platform: 'browser',
    format: 'iife',
    target: 'chrome120',
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': production ? '"production"' : '"development"' },
  }),
]);

// Codicons' stylesheet and font, served from dist/webview/codicons (the only resource root).
mkdirSync('dist/webview/codicons', { recursive: true });
for (const file of ['codicon.css', 'codicon.ttf']) cpSync(`node_modules/@vscode/codicons/dist/${file}`, `dist/webview/codicons/${file}`);
