import type { ChatItem } from '../chatState';
import { toolTarget } from '../chat/toolTarget';

type Tool = Extract<ChatItem, { kind: 'tool' }>;

/** Codicon per tool; a tool not listed shows the generic one. */
const ICONS: Readonly<Record<string, string>> = {
  read_file: 'file',
  write_file: 'new-file',
  edit_file: 'edit',
  execute_command: 'terminal',
  search_files: 'search',
  list_files: 'list-tree',
  list_definitions: 'symbol-class',
  recall: 'history',
};

/** A tool call: collapsed to one line naming its target and state; open, its input and result. */
export function ToolRow({ item }: { item: Tool }) {
  const done = item.result ? (item.result.isError ? 'error' : 'ok') : 'running';
  const icon = ICONS[item.name] ?? (item.name.startsWith('lsp_') ? 'symbol-method' : 'tools');
  const target = toolTarget(item.name, item.input);
  const state = done === 'running' ? 'loading codicon-modifier-spin' : done === 'ok' ? 'check' : 'error';
  return (
    <details className={`msg tool${item.result?.isError ? ' failed' : ''}`} data-testid="tool-row" data-tool={item.name} data-done={done}>
      <summary title={target}>
        <span className="codicon codicon-chevron-right tool-chevron" aria-hidden="true" />
        <span className={`codicon codicon-${icon}`} aria-hidden="true" />
        <span className="tool-target" data-testid="tool-target">{target}</span>
        <span className={`tool-state codicon codicon-${state}`} aria-label={done === 'running' ? 'running' : done === 'ok' ? 'done' : 'failed'} />
      </summary>
      <pre>{JSON.stringify(item.input, null, 2)}</pre>
      {item.result && <pre>{item.result.text}</pre>}
    </details>
  );
}
