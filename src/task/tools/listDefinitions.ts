import { z } from 'zod';
import { confinePath, isMentioned } from './confinePath';
import { READ_FILE_MAX_BYTES } from './readFile';
import { defineTool, fail, ok } from './tool';
import type { ToolContext, ToolResult } from './tool';
import { walkWorkspace } from './walkWorkspace';

/** Files of a folder looked at by one call. */
const MAX_FILES = 50;
/** Characters of a definition line shown. */
const MAX_LINE_CHARS = 160;

/*
 * Regex-based, not a parser: a definition is recognised only at column 0 (top level) from its
 * keyword, so nested functions, methods and definitions built by expressions are not listed,
 * and a keyword inside a multi-line string at column 0 may be. Good enough to map a file
 * cheaply; the LSP tools give exact symbols.
 */
const TS_JS = [
  /^(?:export\s+(?:default\s+)?)?(?:declare\s+)?(?:async\s+)?function\b\s*\*?\s*[\w$]+/,
  /^(?:export\s+(?:default\s+)?)?(?:declare\s+)?(?:abstract\s+)?class\s+[\w$]+/,
  /^(?:export\s+)?(?:declare\s+)?interface\s+[\w$]+/,
  /^(?:export\s+)?(?:declare\s+)?type\s+[\w$]+\s*(?:<[^=]*>)?\s*=/,
  /^(?:export\s+)?(?:declare\s+)?(?:const\s+)?enum\s+[\w$]+/,
  /^(?:export\s+)?(?:declare\s+)?namespace\s+[\w$.]+/,
  /^(?:export\s+)?(?:const|let|var)\s+[\w$]+\s*(?::[^=]+)?=\s*(?:async\s+)?(?:function\b|\([^)]*\)\s*(?::[^=]+)?=>|[\w$]+\s*=>)/,
];
const PYTHON = [/^(?:async\s+)?def\s+\w+/, /^class\s+\w+/];

const LANGUAGES: ReadonlyArray<{ extensions: string[]; patterns: RegExp[] }> = [
  { extensions: ['ts', 'tsx', 'mts', 'cts', 'js', 'jsx', 'mjs', 'cjs'], patterns: TS_JS },
  { extensions: ['py', 'pyi'], patterns: PYTHON },
];

function patternsFor(path: string): RegExp[] | undefined {
  const ext = /\.([^./]+)$/.exec(path)?.[1]?.toLowerCase();
  return LANGUAGES.find((l) => ext !== undefined && l.extensions.includes(ext))?.patterns;
}

const SUPPORTED = LANGUAGES.flatMap((l) => l.extensions.map((e) => `.${e}`)).join(' ');

const input = z.object({
  path: z.string().min(1).describe('A source file, or a folder whose source files (not sub-folders) are mapped.'),
});

/** Top-level functions, classes, interfaces, types and enums of TS/JS/Python files, found by regex. */
export const listDefinitionsTool = defineTool({
  name: 'list_definitions',
  description:
    'List the top-level definitions (functions, classes, interfaces, types, enums) of a source file, or of the source files directly in a folder, ' +
    `with line numbers: a quick map before reading. Regex-based, top level only; supports ${SUPPORTED}.`,
  input,
  needsApproval: false,
  summarize: (v) => `list definitions in ${v.path}`,
  async run(v, ctx): Promise<ToolResult> {
    const where = await confinePath(ctx, v.path, 'read');
    if (!where.ok) return fail(where.message);
    const stat = await ctx.workspace.stat(where.rel);
    if (!stat) return fail(`No file or folder at '${v.path}'.`);
    if (stat.kind === 'file') {
      const patterns = patternsFor(where.rel);
      if (!patterns) return fail(`'${v.path}' is not a supported source file (supported: ${SUPPORTED}).`);
      const defs = await definitionsOf(ctx, where.realRel, patterns);
      return ok(defs.length > 0 ? `${where.rel}\n${defs.join('\n')}` : `No top-level definitions found in ${where.rel}.`);
    }
    const sections: string[] = [];
    let files = 0;
    const walk = walkWorkspace(ctx.workspace, ctx.ignore, where.realRel, { recursive: false, order: 'depth', includeIgnored: isMentioned(where.rel, ctx.mentionedPaths), signal: ctx.signal });
    for await (const entry of walk) {
      const patterns = patternsFor(entry.path);
      if (entry.kind !== 'file' || !patterns) continue;
      if (++files > MAX_FILES) {
        sections.push(`[stopped after ${MAX_FILES} files: ask for a sub-folder or a single file]`);
        break;
      }
      const defs = await definitionsOf(ctx, entry.path, patterns);
      if (defs.length > 0) sections.push(`${entry.path}\n${defs.join('\n')}`);
    }
    if (files === 0) return ok(`No supported source files directly in ${v.path} (supported: ${SUPPORTED}); try a sub-folder.`);
    return ok(sections.length > 0 ? sections.join('\n\n') : `No top-level definitions found in the ${files} source files of ${v.path}.`);
  },
});

/** "  12 | export function f(...)" lines of one file; large and binary files give none. */
async function definitionsOf(ctx: ToolContext, rel: string, patterns: readonly RegExp[]): Promise<string[]> {
  const stat = await ctx.workspace.stat(rel);
  if (!stat || stat.size > READ_FILE_MAX_BYTES) return [];
  const text = await ctx.workspace.readText(rel);
  if (text.includes('\0')) return [];
  const found: Array<{ line: number; text: string }> = [];
  text.split('\n').forEach((raw, i) => {
    const line = raw.replace(/\r$/, '');
    if (patterns.some((p) => p.test(line))) found.push({ line: i + 1, text: line.trimEnd().slice(0, MAX_LINE_CHARS) });
  });
  const width = String(found[found.length - 1]?.line ?? 0).length;
  return found.map((d) => `  ${String(d.line).padStart(width)} | ${d.text}`);
}
