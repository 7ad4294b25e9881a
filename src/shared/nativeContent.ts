import type { ContentBlock } from './messages';
import { contentBlockSchema } from './sessionSchema';

/** Block types Strata keeps as they are; anything else becomes a reported placeholder. */
const KEPT = new Set(['text', 'tool_use', 'tool_result', 'thinking', 'redacted_thinking']);

/**
 * Converts the `content` of an Anthropic message as another agent stored it (a string, or raw
 * blocks) into Strata's blocks. Nothing is dropped unsaid: an image becomes `[image: <media
 * type>, not imported]`, an unknown block `[unsupported block: <type>]`, a thinking block without
 * its signature a placeholder (it could never be sent back), a malformed block is left out; each
 * adds one problem naming `where` (file:line). Undefined when `content` is neither form.
 */
export function nativeContent(content: unknown, where: string, problems: string[]): ContentBlock[] | undefined {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  if (!Array.isArray(content)) return undefined;
  const blocks: ContentBlock[] = [];
  content.forEach((raw: unknown, index) => {
    const at = `${where}: block ${index + 1}`;
    const type = typeOf(raw);
    if (type === 'image') {
      problems.push(`${at}: image (${mediaType(raw)}) replaced by a placeholder`);
      blocks.push({ type: 'text', text: imagePlaceholder(raw) });
      return;
    }
    const parsed = contentBlockSchema.safeParse(type === 'tool_result' ? withPlaceholderParts(raw, at, problems) : raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      problems.push(`${at}: malformed ${type ?? 'block'} (${issue ? `${issue.path.join('.') || 'block'}: ${issue.message}` : 'unknown shape'}); left out`);
      return;
    }
    if (type !== undefined && !KEPT.has(type)) problems.push(`${at}: unsupported block type '${type}' replaced by a placeholder`);
    else if (type === 'thinking' && parsed.data.type !== 'thinking') problems.push(`${at}: thinking without a signature replaced by a placeholder`);
    blocks.push(parsed.data);
  });
  return blocks;
}

/** A tool result whose parts hold images: those parts become placeholders, reported. */
function withPlaceholderParts(raw: unknown, at: string, problems: string[]): unknown {
  const parts = (raw as { content?: unknown }).content;
  if (!Array.isArray(parts) || !parts.some((p) => typeOf(p) === 'image')) return raw;
  return {
    ...(raw as object),
    content: parts.map((part: unknown) => {
      if (typeOf(part) !== 'image') return part;
      problems.push(`${at}: image (${mediaType(part)}) in a tool result replaced by a placeholder`);
      return { type: 'text', text: imagePlaceholder(part) };
    }),
  };
}

function imagePlaceholder(raw: unknown): string {
  return `[image: ${mediaType(raw)}, not imported]`;
}

function typeOf(raw: unknown): string | undefined {
  const type = typeof raw === 'object' && raw !== null ? (raw as { type?: unknown }).type : undefined;
  return typeof type === 'string' ? type : undefined;
}

function mediaType(raw: unknown): string {
  const media = (raw as { source?: { media_type?: unknown } }).source?.media_type;
  return typeof media === 'string' ? media : 'unknown type';
}
