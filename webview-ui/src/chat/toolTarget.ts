/**
 * The one-line title of a collapsed tool row: the tool and what it acts on
 * (`read_file src/a.ts:1-40`, `$ npm test`, `search_files "pattern" in src`). Pure.
 * The input is the model's, unchecked here: a field of the wrong type is left out, never thrown on.
 */
export function toolTarget(name: string, input: unknown): string {
  const o = typeof input === 'object' && input !== null ? (input as Record<string, unknown>) : {};
  const str = (key: string) => (typeof o[key] === 'string' && o[key] !== '' ? clip(o[key]) : undefined);
  const num = (key: string) => (typeof o[key] === 'number' && Number.isFinite(o[key]) ? o[key] : undefined);
  const path = str('path');
  switch (name) {
    case 'execute_command': {
      const command = str('command');
      if (!command) return name;
      const cwd = str('cwd');
      return `$ ${command}${cwd && cwd !== '.' ? ` (in ${cwd})` : ''}`;
    }
    case 'read_file': {
      if (!path) return name;
      const start = num('start_line');
      const end = num('end_line');
      const range = start === undefined && end === undefined ? '' : `:${start ?? 1}-${end ?? 'end'}`;
      return `${name} ${path}${range}`;
    }
    case 'search_files': {
      const regex = str('regex');
      if (!regex) return name;
      const where = path && path !== '.' ? ` in ${path}` : '';
      const files = str('file_pattern');
      return `${name} "${regex}"${where}${files ? ` (${files})` : ''}`;
    }
    case 'edit_file': {
      if (!path) return name;
      const edits = Array.isArray(o.edits) ? o.edits.length : 0;
      return `${name} ${path}${edits > 1 ? ` (${edits} blocks)` : ''}`;
    }
    case 'list_files':
      return `${name} ${path ?? '.'}${o.recursive === true ? ' (recursive)' : ''}`;
    case 'lsp_hover':
    case 'lsp_definition':
    case 'lsp_references': {
      if (!path) return name;
      const line = num('line');
      const symbol = str('symbol');
      return `${name} ${path}${line !== undefined ? `:${line}` : ''}${symbol ? ` ${symbol}` : ''}`;
    }
    case 'recall': {
      const ids = Array.isArray(o.ids) ? o.ids.filter((i): i is string => typeof i === 'string') : [];
      if (ids.length > 0) return `${name} ${clip(ids.join(', '))}`;
      const query = str('query');
      return query ? `${name} "${query}"` : name;
    }
    default:
      // write_file, list_definitions, lsp_document_symbols, lsp_diagnostics and tools to come: the path, if any.
      return path ? `${name} ${path}` : name;
  }
}

/** Longest target text shown on the row, characters; the whole input is one click away. */
export const TARGET_MAX_CHARS = 80;

function clip(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > TARGET_MAX_CHARS ? `${line.slice(0, TARGET_MAX_CHARS - 1)}…` : line;
}
