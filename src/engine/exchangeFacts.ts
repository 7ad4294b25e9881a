import type { Exchange } from './exchange';
import type { ExchangeFacts } from './narrative';
import { fileEditedBy } from './toolOutput';

const NEXT_STEP = /\b(next|then I'll|I'll|I will|let me|now I need to|todo)\b/i;

/** Files an exchange changed through edit-like tools. */
export function editedFiles(exchange: Exchange): string[] {
  const files: string[] = [];
  for (const block of exchange.output.content) {
    const path = block.type === 'tool_use' ? fileEditedBy(block) : undefined;
    if (path !== undefined && !files.includes(path)) files.push(path);
  }
  return files;
}

/** True when a tool result of the exchange reported an error. */
export function hadError(exchange: Exchange): boolean {
  return exchange.input.content.some((b) => b.type === 'tool_result' && b.is_error === true);
}

/** The first sentence of the answer that announces what comes next, if any. */
export function nextStepOf(exchange: Exchange): string[] {
  for (const block of exchange.output.content) {
    if (block.type !== 'text') continue;
    const sentences = block.text.slice(0, 4_000).split(/(?<=[.!?])\s+|\n+/);
    const found = sentences.find((s) => NEXT_STEP.test(s));
    if (found) return [found.trim().slice(0, 160)];
  }
  return [];
}

export function factsOf(exchange: Exchange, header: string, files: string[], symbols: string[]): ExchangeFacts {
  return {
    seq: exchange.seq,
    header,
    files,
    symbols,
    edited: editedFiles(exchange),
    failed: hadError(exchange),
    nextSteps: nextStepOf(exchange),
  };
}
