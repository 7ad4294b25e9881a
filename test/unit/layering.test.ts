import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(__dirname, '..', '..');
const CONFIG = join(ROOT, '.dependency-cruiser.cjs');
const DEPCRUISE = join(ROOT, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');
const FIXTURE = join(ROOT, 'test', 'fixtures', 'layering-violations');

interface Cruise {
  modules: { source: string; dependencies: { resolved: string; module: string }[] }[];
  summary: { violations: { rule: { name: string }; from: string; to: string }[]; totalCruised: number };
}

/** dependency-cruiser with the repository's rules, run in `cwd` over `dirs`; its JSON report. */
function cruise(cwd: string, dirs: string[]): Cruise {
  const run = spawnSync(process.execPath, [DEPCRUISE, ...dirs, '--config', CONFIG, '--output-type', 'json'], { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  expect(run.stdout, run.stderr).not.toBe('');
  return JSON.parse(run.stdout) as Cruise;
}

describe('layering (STYLE.md) checked by dependency-cruiser (.dependency-cruiser.cjs)', () => {
  const real = cruise(ROOT, ['src', ...(existsSync(join(ROOT, 'webview-ui')) ? ['webview-ui'] : [])]);

  it('the source tree breaks no rule', () => {
    expect(real.summary.totalCruised).toBeGreaterThan(40);
    expect(real.summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`)).toEqual([]);
  });

  it('each outside library is imported by exactly one file, an adapter', () => {
    for (const lib of ['better-sqlite3', 'js-tiktoken', 'ignore', '@anthropic-ai/sdk', 'vscode-languageserver-protocol']) {
      const users = real.modules.filter((m) => m.dependencies.some((d) => d.module === lib || d.module.startsWith(`${lib}/`))).map((m) => m.source);
      expect(users.length, `${lib} used by ${users.join(', ')}`).toBe(1);
      expect(users[0]!.startsWith('src/adapters/')).toBe(true);
    }
  });

  it("node:sqlite (a builtin, looked up with process.getBuiltinModule, which dependency-cruiser cannot see) is loaded by one adapter file", () => {
    const loads = /(getBuiltinModule|require|import)\(\s*['"]node:sqlite['"]/;
    const users = real.modules.map((m) => m.source).filter((source) => source.startsWith('src/') && loads.test(readFileSync(join(ROOT, source), 'utf8')));
    expect(users).toEqual(['src/adapters/nodeSqliteDriver.ts']);
  });

  it('catches what a line regex missed: a multi-line import, a require, a dynamic import, each rule once', () => {
    const found = cruise(FIXTURE, ['src', 'webview-ui']).summary.violations.map((v) => `${v.rule.name}: ${v.from}`);
    expect(found.sort()).toEqual(
      [
        'engine-imports-no-package: src/engine/multiLineImport.mts',
        'engine-imports-no-package: src/engine/requireCall.mts',
        'engine-imports-no-package: src/engine/dynamicImport.mts',
        'library-only-in-adapters: src/engine/requireCall.mts',
        'library-only-in-adapters: src/engine/dynamicImport.mts',
        'library-only-in-adapters: src/cli/sdkUse.mts',
        'engine-imports-no-outer-layer: src/engine/upward.mts',
        'shared-imports-only-zod: src/shared/pathUse.mts',
        'vscode-only-in-extension: src/adapters/editor.mts',
        'webview-imports-only-shared: webview-ui/view.mts',
        'task-imports-no-outer-layer: src/task/loop.mts',
        'task-imports-only-zod: src/task/loop.mts',
        'nothing-imports-the-extension: src/cli/usesHost.mts',
        'host-imports-no-front-end: src/host/usesCli.mts',
      ].sort(),
    );
  });
});
