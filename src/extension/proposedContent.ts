import { z } from 'zod';
import { applyEditBlocks } from '../task/tools/applyEditBlocks';

const writeInput = z.object({ path: z.string().min(1), content: z.string() });
const editInput = z.object({ path: z.string().min(1), edits: z.array(z.object({ search: z.string(), replace: z.string() })).min(1) });

/** The workspace path a pending write or edit would change; undefined for tools with nothing to diff (commands). */
export function diffTarget(tool: string, input: unknown): string | undefined {
  if (tool === 'write_file') return writeInput.safeParse(input).data?.path;
  if (tool === 'edit_file') return editInput.safeParse(input).data?.path;
  return undefined;
}

/**
 * What the file would hold if the pending `write_file` / `edit_file` were approved, from its
 * current text (`undefined`: no such file yet), computed as the tool itself will: whole
 * content, or the search/replace blocks applied all-or-nothing. Pure: no `vscode`, no disk.
 */
export function proposedContent(tool: string, input: unknown, current: string | undefined): { ok: true; text: string } | { ok: false; message: string } {
  if (tool === 'write_file') {
    const parsed = writeInput.safeParse(input);
    return parsed.success ? { ok: true, text: parsed.data.content } : { ok: false, message: 'The write_file call has no path or content to show.' };
  }
  if (tool === 'edit_file') {
    const parsed = editInput.safeParse(input);
    if (!parsed.success) return { ok: false, message: 'The edit_file call has no path or edit blocks to show.' };
    if (current === undefined) return { ok: false, message: `${parsed.data.path} does not exist, so the edit would fail; reject it and ask for write_file.` };
    const edited = applyEditBlocks(current, parsed.data.edits);
    if (!edited.ok) return { ok: false, message: `The edit would not apply to ${parsed.data.path} as it is now:\n${edited.problems.join('\n')}` };
    return { ok: true, text: edited.text };
  }
  return { ok: false, message: `${tool} does not change a file, so there is no diff to show.` };
}
