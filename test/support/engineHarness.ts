import type { EngineSettings } from '../../src/shared/engineSettings';
import { resolveEngineSettings } from '../../src/shared/engineSettings';
import type { ContentBlock, Message, ToolDefinition } from '../../src/shared/messages';
import { ContextEngine } from '../../src/engine/contextEngine';
import { ExtractiveSummarizer } from '../../src/engine/extractiveSummarizer';
import type { Summarizer, Tokenizer } from '../../src/engine/ports';
import { steppingClock } from '../../src/adapters/systemClock';
import { MemoryArchive } from './memoryArchive';

/** Four characters a token: readable goldens, deterministic, linear. */
export const charTokenizer: Tokenizer = { count: (s) => Math.ceil(s.length / 4), observe: () => undefined, learned: () => false };

export const silentLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };

export function makeEngine(settings: Partial<EngineSettings> = {}, extra: { archive?: MemoryArchive; summarizer?: Summarizer; tools?: ToolDefinition[] } = {}) {
  const archive = extra.archive ?? new MemoryArchive();
  const engine = new ContextEngine({
    sessionId: 's1',
    settings: resolveEngineSettings(settings),
    tokenizer: charTokenizer,
    archive,
    summarizer: extra.summarizer ?? new ExtractiveSummarizer(charTokenizer),
    clock: steppingClock(Date.UTC(2025, 0, 1, 9, 0, 0), 60_000),
    logger: silentLogger,
    systemPrompt: 'You are a test agent.',
    validateRequests: true,
    ...(extra.tools ? { tools: extra.tools } : {}),
  });
  return { engine, archive };
}

export const user = (...content: ContentBlock[]): Message => ({ role: 'user', content });
export const assistant = (...content: ContentBlock[]): Message => ({ role: 'assistant', content });
export const text = (t: string): ContentBlock => ({ type: 'text', text: t });
export const toolUse = (id: string, name: string, input: unknown): ContentBlock => ({ type: 'tool_use', id, name, input });
export const toolResult = (id: string, content: string, isError = false): ContentBlock =>
  isError ? { type: 'tool_result', tool_use_id: id, content, is_error: true } : { type: 'tool_result', tool_use_id: id, content };

/** A coding-agent-like session: the task, then `n` answers each reading or running something. */
export function syntheticSession(n: number, outputLines = 30): Message[] {
  const messages: Message[] = [user(text('Fix the failing parser test in src/parser.ts and keep the API stable.'))];
  for (let i = 1; i <= n; i++) {
    const id = `tu${i}`;
    const call = i % 3 === 0 ? toolUse(id, 'Bash', { command: `npm test -- parser ${i}` }) : toolUse(id, 'Read', { file_path: `src/module${i % 4}.ts` });
    messages.push(assistant(text(`Step ${i}: I'll look at the next piece.`), call));
    const body = Array.from({ length: outputLines }, (_, l) => `line ${l} of output ${i}: const value${l} = compute(${i}, ${l});`).join('\n');
    messages.push(user(toolResult(id, body)));
  }
  return messages;
}

/** Drives an engine through `messages`, returning every assembled turn. */
export async function drive(engine: ContextEngine, messages: Message[]) {
  const turns = [];
  for (const m of messages) {
    if (m.role === 'user') engine.beginExchange(m);
    else {
      turns.push(await engine.assemble());
      engine.completeExchange(m);
    }
  }
  return turns;
}
