import type { EngineSettings } from '../../shared/engineSettings';
import type { ContentBlock, Message, MessagesRequest } from '../../shared/messages';
import { toolResultText } from '../../shared/messages';
import type { ParsedSession } from '../../shared/sessionSchema';
import type { ArchiveStore, Logger, Tokenizer } from '../../engine/ports';
import { effectiveBudget, growthCap, SESSION_GROWTH } from '../../engine/engineState';
import { sessionGrowth } from '../../engine/contextPreset';
import { fileShownPart, samePath } from '../../engine/fileViews';
import type { ToolCall } from '../../engine/toolOutput';
import { compactToolOutput, describeCall, isEditCall, toolCallsOf } from '../../engine/toolOutput';
import { replaySession } from '../../host/replaySession';
import { requestText, sessionProbes } from './recall';
import { BlockCounter } from './strategy';

/** Where a missed span's latest source stood when the request was made. */
export type MissWhere =
  /** Its exchange was still in working memory, but the output was cut on arrival (head + tail). */
  | 'cut on arrival'
  /** Its exchange was in working memory, the output a pointer: a read superseded by a later read or a change. */
  | 'superseded in working memory'
  /** Its exchange was in working memory, the output masked to fit the budget (a step under pressure). */
  | 'masked in working memory'
  /** Its exchange had left working memory; the file's views in <strata_context> do not hold it. */
  | 'folded, file view lacks it'
  /** Its exchange had left working memory; the file has no view in <strata_context> (horizon or budget). */
  | 'folded, file not in views'
  /** Its exchange had left working memory and it was no file's view (command output, search). */
  | 'folded, not a file view';

/** One span a request lacked, with where it came from and how old it was. */
export interface MissedSpan {
  session: string;
  turn: number;
  line: string;
  /** Kind of the tool output that last showed it (`read`, `read-part`, `grep`, `edit`, `sh:git diff`, ...). */
  kind: string;
  /** The call that showed it, shortened (`describeCall`). */
  call: string;
  /** The file that output showed, when it showed one. */
  file?: string;
  /** Tokens of the messages between its source and the answer that quoted it. */
  ageTokens: number;
  /** Answers between its source and the answer that quoted it. */
  ageExchanges: number;
  where: MissWhere;
  /** Where the session stood when quoted: its history still under the preset's `growsPast` times the base budget, or past it. */
  phase: 'base' | 'grown';
  /** Working memory never held it: the output was cut on arrival (whether or not it has left since). */
  cutOnArrival: boolean;
}

/** Tokens a request spent per layer, and working memory's tool outputs per kind. */
export interface PromptSpend {
  turns: number;
  tokens: number;
  layers: Record<string, number>;
  /** Tool outputs in working memory, tokens, by kind. */
  outputs: Record<string, number>;
}

export interface MissedSpanReport {
  spans: number;
  /** Probes per session and phase (`<session> base`, `<session> grown`), for recall by phase. */
  spansBy: Record<string, number>;
  missed: MissedSpan[];
  /** What every request held, and what the requests that missed a span held. */
  spendAll: PromptSpend;
  spendOnMiss: PromptSpend;
}

export interface MissedSpanPorts {
  tokenizer: Tokenizer;
  logger: Logger;
  openArchive: () => ArchiveStore;
}

/**
 * Replays one session through Strata as the bench does and, for every span probe (recall.ts)
 * the request lacked, finds the latest tool output that showed it and why the prompt no longer
 * held it; also tallies what the prompts spent their tokens on.
 */
export async function missedSpans(session: ParsedSession, name: string, settings: EngineSettings, ports: MissedSpanPorts, into: MissedSpanReport, dump?: (turn: number, request: MessagesRequest) => void): Promise<void> {
  const messages = session.messages;
  const probes = sessionProbes(messages);
  const answers = messages.flatMap((m, i) => (m.role === 'assistant' ? [i] : []));
  const counter = new BlockCounter((s) => ports.tokenizer.count(s));
  const sizes = messages.map((m) => counter.message(m));
  let foldedThrough = 0;
  /** The budget each turn was assembled under: the cut on arrival follows it (contextEngine.beginExchange). */
  const budgets: number[] = [];
  const archive = ports.openArchive();
  try {
    await replaySession(session, name, settings, { tokenizer: ports.tokenizer, archive, logger: ports.logger }, (t) => {
      for (const e of t.assembled.events) if (e.type === 'relayer') foldedThrough = e.foldedThrough;
      budgets[t.turn] = t.assembled.budget;
      dump?.(t.turn, t.assembled.request);
      const probe = probes[t.turn - 1];
      const at = answers[t.turn - 1];
      if (!probe || at === undefined) return;
      const text = requestText(t.assembled.request);
      const misses = probe.spans.filter((line) => !text.includes(line));
      into.spans += probe.spans.length;
      const history = sizes.slice(0, at).reduce((a, b) => a + b, 0);
      const phase = history > sessionGrowth(settings).growsPast * effectiveBudget(settings) ? 'grown' : 'base';
      add(into.spansBy, `${name} ${phase}`, probe.spans.length);
      tally(into.spendAll, t.assembled.request, t.assembled.tokens, t.assembled.usage.layers, counter);
      if (misses.length > 0) tally(into.spendOnMiss, t.assembled.request, t.assembled.tokens, t.assembled.usage.layers, counter);
      for (const line of misses) {
        const source = latestSource(messages, at, line);
        if (!source) continue;
        const seq = answers.filter((i) => i < source.index).length + 1;
        const ageTokens = sizes.slice(source.index, at).reduce((a, b) => a + b, 0);
        const ageExchanges = answers.filter((i) => i > source.index && i < at).length;
        const shown = fileShownPart(source.call);
        const file = shown ? samePath(shown.path) : undefined;
        const cutOnArrival = !arrivalForm(source.text, source.call, settings, budgets, seq, ports.tokenizer).includes(line);
        const where: MissWhere =
          seq > foldedThrough
            ? cutOnArrival
              ? 'cut on arrival'
              : new RegExp(`\\[superseded, [^\\]]*request e${seq} full`).test(text)
                ? 'superseded in working memory'
                : 'masked in working memory'
            : file === undefined
              ? 'folded, not a file view'
              : text.includes(`### ${file} (as shown in`)
                ? 'folded, file view lacks it'
                : 'folded, file not in views';
        into.missed.push({ session: name, turn: t.turn, line, kind: outputKind(source.call), call: source.call ? describeCall(source.call) : 'unknown', ...(file ? { file } : {}), ageTokens, ageExchanges, where, phase, cutOnArrival });
      }
    });
  } finally {
    archive.close();
  }
}

/**
 * What working memory took in of an output that arrived in exchange `seq`: the engine's cut, with
 * its limits grown as the budget had grown by then (the budget of that turn over the first's).
 */
function arrivalForm(text: string, call: ToolCall | undefined, settings: EngineSettings, budgets: readonly number[], seq: number, tokenizer: Tokenizer): string {
  const turnBudget = budgets[seq] ?? budgets[1] ?? 0;
  const budget = sessionGrowth(settings).cutsAtWindow ? Math.max(turnBudget, growthCap(settings)) : turnBudget;
  const grown = budget / Math.max(1, budgets[1] ?? turnBudget);
  const fits = (t: string) => tokenizer.count(t) <= SESSION_GROWTH.wholeFileShare * budget;
  return compactToolOutput(text, call, Math.floor(settings.codeMaxLines * grown), Math.floor(settings.outputMaxLines * grown), fits);
}

export function emptyMissedSpanReport(): MissedSpanReport {
  const spend = (): PromptSpend => ({ turns: 0, tokens: 0, layers: {}, outputs: {} });
  return { spans: 0, spansBy: {}, missed: [], spendAll: spend(), spendOnMiss: spend() };
}

/** The newest tool output before message `before` whose text holds `line`, with its call. */
function latestSource(messages: readonly Message[], before: number, line: string): { index: number; call: ToolCall | undefined; text: string } | undefined {
  for (let i = before - 1; i >= 0; i--) {
    const m = messages[i]!;
    for (const b of m.content) {
      if (b.type !== 'tool_result') continue;
      const text = toolResultText(b);
      if (text.includes(line)) return { index: i, call: toolCallsOf(messages[i - 1]).get(b.tool_use_id), text };
    }
  }
  return undefined;
}

/** A short name for what kind of output a call produced: how the engine could treat it. */
export function outputKind(call: ToolCall | undefined): string {
  if (!call) return 'unknown';
  if (isEditCall(call)) return 'edit';
  const shown = fileShownPart(call);
  const input = (call.input ?? {}) as Record<string, unknown>;
  const command = typeof input.command === 'string' ? input.command : undefined;
  if (shown) return command !== undefined ? (shown.whole ? 'sh:cat file' : 'sh:part of file') : shown.whole ? 'read' : 'read-part';
  if (command !== undefined) return `sh:${commandName(command)}`;
  return call.name.toLowerCase();
}

/** `cd x && git diff --stat | head` -> `git diff`; the program (and git-like subcommand) that ran. */
function commandName(command: string): string {
  const last = command.split(/&&|;|\n/).map((c) => c.trim()).filter((c) => c && !/^(cd|export|source)\s/.test(c))[0] ?? '';
  const words = last.split(/\s+/).filter((w) => !/^\w+=/.test(w));
  const program = (words[0] ?? '').replace(/^.*\//, '');
  if (['git', 'npm', 'pip', 'uv', 'cargo', 'python', 'python3'].includes(program) && words[1] && !words[1].startsWith('-')) return `${program} ${words[1]}`.slice(0, 24);
  if ((program === 'python' || program === 'python3') && words[1] === '-c') return `${program} -c`;
  return program || 'shell';
}

function tally(spend: PromptSpend, request: MessagesRequest, tokens: number, layers: ReadonlyArray<{ layer: string; used: number }>, counter: BlockCounter): void {
  spend.turns += 1;
  spend.tokens += tokens;
  for (const l of layers) spend.layers[l.layer] = (spend.layers[l.layer] ?? 0) + l.used;
  const calls = new Map<string, ToolCall>();
  for (const m of request.messages) {
    if (m.role === 'assistant') for (const [id, call] of toolCallsOf(m)) calls.set(id, call);
    else for (const b of m.content) if (b.type === 'tool_result') add(spend.outputs, outputKind(calls.get(b.tool_use_id)), counter.block(b));
  }
  let answers = 0;
  for (const m of request.messages) if (m.role === 'assistant') answers += m.content.reduce((n: number, b: ContentBlock) => n + counter.block(b), 0);
  add(spend.outputs, '(answers)', answers);
}

function add(into: Record<string, number>, key: string, n: number): void {
  into[key] = (into[key] ?? 0) + n;
}
