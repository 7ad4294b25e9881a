/**
 * LSP answers turned into the language port's plain data (1-based lines and columns, workspace
 * paths). The wire shapes are declared here structurally, as the LSP specification gives them,
 * so `vscode-languageserver-protocol` stays imported by one file (`lspLanguageService.ts`).
 */
import type { CodeLocation, DiagnosticInfo, DiagnosticSeverity, DocumentSymbolInfo } from '../task/languagePort';

interface WirePosition {
  line: number;
  character: number;
}
interface WireRange {
  start: WirePosition;
  end: WirePosition;
}
interface WireLocation {
  uri: string;
  range: WireRange;
}
interface WireLocationLink {
  targetUri: string;
  targetRange: WireRange;
  targetSelectionRange: WireRange;
}
interface WireDocumentSymbol {
  name: string;
  detail?: string;
  kind: number;
  range: WireRange;
  children?: WireDocumentSymbol[];
}
interface WireSymbolInformation {
  name: string;
  kind: number;
  location: WireLocation;
  containerName?: string;
}
type WireMarkedString = string | { language: string; value: string };
interface WireHover {
  contents: { kind: string; value: string } | WireMarkedString | WireMarkedString[];
}
interface WireDiagnostic {
  range: WireRange;
  severity?: number;
  code?: number | string;
  source?: string;
  /** Markup since LSP 3.18. */
  message: string | { kind: string; value: string };
}

/** Maps a file URI to the port's path form. */
export type UriToPath = (uri: string) => { path: string; outside: boolean };

/** LSP's SymbolKind numbers (1-based, specification 3.17) in words. */
const SYMBOL_KINDS = [
  'file', 'module', 'namespace', 'package', 'class', 'method', 'property', 'field', 'constructor', 'enum', 'interface', 'function', 'variable',
  'constant', 'string', 'number', 'boolean', 'array', 'object', 'key', 'null', 'enum member', 'struct', 'event', 'operator', 'type parameter',
];

const SEVERITIES: Record<number, DiagnosticSeverity> = { 1: 'error', 2: 'warning', 3: 'info', 4: 'hint' };

export function toCodeLocation(l: WireLocation | WireLocationLink, toPath: UriToPath): CodeLocation {
  // A link's selection range is the symbol's name; its target range spans the whole declaration.
  const [uri, range, span] = 'targetUri' in l ? [l.targetUri, l.targetSelectionRange, l.targetRange] : [l.uri, l.range, l.range];
  return { ...toPath(uri), line: range.start.line + 1, column: range.start.character + 1, endLine: span.end.line + 1, endColumn: span.end.character + 1 };
}

/** The outline in file order (a TypeScript server sorts each level by name). */
export function toSymbolInfos(list: readonly (WireDocumentSymbol | WireSymbolInformation)[]): DocumentSymbolInfo[] {
  return list.map(toSymbolInfo).sort((a, b) => a.line - b.line);
}

function toSymbolInfo(s: WireDocumentSymbol | WireSymbolInformation): DocumentSymbolInfo {
  if ('location' in s) {
    const { range } = s.location;
    return { name: s.name, kind: symbolKind(s.kind), ...(s.containerName ? { detail: `in ${s.containerName}` } : {}), line: range.start.line + 1, endLine: range.end.line + 1, children: [] };
  }
  return {
    name: s.name,
    kind: symbolKind(s.kind),
    ...(s.detail ? { detail: s.detail } : {}),
    line: s.range.start.line + 1,
    endLine: s.range.end.line + 1,
    children: toSymbolInfos(s.children ?? []),
  };
}

function symbolKind(kind: number): string {
  return SYMBOL_KINDS[kind - 1] ?? `kind ${kind}`;
}

/** Hover contents as Markdown: code blocks fenced with their language, parts separated by a blank line. */
export function toHoverText(hover: WireHover): string | undefined {
  const parts = Array.isArray(hover.contents) ? hover.contents : [hover.contents];
  const text = parts
    .map((p) => {
      if (typeof p === 'string') return p;
      if ('kind' in p) return p.value;
      return `\`\`\`${p.language}\n${p.value}\n\`\`\``;
    })
    .filter((p) => p.trim() !== '')
    .join('\n\n')
    .trim();
  return text === '' ? undefined : text;
}

export function toDiagnosticInfo(where: { path: string }, d: WireDiagnostic): DiagnosticInfo {
  return {
    path: where.path,
    line: d.range.start.line + 1,
    column: d.range.start.character + 1,
    severity: SEVERITIES[d.severity ?? 1] ?? 'error',
    message: typeof d.message === 'string' ? d.message : d.message.value,
    ...(d.source ? { source: d.source } : {}),
    ...(d.code !== undefined ? { code: String(d.code) } : {}),
  };
}
