import { ContextEngine } from '../../src/engine/contextEngine';
import { ExtractiveSummarizer } from '../../src/engine/extractiveSummarizer';
import type { ArchiveStore, Summarizer } from '../../src/engine/ports';
import { steppingClock } from '../../src/adapters/systemClock';
import type { EngineSettings } from '../../src/shared/engineSettings';
import { resolveEngineSettings } from '../../src/shared/engineSettings';
import type { ContentBlock, MessagesRequest } from '../../src/shared/messages';
import { assistant, charTokenizer, silentLogger, user } from './engineHarness';

/** An engine over `archive` whose logger keeps the errors it was told. */
export function engineOver(archive: ArchiveStore, settings: Partial<EngineSettings> = {}, summarizer: Summarizer = new ExtractiveSummarizer(charTokenizer), workspaceRoot?: string) {
  const errors: string[] = [];
  const engine = new ContextEngine({
    sessionId: 's1',
    settings: resolveEngineSettings(settings),
    tokenizer: charTokenizer,
    archive,
    summarizer,
    clock: steppingClock(Date.UTC(2025, 0, 1, 9, 0, 0), 60_000),
    logger: { ...silentLogger, error: (m: string) => errors.push(m) },
    systemPrompt: 'You are a test agent.',
    validateRequests: true,
    ...(workspaceRoot ? { workspaceRoot } : {}),
  });
  return { engine, errors };
}

/** One whole exchange: `input` in, an assembled request, `answer` out. */
export async function exchange(engine: ContextEngine, input: ContentBlock[], answer: ContentBlock[], userMessage = true) {
  engine.beginExchange(user(...input), { userMessage });
  const turn = await engine.assemble();
  engine.completeExchange(assistant(...answer));
  return turn;
}

export const lastInput = (request: MessagesRequest) => request.messages[request.messages.length - 1]!.content;
