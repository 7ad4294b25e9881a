/**
 * VS Code's language-feature answers turned into the language port's plain data. The shapes are
 * declared structurally (no `vscode` import), so these run and are tested in plain Node; they
 * differ from LSP's wire shapes only where VS Code's API does: `Uri` objects, 0-based symbol kinds
 * and severities, `MarkdownString` hovers, and codes that may carry a link.
 */
import { z } from 'zod';
import { toCodeLocation, toDiagnosticInfo, toHoverText, toSymbolInfos, type UriToPath } from '../adapters/lspConversions';
import type { CodeLocation, DiagnosticInfo, DocumentSymbolInfo } from '../task/languagePort';

interface EditorPosition {
  line: number;
  character: number;
}
interface EditorRange {
  start: EditorPosition;
  end: EditorPosition;
}
interface EditorUri {
  toString(): string;
}
export interface EditorLocation {
  uri: EditorUri;
  range: EditorRange;
}
export interface EditorLocationLink {
  targetUri: EditorUri;
  targetRange: EditorRange;
  targetSelectionRange?: EditorRange;
}
export interface EditorDocumentSymbol {
  name: string;
  detail: string;
  /** `vscode.SymbolKind`: LSP's kind minus one. */
  kind: number;
  range: EditorRange;
  children: EditorDocumentSymbol[];
}
export interface EditorSymbolInformation {
  name: string;
  kind: number;
  location: EditorLocation;
  containerName: string;
}
/** `MarkdownString` (value only) or the deprecated `MarkedString`. */
type EditorHoverPart = string | { value: string; language?: string };
export interface EditorHover {
  contents: EditorHoverPart[];
}
export interface EditorDiagnostic {
  range: EditorRange;
  /** `vscode.DiagnosticSeverity`: LSP's severity minus one. */
  severity: number;
  message: string;
  source?: string;
  code?: string | number | { value: string | number };
}

export function fromEditorLocations(list: ReadonlyArray<EditorLocation | EditorLocationLink> | undefined, toPath: UriToPath): CodeLocation[] {
  return (list ?? []).map((l) =>
    'targetUri' in l
      ? toCodeLocation({ targetUri: l.targetUri.toString(), targetRange: l.targetRange, targetSelectionRange: l.targetSelectionRange ?? l.targetRange }, toPath)
      : toCodeLocation({ uri: l.uri.toString(), range: l.range }, toPath),
  );
}

export function fromEditorSymbols(list: ReadonlyArray<EditorDocumentSymbol | EditorSymbolInformation> | undefined): DocumentSymbolInfo[] {
  const wire = (s: EditorDocumentSymbol | EditorSymbolInformation): Parameters<typeof toSymbolInfos>[0][number] =>
    'location' in s
      ? { name: s.name, kind: s.kind + 1, location: { uri: s.location.uri.toString(), range: s.location.range }, ...(s.containerName ? { containerName: s.containerName } : {}) }
      : { name: s.name, kind: s.kind + 1, ...(s.detail ? { detail: s.detail } : {}), range: s.range, children: s.children.map(wire) as EditorDocumentSymbolWire[] };
  return toSymbolInfos((list ?? []).map(wire));
}
type EditorDocumentSymbolWire = Extract<Parameters<typeof toSymbolInfos>[0][number], { children?: unknown }>;

/** Every provider's hover joined (VS Code returns one per provider), as Markdown. */
export function fromEditorHovers(hovers: readonly EditorHover[] | undefined): string | undefined {
  // A MarkdownString is Markdown as is; a MarkedString with a language is code, fenced by toHoverText.
  const contents = (hovers ?? []).flatMap((h) => h.contents.map((p) => (typeof p === 'string' ? p : p.language !== undefined ? { language: p.language, value: p.value } : p.value)));
  return toHoverText({ contents });
}

export function fromEditorDiagnostic(where: { path: string }, d: EditorDiagnostic): DiagnosticInfo {
  const code = typeof d.code === 'object' ? d.code.value : d.code;
  return toDiagnosticInfo(where, { range: d.range, severity: d.severity + 1, message: d.message, ...(d.source ? { source: d.source } : {}), ...(code !== undefined ? { code } : {}) });
}

const manifestSchema = z.object({
  contributes: z.object({ languages: z.array(z.object({ extensions: z.array(z.string()).optional() })).optional() }).optional(),
});

/**
 * File extensions (lower case, with the dot) that some installed extension declares a language for:
 * the editor's language features may answer for those files. From `packageJSON`s, untrusted.
 */
export function languageFileExtensions(manifests: readonly unknown[]): Set<string> {
  const out = new Set<string>();
  for (const m of manifests) {
    const parsed = manifestSchema.safeParse(m);
    if (!parsed.success) continue;
    for (const language of parsed.data.contributes?.languages ?? []) for (const ext of language.extensions ?? []) out.add(ext.toLowerCase());
  }
  return out;
}
