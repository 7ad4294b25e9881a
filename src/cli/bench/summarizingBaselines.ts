import type { ContentBlock, Message, MessagesRequest } from '../../shared/messages';
import { ExtractiveSummarizer } from '../../engine/extractiveSummarizer';
import { blockText } from '../../engine/blockTokens';
import { fileReadBy, toolCallsOf } from '../../engine/toolOutput';
import type { Tokenizer } from '../../engine/ports';
import type { BaselineContext } from './baselines';
import type { Strategy, StrategyTurn } from './strategy';
import { markLastTwoUserMessages, mergeSameRole, repairPairs, systemBlocks } from './strategy';

const CLINE_FILE_NOTICE = '[[NOTE] This file read has been removed to save space in the context window. Refer to the latest file read for the most up to date version of this file.]';
const CLINE_TRUNCATION_NOTICE = '[NOTE] Some previous conversation history with the user has been removed to maintain optimal context window length. The initial user task has been retained for continuity, while intermediate conversation history has been removed. Keep this in mind as you continue assisting the user.';

/**
 * `cline`: Cline's ContextManager. When the previous request passed the window's allowance
 * (window - 40k for a 200k window, else the larger of window - 40k and 80%), older reads of a
 * file read again become a notice; if that saved under 30%, half (a quarter when far over) of
 * the middle is dropped, keeping the first user/assistant pair, with a truncation notice.
 */
export class ClineContextManager implements Strategy {
  readonly name = 'cline';
  private deletedUpTo = 2;
  private truncated = false;
  private readsOptimised = false;
  private previousTokens = 0;
  constructor(private readonly ctx: BaselineContext) {}

  async turn(history: readonly Message[]): Promise<StrategyTurn> {
    const allowed = this.ctx.window === 200_000 ? this.ctx.window - 40_000 : Math.max(this.ctx.window - 40_000, this.ctx.window * 0.8);
    if (this.previousTokens >= allowed) {
      const before = this.ctx.counter.messages(this.view(history));
      this.readsOptimised = true;
      const after = this.ctx.counter.messages(this.view(history));
      if (before - after < before * 0.3) {
        const middle = history.length - this.deletedUpTo;
        const fraction = this.previousTokens / 2 > allowed ? 0.75 : 0.5;
        this.deletedUpTo += Math.floor((middle * fraction) / 2) * 2;
        this.truncated = true;
      }
    }
    const messages = markLastTwoUserMessages(repairPairs(this.view(history)));
    const request: MessagesRequest = { system: systemBlocks(this.ctx.system, true), messages, tools: [] };
    this.previousTokens = this.ctx.counter.messages(messages);
    return { request, extraOutputTokens: 0, sideCalls: [] };
  }

  private view(history: readonly Message[]): Message[] {
    let kept = [history[0]!, ...(history[1] ? [history[1]] : []), ...history.slice(Math.min(this.deletedUpTo, history.length - 1))];
    if (this.truncated && kept[1]) kept[1] = { ...kept[1], content: [...kept[1].content, { type: 'text', text: CLINE_TRUNCATION_NOTICE }] };
    if (this.readsOptimised) kept = replaceOlderFileReads(kept);
    return mergeSameRole(kept);
  }
}

/** Every read of a file but the latest becomes Cline's notice. */
function replaceOlderFileReads(messages: Message[]): Message[] {
  const latest = new Map<string, string>();
  const readOf = new Map<string, string>();
  for (let i = 1; i < messages.length; i++) {
    const calls = toolCallsOf(messages[i - 1]);
    for (const b of messages[i]!.content) {
      if (b.type !== 'tool_result') continue;
      const path = fileReadBy(calls.get(b.tool_use_id));
      if (path) {
        latest.set(path, b.tool_use_id);
        readOf.set(b.tool_use_id, path);
      }
    }
  }
  return messages.map((m) => ({
    ...m,
    content: m.content.map((b): ContentBlock => {
      if (b.type !== 'tool_result') return b;
      const path = readOf.get(b.tool_use_id);
      return path && latest.get(path) !== b.tool_use_id ? { type: 'tool_result', tool_use_id: b.tool_use_id, content: CLINE_FILE_NOTICE } : b;
    }),
  }));
}

/**
 * `condense`: Roo/Kilo Code's condensing. At 80% of the window, everything but the first message
 * and the last 3 becomes one summary message, written by the extractive summariser Strata falls
 * back on but billed as a model call (its input plus its output).
 */
export class RooCondense implements Strategy {
  readonly name = 'condense';
  private summary?: { text: string; resumeAt: number };
  private readonly summarizer: ExtractiveSummarizer;
  constructor(
    private readonly ctx: BaselineContext,
    tokenizer: Tokenizer,
    private readonly percent = 80,
  ) {
    this.summarizer = new ExtractiveSummarizer(tokenizer);
  }

  async turn(history: readonly Message[]): Promise<StrategyTurn> {
    const sideCalls = [];
    let view = this.view(history);
    if (this.ctx.counter.messages(view) > (this.percent / 100) * this.ctx.window && view.length > 5) {
      let resumeAt = Math.max(1, history.length - 3);
      while (resumeAt < history.length - 1 && history[resumeAt]!.role !== 'user') resumeAt += 1;
      const toSummarise = view.slice(1, view.length - (history.length - resumeAt));
      const text = toSummarise.map((m) => `${m.role}: ${m.content.map(blockText).join('\n')}`).join('\n\n');
      const request: MessagesRequest = {
        system: [{ type: 'text', text: 'Summarize the conversation so far so the task can continue: the task, decisions, files changed, errors, next steps.' }],
        messages: [{ role: 'user', content: [{ type: 'text', text }] }],
        tools: [],
      };
      const result = await this.summarizer.summarize({ request, maxOutputTokens: 4_000 });
      sideCalls.push({ request, outputTokens: result.outputTokens });
      this.summary = { text: result.text, resumeAt };
      view = this.view(history);
    }
    const messages = markLastTwoUserMessages(repairPairs(view));
    return { request: { system: systemBlocks(this.ctx.system, true), messages, tools: [] }, extraOutputTokens: 0, sideCalls };
  }

  private view(history: readonly Message[]): Message[] {
    if (!this.summary) return [...history];
    const summaryMessage: Message = { role: 'assistant', content: [{ type: 'text', text: `## Conversation summary\n${this.summary.text}` }] };
    return mergeSameRole([history[0]!, summaryMessage, ...history.slice(this.summary.resumeAt)]);
  }
}
