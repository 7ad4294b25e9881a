import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(__dirname, '..', '..');

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (/\.tsx?$/.test(name)) out.push(path);
  }
  return out;
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:^|\n)\s*(?:import|export)[^'"\n]*?from\s+['"]([^'"]+)['"]/g), ...text.matchAll(/import\(\s*['"]([^'"]+)['"]\s*\)/g)].map(
    (m) => m[1]!,
  );
}

const files = sourceFiles(join(ROOT, 'src')).map((f) => ({ path: relative(ROOT, f), imports: importsOf(f) }));

describe('layering (STYLE.md): only adapters touch outside libraries, only src/extension touches vscode', () => {
  it('finds the source tree', () => {
    expect(files.length).toBeGreaterThan(10);
  });

  it('the engine imports only relative modules and the shared folder', () => {
    const bad = files
      .filter((f) => f.path.startsWith('src/engine/'))
      .flatMap((f) => f.imports.filter((i) => !i.startsWith('.')).map((i) => `${f.path} imports ${i}`));
    expect(bad).toEqual([]);
    const upward = files
      .filter((f) => f.path.startsWith('src/engine/'))
      .flatMap((f) => f.imports.filter((i) => /\.\.\/(adapters|cli|extension|task)\//.test(i)).map((i) => `${f.path} imports ${i}`));
    expect(upward).toEqual([]);
  });

  it('src/shared imports nothing but zod and itself', () => {
    const bad = files
      .filter((f) => f.path.startsWith('src/shared/'))
      .flatMap((f) => f.imports.filter((i) => i !== 'zod' && !i.startsWith('./') && !i.startsWith('../engine/ports')).map((i) => `${f.path} imports ${i}`));
    expect(bad).toEqual([]);
  });

  it('each outside library is imported by exactly one adapter file', () => {
    for (const lib of ['better-sqlite3', 'js-tiktoken', 'ignore']) {
      const users = files.filter((f) => f.imports.some((i) => i === lib || i.startsWith(`${lib}/`))).map((f) => f.path);
      expect(users.length, `${lib} used by ${users.join(', ')}`).toBe(1);
      expect(users[0]!.startsWith('src/adapters/')).toBe(true);
    }
  });

  it('only src/extension imports vscode', () => {
    const bad = files.filter((f) => !f.path.startsWith('src/extension/') && f.imports.includes('vscode')).map((f) => f.path);
    expect(bad).toEqual([]);
  });
});
