import { z } from 'zod';
import type { LanguageService } from '../languagePort';
import { confinePath } from './confinePath';
import { READ_FILE_MAX_BYTES } from './readFile';
import type { ToolContext } from './tool';

/** Input of the LSP tools that point at a symbol: models give names reliably, columns badly. */
export const symbolPositionInput = z
  .object({
    path: z.string().min(1).describe('File path, relative to the workspace root.'),
    line: z.number().int().min(1).describe('1-based line the symbol is on.'),
    symbol: z.string().min(1).optional().describe('The symbol as written on that line, e.g. "parseArgs" or "config.load" (preferred: the tool finds its column).'),
    column: z.number().int().min(1).optional().describe('1-based column of the symbol, only if you know it exactly; ignored when symbol is given.'),
  })
  .refine((v) => v.symbol !== undefined || v.column !== undefined, { message: 'give symbol (its name as written on that line) or column', path: ['symbol'] });

export type SymbolPositionInput = z.output<typeof symbolPositionInput>;

export type LspFile = { ok: true; rel: string; language: LanguageService } | { ok: false; message: string };

/**
 * Confines `path`, checks it is a file a language server handles, and hands back the service.
 * Refusals say what the model can do instead.
 */
export async function lspFile(ctx: ToolContext, path: string): Promise<LspFile> {
  const language = ctx.language;
  if (!language) return { ok: false, message: 'No language server runs in this session; use list_definitions, search_files and read_file instead.' };
  const where = await confinePath(ctx, path, 'read');
  if (!where.ok) return where;
  const stat = await ctx.workspace.stat(where.rel);
  if (!stat) return { ok: false, message: `No file at '${path}'. Use list_files to see what exists.` };
  if (stat.kind !== 'file') return { ok: false, message: `'${path}' is a folder, not a file.` };
  if (!language.supports(where.rel)) {
    const type = /\.[^./]+$/.exec(where.rel)?.[0] ?? 'extension-less';
    return { ok: false, message: `No language server handles ${type} files here, so '${path}' has no definitions, references or diagnostics to ask for; use search_files and read_file instead.` };
  }
  if (stat.size > READ_FILE_MAX_BYTES) return { ok: false, message: `'${path}' is over ${READ_FILE_MAX_BYTES / 1024 / 1024} MB; the LSP tools skip files that large. Use search_files.` };
  return { ok: true, rel: where.rel, language };
}

export type ResolvedPosition = { ok: true; line: number; column: number; label: string } | { ok: false; message: string };

/** Characters that continue an identifier (JS's, and most languages'). */
const WORD = /[\p{L}\p{N}_$]/u;

/**
 * The 1-based column of `symbol` on `line`: its first whole-word occurrence (else its first
 * occurrence). For a dotted name (`config.load`) the column of its last part, the member asked
 * about. Without a symbol, the given column, checked against the line's length.
 */
export function resolveColumn(text: string, path: string, v: SymbolPositionInput): ResolvedPosition {
  const lines = text.split('\n');
  const lineText = lines[v.line - 1]?.replace(/\r$/, '');
  if (lineText === undefined) return { ok: false, message: `'${path}' has ${lines.length} lines; line ${v.line} is past its end.` };
  if (v.symbol === undefined) {
    const column = v.column ?? 1;
    if (column > lineText.length + 1) return { ok: false, message: `Line ${v.line} of '${path}' has ${lineText.length} characters; column ${column} is past its end. Give symbol instead of column. The line: ${lineText.trim()}` };
    return { ok: true, line: v.line, column, label: `${path}:${v.line}:${column}` };
  }
  const symbol = v.symbol.trim();
  const at = wholeWordIndex(lineText, symbol) ?? (lineText.includes(symbol) ? lineText.indexOf(symbol) : undefined);
  if (at === undefined) {
    return { ok: false, message: `'${symbol}' is not on line ${v.line} of '${path}'. The line reads: ${lineText.trim().slice(0, 300)}\nCheck the line number (read_file shows numbered lines) or the spelling.` };
  }
  const lastDot = symbol.lastIndexOf('.');
  const column = at + (lastDot >= 0 && lastDot < symbol.length - 1 ? lastDot + 1 : 0) + 1;
  return { ok: true, line: v.line, column, label: `'${symbol}' at ${path}:${v.line}:${column}` };
}

function wholeWordIndex(line: string, symbol: string): number | undefined {
  for (let i = line.indexOf(symbol); i >= 0; i = line.indexOf(symbol, i + 1)) {
    const before = line[i - 1];
    const after = line[i + symbol.length];
    if ((before === undefined || !WORD.test(before)) && (after === undefined || !WORD.test(after))) return i;
  }
  return undefined;
}
