import { z } from 'zod';
import type { CodeLocation, DiagnosticInfo, DocumentSymbolInfo, LanguageService } from '../languagePort';
import { confinePath } from './confinePath';
import { lspFile, resolveColumn, symbolPositionInput } from './lspTarget';
import type { SymbolPositionInput } from './lspTarget';
import { READ_FILE_MAX_BYTES } from './readFile';
import { defineTool, fail, ok } from './tool';
import type { ToolContext, ToolResult } from './tool';

/** Locations listed by one answer at most (references of a common name run into thousands). */
export const LSP_MAX_LOCATIONS = 100;
/** Outline entries listed at most (nested ones count). */
export const LSP_MAX_SYMBOLS = 300;
/** Diagnostics listed at most. */
export const LSP_MAX_DIAGNOSTICS = 200;
/** Characters of hover text kept (a long doc comment is cut). */
export const LSP_MAX_HOVER_CHARS = 4_000;
/** Characters of a source line shown beside a location. */
const MAX_LINE_CHARS = 160;

const positionSummary = (verb: string) => (v: SymbolPositionInput) => `${verb} ${v.symbol ?? `column ${v.column}`} at ${v.path}:${v.line}`;

/** Confines the file, resolves the column, and runs `ask` with the language service. */
async function atSymbol(
  ctx: ToolContext,
  v: SymbolPositionInput,
  ask: (language: LanguageService, rel: string, line: number, column: number, label: string) => Promise<ToolResult>,
): Promise<ToolResult> {
  const file = await lspFile(ctx, v.path);
  if (!file.ok) return fail(file.message);
  const at = resolveColumn(await ctx.workspace.readText(file.rel), file.rel, v);
  if (!at.ok) return fail(at.message);
  return ask(file.language, file.rel, at.line, at.column, at.label);
}

export const lspDefinitionTool = defineTool({
  name: 'lsp_definition',
  description: 'Go to definition, from a language server: where the symbol on a given line is defined (across files). Give path, line and the symbol as written on that line.',
  input: symbolPositionInput,
  needsApproval: false,
  summarize: positionSummary('definition of'),
  run: (v, ctx) =>
    atSymbol(ctx, v, async (language, rel, line, column, label) => {
      const found = await language.definition(rel, line, column, ctx.signal);
      if (found.length === 0) return ok(`No definition found for ${label} (is it a keyword, a literal or whitespace? check the line with read_file).`);
      return ok(`Definition of ${label}:\n${(await renderLocations(ctx, found)).join('\n')}`);
    }),
});

export const lspReferencesTool = defineTool({
  name: 'lsp_references',
  description: `Find all references, from a language server: every use of the symbol on a given line, its declaration included (at most ${LSP_MAX_LOCATIONS} listed).`,
  input: symbolPositionInput,
  needsApproval: false,
  summarize: positionSummary('references to'),
  run: (v, ctx) =>
    atSymbol(ctx, v, async (language, rel, line, column, label) => {
      const found = await language.references(rel, line, column, ctx.signal);
      if (found.length === 0) return ok(`No references found for ${label}.`);
      const sorted = [...found].sort((a, b) => a.path.localeCompare(b.path) || a.line - b.line || a.column - b.column);
      const files = new Set(sorted.map((l) => l.path)).size;
      const lines = await renderLocations(ctx, sorted.slice(0, LSP_MAX_LOCATIONS));
      const more = sorted.length > LSP_MAX_LOCATIONS ? `\n[${sorted.length - LSP_MAX_LOCATIONS} more not shown; search_files can narrow by folder]` : '';
      return ok(`${plural(sorted.length, 'reference')} to ${label} in ${plural(files, 'file')}:\n${lines.join('\n')}${more}`);
    }),
});

export const lspDocumentSymbolsTool = defineTool({
  name: 'lsp_document_symbols',
  description: `A file's outline from a language server: classes, functions, methods, variables with their line ranges, nested (at most ${LSP_MAX_SYMBOLS} entries).`,
  input: z.object({ path: z.string().min(1).describe('File path, relative to the workspace root.') }),
  needsApproval: false,
  summarize: (v) => `outline of ${v.path}`,
  async run(v, ctx): Promise<ToolResult> {
    const file = await lspFile(ctx, v.path);
    if (!file.ok) return fail(file.message);
    const symbols = await file.language.documentSymbols(file.rel, ctx.signal);
    const lines: string[] = [];
    let total = 0;
    const walk = (list: readonly DocumentSymbolInfo[], depth: number) => {
      for (const s of list) {
        total++;
        if (lines.length < LSP_MAX_SYMBOLS) {
          const range = s.endLine > s.line ? `lines ${s.line}-${s.endLine}` : `line ${s.line}`;
          lines.push(`${'  '.repeat(depth)}${s.kind} ${s.name} (${range})${s.detail ? ` ${clip(s.detail)}` : ''}`);
        }
        walk(s.children, depth + 1);
      }
    };
    walk(symbols, 0);
    if (total === 0) return ok(`${file.rel}: the language server reports no symbols.`);
    const more = total > lines.length ? `\n[${total - lines.length} more not shown]` : '';
    return ok(`${file.rel}: ${plural(total, 'symbol')}\n${lines.join('\n')}${more}`);
  },
});

export const lspHoverTool = defineTool({
  name: 'lsp_hover',
  description: 'Hover information from a language server: the type or signature and doc comment of the symbol on a given line.',
  input: symbolPositionInput,
  needsApproval: false,
  summarize: positionSummary('hover on'),
  run: (v, ctx) =>
    atSymbol(ctx, v, async (language, rel, line, column, label) => {
      const text = await language.hover(rel, line, column, ctx.signal);
      if (text === undefined) return ok(`No hover information for ${label}.`);
      const cut = text.length > LSP_MAX_HOVER_CHARS ? `${text.slice(0, LSP_MAX_HOVER_CHARS)}\n[... ${text.length - LSP_MAX_HOVER_CHARS} more characters]` : text;
      return ok(`Hover for ${label}:\n${cut}`);
    }),
});

export const lspDiagnosticsTool = defineTool({
  name: 'lsp_diagnostics',
  description:
    'Errors and warnings from a language server (type errors, unresolved imports...) for one file as it is on disk now. ' +
    'Without a path: those of every file the language server has opened in this session.',
  input: z.object({ path: z.string().min(1).optional().describe('File path, relative to the workspace root; omit for every file checked so far.') }),
  needsApproval: false,
  summarize: (v) => `diagnostics of ${v.path ?? 'the files checked so far'}`,
  async run(v, ctx): Promise<ToolResult> {
    if (v.path === undefined) {
      if (!ctx.language) return fail('No language server runs in this session; run the project\'s type checker with execute_command instead.');
      const all = await ctx.language.diagnostics(undefined, ctx.signal);
      return ok(formatDiagnostics(all, 'the files the language server has opened (give a path to check another file)'));
    }
    const file = await lspFile(ctx, v.path);
    if (!file.ok) return fail(file.message);
    return ok(formatDiagnostics(await file.language.diagnostics(file.rel, ctx.signal), file.rel));
  },
});

/** The five LSP tools in the order the model sees them (after the workspace tools). */
export const LSP_TOOLS = [lspDefinitionTool, lspReferencesTool, lspDocumentSymbolsTool, lspHoverTool, lspDiagnosticsTool] as const;

/**
 * "N errors, M warnings in <scope>" and one line per diagnostic, errors first; hints (the
 * server's suggestions) are counted, not listed.
 */
export function formatDiagnostics(list: readonly DiagnosticInfo[], scope: string): string {
  const rank = { error: 0, warning: 1, info: 2, hint: 3 } as const;
  const shown = list.filter((d) => d.severity !== 'hint').sort((a, b) => rank[a.severity] - rank[b.severity] || a.path.localeCompare(b.path) || a.line - b.line);
  const hints = list.length - shown.length;
  const hintNote = hints > 0 ? ` (${plural(hints, 'hint')} not listed)` : '';
  if (shown.length === 0) return `No errors or warnings in ${scope}${hintNote}.`;
  const count = (s: DiagnosticInfo['severity']) => shown.filter((d) => d.severity === s).length;
  const head = `${plural(count('error'), 'error')}, ${plural(count('warning'), 'warning')}${count('info') ? `, ${count('info')} info` : ''} in ${scope}${hintNote}:`;
  const lines = shown.slice(0, LSP_MAX_DIAGNOSTICS).map((d) => {
    const origin = d.source === 'typescript' ? 'TS' : d.source ? `${d.source}:` : '';
    const code = d.code ? ` ${origin}${d.code}` : '';
    return `${d.path}:${d.line}:${d.column}: ${d.severity}${code}: ${d.message.replace(/\n/g, '\n    ')}`;
  });
  const more = shown.length > LSP_MAX_DIAGNOSTICS ? `\n[${shown.length - LSP_MAX_DIAGNOSTICS} more not shown]` : '';
  return `${head}\n${lines.join('\n')}${more}`;
}

/**
 * `path:line:column: source line` per location. The line's text is shown only for workspace
 * files the model may read (not ignored, not outside), each file read once.
 */
async function renderLocations(ctx: ToolContext, locations: readonly CodeLocation[]): Promise<string[]> {
  const texts = new Map<string, string[] | undefined>();
  const out: string[] = [];
  for (const l of locations) {
    const span = l.endLine > l.line ? ` (to line ${l.endLine})` : '';
    if (l.outside) {
      out.push(`${l.path}:${l.line}:${l.column}${span} (outside the workspace)`);
      continue;
    }
    if (!texts.has(l.path)) texts.set(l.path, await readLines(ctx, l.path));
    const line = texts.get(l.path)?.[l.line - 1]?.trim();
    out.push(`${l.path}:${l.line}:${l.column}${span}${line ? `: ${clip(line)}` : ''}`);
  }
  return out;
}

async function readLines(ctx: ToolContext, path: string): Promise<string[] | undefined> {
  const where = await confinePath(ctx, path, 'read');
  if (!where.ok) return undefined;
  const stat = await ctx.workspace.stat(where.rel);
  if (stat?.kind !== 'file' || stat.size > READ_FILE_MAX_BYTES) return undefined;
  return (await ctx.workspace.readText(where.rel)).split('\n');
}

function clip(text: string): string {
  return text.length > MAX_LINE_CHARS ? `${text.slice(0, MAX_LINE_CHARS)}…` : text;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
