import type { Logger } from '../engine/ports';
import type { ContentBlock, Message } from '../shared/messages';
import type { Redact } from './secretRedactor';

/**
 * A user-role message with every text it carries redacted: the user's words, mentions, the
 * environment block, tool results. The one door into the engine (and so into the archive, the
 * request, a recording); thinking blocks and tool calls belong to answers and are left as sent.
 */
export function redactMessage(message: Message, redact: Redact): Message {
  return { ...message, content: message.content.map((block) => redactBlock(block, redact)) };
}

function redactBlock(block: ContentBlock, redact: Redact): ContentBlock {
  if (block.type === 'text') return { ...block, text: redact(block.text) };
  if (block.type !== 'tool_result') return block;
  const content = typeof block.content === 'string' ? redact(block.content) : block.content.map((b) => ({ ...b, text: redact(b.text) }));
  return { ...block, content };
}

/** A logger that redacts each line first: a warning may quote a path, a command or a server's message. */
export function redactingLogger(logger: Logger, redact: Redact): Logger {
  return {
    info: (m) => logger.info(redact(m)),
    warn: (m) => logger.warn(redact(m)),
    error: (m) => logger.error(redact(m)),
  };
}
