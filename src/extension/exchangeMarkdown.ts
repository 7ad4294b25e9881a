import type { ArchivedSessionInfo } from '../engine/archiveBrowser';
import type { ArchivedExchange } from '../engine/ports';
import { isAddedBlock, isEnvironmentBlock } from '../shared/exchangeText';
import type { ContentBlock, Message } from '../shared/messages';
import { toolResultText } from '../shared/messages';
import { formatTime } from './archiveTreeModel';

/**
 * An archived exchange as Markdown, for the read-only exchange document and the Markdown
 * export: the user's input, the answer, tool calls with their input as JSON, tool results as
 * code, mentions Strata added as code; the turn environment block is left out. Thinking is not shown, only marked.
 * Pure; no `vscode` import.
 */
export function exchangeMarkdown(exchange: ArchivedExchange, level = 1): string {
  const h = '#'.repeat(level);
  const parts = [
    `${h} ${exchange.header.startsWith(`e${exchange.seq} `) ? exchange.header : `e${exchange.seq} · ${exchange.header}`}`,
    `_${formatTime(exchange.createdAt)} · session ${exchange.sessionId} · ${exchange.tokens} tokens${exchange.supersededBy !== undefined ? ` · superseded by e${exchange.supersededBy} (an edited, resent message)` : ''}_`,
    quote(exchange.summary),
  ];
  for (const message of exchange.full) parts.push(`${h}# ${message.role === 'user' ? 'User' : 'Assistant'}`, messageMarkdown(message));
  return `${parts.filter((p) => p !== '').join('\n\n')}\n`;
}

/** A whole session: a title, its span, then every exchange one level down. */
export function sessionMarkdown(session: ArchivedSessionInfo, exchanges: ArchivedExchange[]): string {
  const head = [
    `# ${session.title || `Session ${session.id}`}`,
    `_Session ${session.id} · ${formatTime(session.firstAt)} – ${formatTime(session.lastAt)} · ${exchanges.length} exchange${exchanges.length === 1 ? '' : 's'}_`,
  ].join('\n\n');
  return [head, ...exchanges.map((e) => exchangeMarkdown(e, 2).trimEnd())].join('\n\n') + '\n';
}

function messageMarkdown(message: Message): string {
  const parts = message.content.map(blockMarkdown).filter((p) => p !== '');
  return parts.length > 0 ? parts.join('\n\n') : '_(empty)_';
}

function blockMarkdown(block: ContentBlock): string {
  switch (block.type) {
    case 'text':
      if (isEnvironmentBlock(block.text)) return ''; // the turn's time and open files: noise when reading the exchange
      return isAddedBlock(block.text) ? `**Added by Strata:**\n\n${fenced(block.text, 'xml')}` : block.text.trim();
    case 'tool_use':
      return `**Tool call** \`${block.name}\` (${block.id})\n\n${fenced(JSON.stringify(block.input ?? null, null, 2), 'json')}`;
    case 'tool_result':
      return `**Tool result** (${block.tool_use_id})${block.is_error ? ' **error**' : ''}\n\n${fenced(toolResultText(block), 'text')}`;
    case 'thinking':
      return `_(thinking omitted: ${block.thinking.length} characters)_`;
    case 'redacted_thinking':
      return '_(redacted thinking omitted)_';
  }
}

/** `text` in a code fence longer than any backtick run inside it, so the fence cannot close early. */
export function fenced(text: string, language: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${language}\n${text.replace(/\n+$/, '')}\n${fence}`;
}

function quote(text: string): string {
  const trimmed = text.trim();
  return trimmed === '' ? '' : trimmed.split('\n').map((l) => `> ${l}`).join('\n');
}
