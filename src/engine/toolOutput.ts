import type { Message, ToolResultBlock, ToolUseBlock } from '../shared/messages';
import { toolResultText } from '../shared/messages';
import { normalizeLog } from './text/normalizeLog';
import { truncateChars, truncateHeadTail } from './text/truncateHeadTail';

/** Tools whose output is file content (kept up to `codeMaxLines`), by lower-cased name. */
const FILE_READ_TOOLS = new Set(['read', 'view', 'read_file', 'cat', 'notebookread']);

/** Tools that change a file, by lower-cased name (Claude Code, Cline, Roo, Strata's own, the Anthropic text editor tool). */
const EDIT_TOOLS = new Set(['edit', 'multiedit', 'write', 'create', 'write_file', 'edit_file', 'notebookedit', 'apply_patch', 'str_replace_editor', 'str_replace_based_edit_tool']);

/**
 * Anthropic's text editor tools, one tool for every file operation: the input's `command` says
 * which (`view` reads; `create`, `str_replace`, `insert`, `undo_edit` change the file) and is no
 * shell command.
 */
const TEXT_EDITOR_TOOLS = new Set(['str_replace_editor', 'str_replace_based_edit_tool']);

/** True for a tool that writes or edits a file. */
export function isEditTool(name: string): boolean {
  return EDIT_TOOLS.has(name.toLowerCase());
}

/** The `view` command of a text editor tool: a read, though the tool is an edit tool by name. */
function isEditorView(call: ToolCall): boolean {
  return TEXT_EDITOR_TOOLS.has(call.name.toLowerCase()) && (call.input as { command?: unknown } | null)?.command === 'view';
}

/** True for a call that writes or edits a file (a text editor's `view` does not). */
export function isEditCall(call: ToolCall): boolean {
  return isEditTool(call.name) && !isEditorView(call);
}

/** The shell command a call runs: a `command` string, except a text editor's, which names its operation. */
export function shellCommandOf(call: ToolCall): string | undefined {
  if (TEXT_EDITOR_TOOLS.has(call.name.toLowerCase())) return undefined;
  const command = (call.input as { command?: unknown } | null)?.command;
  return typeof command === 'string' ? command : undefined;
}

/**
 * The file a file tool's input names: `file_path` (Claude Code), `path` (Cline, Roo, Strata, the
 * Anthropic text editor tool) or `notebook_path` (notebook tools); undefined when none is a string.
 */
export function filePathIn(input: unknown): string | undefined {
  const fields = (input ?? {}) as Record<string, unknown>;
  const path = fields.file_path ?? fields.path ?? fields.notebook_path;
  return typeof path === 'string' ? path : undefined;
}

/** The file an edit-like call changes, when the call is one. */
export function fileEditedBy(call: ToolCall | undefined): string | undefined {
  return call && isEditCall(call) ? filePathIn(call.input) : undefined;
}

/** Characters any single tool output may keep in working memory (guards one enormous line). */
const MAX_OUTPUT_CHARS = 60_000;

export interface ToolCall {
  name: string;
  input: unknown;
}

/** The file a tool call read, when it is a read of one file. */
export function fileReadBy(call: ToolCall | undefined): string | undefined {
  return call && (FILE_READ_TOOLS.has(call.name.toLowerCase()) || isEditorView(call)) ? filePathIn(call.input) : undefined;
}

/** tool_use id -> call, for the tool_use blocks of an answer. */
export function toolCallsOf(answer: Message | undefined): Map<string, ToolCall> {
  const calls = new Map<string, ToolCall>();
  if (!answer) return calls;
  for (const block of answer.content) {
    if (block.type === 'tool_use') calls.set(block.id, { name: block.name, input: (block as ToolUseBlock).input });
  }
  return calls;
}

/**
 * The working-memory form of a tool output: logs normalised, long outputs cut head+tail with
 * the count of lines cut, except a file read `fileFits` says the budget can hold whole. Pure and
 * deterministic, so the bytes never change once sent.
 */
export function compactToolOutput(text: string, call: ToolCall | undefined, codeMaxLines: number, outputMaxLines: number, fileFits?: (text: string) => boolean): string {
  const isFile = fileReadBy(call) !== undefined;
  const normalized = isFile ? text : normalizeLog(text);
  const whole = isFile && fileFits !== undefined && text.split('\n').length > codeMaxLines && fileFits(text);
  const byLines = whole ? normalized : truncateHeadTail(normalized, isFile ? codeMaxLines : outputMaxLines).text;
  return truncateChars(byLines, MAX_OUTPUT_CHARS).text;
}

/** A copy of `block` whose content is `text` (content becomes a plain string). */
export function withResultText(block: ToolResultBlock, text: string): ToolResultBlock {
  const copy: ToolResultBlock = { type: 'tool_result', tool_use_id: block.tool_use_id, content: text };
  if (block.is_error) copy.is_error = true;
  return copy;
}

/** One-line pointer that replaces a tool output which left the prompt; says how to get it back. */
export function maskedPointer(seq: number, call: ToolCall | undefined, text: string, reason: string): string {
  const what = call ? describeCall(call) : 'tool output';
  return `[${reason}: ${what}${pointerEnd(seq, text)}`;
}

/**
 * Whether `shown` is already a pointer to `original` (whatever its reason). Taken as certain: an
 * output shown whole or trimmed would have to end by stating the original's exact line count and
 * length and this exchange's id.
 */
export function isPointerTo(shown: string, seq: number, original: string): boolean {
  return shown.startsWith('[') && shown.endsWith(pointerEnd(seq, original));
}

function pointerEnd(seq: number, text: string): string {
  const lines = text.length === 0 ? 0 : text.split('\n').length;
  return `, ${lines} lines, ${text.length} chars; request e${seq} full to see it]`;
}

/** Short human description of a call: its name and main argument. */
export function describeCall(call: ToolCall): string {
  const input = (call.input ?? {}) as Record<string, unknown>;
  const main = input.file_path ?? input.path ?? input.command ?? input.pattern ?? input.query ?? input.url;
  if (typeof main !== 'string') return call.name;
  const oneLine = main.replace(/\s+/g, ' ').trim();
  return `${call.name} ${oneLine.length > 80 ? `${oneLine.slice(0, 77)}...` : oneLine}`;
}

export { toolResultText };
