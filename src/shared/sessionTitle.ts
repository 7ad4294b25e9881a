import type { Message } from './messages';

/** Characters of a session title; longer queries are cut with an ellipsis. */
export const TITLE_CHARS = 80;

/**
 * A one-line title from a user's query text: Cline's `<task>` wrapper is unwrapped, Claude
 * Code's `<command-name>` kept as the command, other markup tags and extra blank space removed.
 * Undefined when nothing readable is left.
 */
export function titleFromText(text: string): string | undefined {
  const task = /<task>([\s\S]*?)(?:<\/task>|$)/.exec(text)?.[1];
  const command = /<command-name>([^<]*)<\/command-name>/.exec(text)?.[1];
  const args = /<command-args>([^<]*)<\/command-args>/.exec(text)?.[1];
  const source = task ?? (command !== undefined ? `${command} ${args ?? ''}` : text.replace(/<([a-z_-]+)>[\s\S]*?<\/\1>/g, ' '));
  const line = source.replace(/<\/?[a-z_-]+>/g, ' ').replace(/\s+/g, ' ').trim();
  if (line === '') return undefined;
  return line.length > TITLE_CHARS ? `${line.slice(0, TITLE_CHARS - 1)}…` : line;
}

/** The title of a session: its first user text that gives one (tool results are not queries). */
export function sessionTitle(messages: readonly Message[]): string | undefined {
  for (const message of messages) {
    if (message.role !== 'user') continue;
    for (const block of message.content) {
      const title = block.type === 'text' ? titleFromText(block.text) : undefined;
      if (title !== undefined) return title;
    }
  }
  return undefined;
}
