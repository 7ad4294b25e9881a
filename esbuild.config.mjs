import { build } from 'esbuild';

// The CLI bundles everything but the native SQLite driver, which loads from node_modules.
await build({
  entryPoints: { cli: 'src/cli/main.ts' },
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  sourcemap: true,
  external: ['vscode', 'better-sqlite3'],
  banner: { js: '#!/usr/bin/env node' },
  logLevel: 'warning',
});
