// Writes `contributes.configuration` into package.json from engineSettingsSchema (through
// src/extension/settingsManifest.ts), and docs/settings.md's settings table from it (settingsTable.ts).
// test/unit/settingsManifest.test.ts fails when either differs.
import { build } from 'esbuild';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const out = join(root, '.tmp', 'settingsManifest.cjs');
mkdirSync(join(root, '.tmp'), { recursive: true });
const tableOut = join(root, '.tmp', 'settingsTable.cjs');
await build({ entryPoints: [join(root, 'src/extension/settingsManifest.ts')], outfile: out, bundle: true, platform: 'node', format: 'cjs', logLevel: 'warning' });
await build({ entryPoints: [join(root, 'src/extension/settingsTable.ts')], outfile: tableOut, bundle: true, platform: 'node', format: 'cjs', logLevel: 'warning' });
const { buildConfigurationContribution } = createRequire(import.meta.url)(out);
const { renderSettingsTable, withSettingsTable } = createRequire(import.meta.url)(tableOut);
const pkgPath = join(root, 'package.json');
const pkg = JSON.parse(readFileSync(pkgPath, 'utf8'));
const next = buildConfigurationContribution();
const changed = JSON.stringify(pkg.contributes?.configuration) !== JSON.stringify(next);
pkg.contributes = { ...pkg.contributes, configuration: next };
writeFileSync(pkgPath, `${JSON.stringify(pkg, null, 2)}\n`);
console.log(changed ? 'package.json: contributes.configuration updated' : 'package.json: contributes.configuration already up to date');

const pagePath = join(root, 'docs', 'settings.md');
const page = readFileSync(pagePath, 'utf8');
const nextPage = withSettingsTable(page, renderSettingsTable(next));
writeFileSync(pagePath, nextPage);
console.log(nextPage !== page ? 'docs/settings.md: settings table updated' : 'docs/settings.md: settings table already up to date');
