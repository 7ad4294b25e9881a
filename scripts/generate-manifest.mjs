// Writes `contributes.configuration` into package.json from engineSettingsSchema (through
// src/extension/settingsManifest.ts). test/unit/settingsManifest.test.ts fails when they differ.
import { build } from 'esbuild';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const out = join(root, '.tmp', 'settingsManifest.cjs');
mkdirSync(join(root, '.tmp'), { recursive: true });
await build({ entryPoints: [join(root, 'src/extension/settingsManifest.ts')], outfile: out, bundle: true, platform: 'node', format: 'cjs', logLevel: 'warning' });
const { buildConfigurationContribution } = createRequire(import.meta.url)(out);
const pkgPath = join(root, 'package.json');
const pkg = JSON.parse(readFileSync(pkgPath, 'utf8'));
const next = buildConfigurationContribution();
const changed = JSON.stringify(pkg.contributes?.configuration) !== JSON.stringify(next);
pkg.contributes = { ...pkg.contributes, configuration: next };
writeFileSync(pkgPath, `${JSON.stringify(pkg, null, 2)}\n`);
console.log(changed ? 'package.json: contributes.configuration updated' : 'package.json: contributes.configuration already up to date');
