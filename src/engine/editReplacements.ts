import type { ToolCall } from './toolOutput';
import { isEditCall } from './toolOutput';

/** One text replacement an edit made: `from` (never empty) became `to`, in its first occurrence or, with `all`, in every one. */
export interface Replacement {
  from: string;
  to: string;
  all: boolean;
}

/**
 * The replacements an edit call made, in order: Claude Code's Edit and MultiEdit (`old_string` /
 * `new_string`, `replace_all`, `edits`), the Anthropic text editor's `str_replace` (`old_str` /
 * `new_str`) and pi's edit (`oldText` / `newText`). Empty for a call that is no edit, writes a
 * whole file, or does not say what it replaced.
 */
export function editReplacements(call: ToolCall): Replacement[] {
  if (!isEditCall(call)) return [];
  const input = (call.input ?? {}) as Record<string, unknown>;
  const edits: unknown[] = Array.isArray(input.edits) ? input.edits : [input];
  return edits.flatMap((edit) => {
    const fields = (edit ?? {}) as Record<string, unknown>;
    const from = fields.old_string ?? fields.old_str ?? fields.oldText;
    const to = fields.new_string ?? fields.new_str ?? fields.newText;
    return typeof from === 'string' && from.length > 0 && typeof to === 'string' ? [{ from, to, all: fields.replace_all === true }] : [];
  });
}

/** `text` with each replacement made where it holds the replaced text (literally: no pattern, no `$` substitution). */
export function applyReplacements(text: string, replacements: readonly Replacement[]): string {
  let out = text;
  for (const { from, to, all } of replacements) {
    if (all) out = out.split(from).join(to);
    else {
      const at = out.indexOf(from);
      if (at >= 0) out = out.slice(0, at) + to + out.slice(at + from.length);
    }
  }
  return out;
}
