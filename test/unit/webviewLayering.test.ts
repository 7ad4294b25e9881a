import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(__dirname, '..', '..', 'webview-ui', 'src');
// react-markdown, remark-gfm and rehype-highlight render assistant answers (AssistantMarkdown.tsx).
const ALLOWED_PACKAGES = /^(react|react-dom|react\/jsx-runtime|react-dom\/client|@vscode-elements\/react-elements(\/.*)?|react-markdown|remark-gfm|rehype-highlight)$/;

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : /\.(tsx?|css)$/.test(e.name) ? [join(dir, e.name)] : []));
}

describe('layering: webview-ui imports only src/shared, React and vscode-elements', () => {
  it('finds the webview sources', () => {
    expect(files(SRC).length).toBeGreaterThan(5);
  });

  it('has no import of the engine (except types), the extension, adapters, vscode or node', () => {
    const bad: string[] = [];
    for (const file of files(SRC).filter((f) => /\.tsx?$/.test(f))) {
      for (const m of readFileSync(file, 'utf8').matchAll(/^import (type )?[^'"]*?['"]([^'"]+)['"]/gm)) {
        const [, typeOnly, spec] = m;
        if (spec!.startsWith('.')) {
          const ok = !spec!.includes('../src/') || spec!.includes('/src/shared/') || (typeOnly && spec!.includes('/src/engine/'));
          if (!ok) bad.push(`${file}: ${spec}`);
        } else if (!ALLOWED_PACKAGES.test(spec!)) bad.push(`${file}: ${spec}`);
      }
    }
    expect(bad).toEqual([]);
  });
});
