import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDirs } from '../support/tempDirs';

const ROOT = join(__dirname, '..', '..');
const CHECK = join(ROOT, 'scripts', 'check-vsix.mjs');
const VSCE = join(ROOT, 'node_modules', '@vscode', 'vsce', 'vsce');
const tempDir = useTempDirs('strata-check-vsix-');

/** A .vsix made by the project's vsce from a small extension folder holding `files`. */
function packageExtension(files: Record<string, string>): string {
  const dir = tempDir();
  const manifest = { name: 'probe', publisher: 'strata-dev', version: '0.0.1', engines: { vscode: '^1.100.0' }, main: './dist/extension.js', activationEvents: ['onStartupFinished'] };
  writeFileSync(join(dir, 'package.json'), JSON.stringify(manifest));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  const out = join(dir, 'probe.vsix');
  const made = spawnSync(process.execPath, [VSCE, 'package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '--out', out], { cwd: dir, encoding: 'utf8' });
  expect(made.status, made.stderr).toBe(0);
  return out;
}

function check(vsix: string) {
  return spawnSync(process.execPath, [CHECK, vsix], { encoding: 'utf8' });
}

describe('scripts/check-vsix.mjs (run by npm run package on the .vsix it makes)', () => {
  it('fails on a .vsix that holds a .node file, naming it', () => {
    const vsix = packageExtension({ 'dist/extension.js': 'exports.activate = () => {};', 'native/build/Release/driver.node': 'not really ELF' });
    const run = check(vsix);
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('extension/native/build/Release/driver.node');
    expect(run.stderr).toMatch(/Exclude them in \.vscodeignore/);
  }, 60_000);

  it('passes a .vsix without native modules and counts its entries', () => {
    const vsix = packageExtension({ 'dist/extension.js': 'exports.activate = () => {};' });
    const run = check(vsix);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    // [Content_Types].xml, extension.vsixmanifest, package.json, dist/extension.js at least.
    expect(run.stdout).toMatch(/probe\.vsix: \d+ entries, no native module/);
    expect(Number(/: (\d+) entries/.exec(run.stdout)![1])).toBeGreaterThanOrEqual(4);
  }, 60_000);

  it('refuses a file that is not a zip', () => {
    const file = join(tempDir(), 'plain.vsix');
    writeFileSync(file, 'plain text, no zip records');
    const run = check(file);
    expect(run.status).not.toBe(0);
    expect(run.stderr).toMatch(/not a zip file/);
    expect(readFileSync(file, 'utf8')).toBe('plain text, no zip records');
  });
});
