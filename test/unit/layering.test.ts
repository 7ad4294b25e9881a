import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
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

  it('the Task loop imports only relative modules, src/shared, src/engine and zod (no other package, no node:*)', () => {
    const task = files.filter((f) => f.path.startsWith('src/task/'));
    expect(task.length).toBeGreaterThan(0);
    // Resolved against the importing file, so a subfolder (src/task/tools/) is judged the same way.
    // zod is allowed as in src/shared: tool calls are validated at the loop's trust boundary.
    const allowed = (from: string, spec: string): boolean =>
      spec === 'zod' || (spec.startsWith('.') && /^src\/(task|shared|engine)\//.test(join(dirname(from), spec).split(sep).join('/')));
    const bad = task.flatMap((f) => f.imports.filter((i) => !allowed(f.path, i)).map((i) => `${f.path} imports ${i}`));
    expect(bad).toEqual([]);
  });

  it('src/shared imports nothing but zod and itself', () => {
    const bad = files
      .filter((f) => f.path.startsWith('src/shared/'))
      .flatMap((f) => f.imports.filter((i) => i !== 'zod' && !i.startsWith('./') && !i.startsWith('../engine/ports')).map((i) => `${f.path} imports ${i}`));
    expect(bad).toEqual([]);
  });

  it('each outside library is imported by exactly one adapter file', () => {
    for (const lib of ['better-sqlite3', 'js-tiktoken', 'ignore', '@anthropic-ai/sdk']) {
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
