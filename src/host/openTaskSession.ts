import { platform, release } from 'node:os';
import { AnthropicModelClient } from '../adapters/anthropicModelClient';
import { GitignoreMatcher } from '../adapters/gitignoreMatcher';
import { fetchUrlText } from '../adapters/httpUrlFetcher';
import { typescriptServerSpec } from '../adapters/languageServerSpec';
import { LspLanguageService } from '../adapters/lspLanguageService';
import { NodeWorkspace } from '../adapters/nodeWorkspace';
import { createTextSearcher } from '../adapters/ripgrepSearcher';
import { ShellCommandRunner } from '../adapters/shellCommandRunner';
import { systemClock } from '../adapters/systemClock';
import { createTiktokenTokenizer } from '../adapters/tiktokenTokenizer';
import { ContextEngine } from '../engine/contextEngine';
import type { ArchiveStore, Clock, Logger } from '../engine/ports';
import type { EngineSettings } from '../shared/engineSettings';
import type { ToolDefinition } from '../shared/messages';
import type { TurnEnvironment } from '../task/environment';
import { systemPrompt } from '../task/environment';
import { FileContextTracker } from '../task/fileContextTracker';
import type { LanguageService } from '../task/languagePort';
import { languageProblems } from '../task/languageProblems';
import type { MentionSources } from '../task/mentions';
import type { ModelClient } from '../task/modelClient';
import type { ModelProfile } from '../task/modelProfiles';
import { MAX_ANSWER_TOKENS, ModelProfileResolver, sessionEngineSettings } from '../task/modelProfiles';
import { ModelSummarizer } from '../task/modelSummarizer';
import { recallTool } from '../task/recallTool';
import { redactingLogger } from '../task/redaction';
import { createRedactor } from '../task/secretRedactor';
import { Task } from '../task/task';
import type { ApprovalDecision, ApprovalRequest, ToolContext } from '../task/tools/tool';
import { toolDefinitionsForApi, workspaceTools } from '../task/tools/toolRegistry';
import { workspaceMentionSources } from '../task/workspaceMentionSources';
import { newSessionId } from './newSessionId';

/** What a front end (the terminal chat, the extension) decides; everything else is wired here. */
export interface TaskSessionOptions {
  workspaceRoot: string;
  /** Archive file; sessions of every workspace may share one. */
  archivePath: string;
  /** Opens the archive at `archivePath`: SQLite unless the front end chose another store (its runtime cannot load SQLite). */
  openArchive?: (path: string) => SessionArchive;
  /** Resume this session (its exchanges come back folded); a new id otherwise. */
  sessionId?: string;
  /** Also redacted from everything the session stores, sends, records or logs. */
  apiKey: string;
  /**
   * Redact known secret formats (keys, tokens, passwords, private keys) from tool output and
   * inputs; default on. The API key is redacted whatever this says.
   */
  redactSecrets?: boolean;
  baseURL?: string;
  /** Time allowed until the response headers, ms (the model client's default, 2 minutes, otherwise). */
  headerTimeoutMs?: number;
  model: string;
  condenseModel?: string;
  /** Engine settings as the user set them; the window comes from the model's profile unless set. */
  settings?: Partial<EngineSettings>;
  frontEnd: string;
  /** Asked before writes and commands the user did not auto-approve. */
  approve(request: ApprovalRequest): Promise<ApprovalDecision>;
  environment?: () => TurnEnvironment;
  /** Sources only the front end has (the editor's diagnostics, say); the workspace supplies the rest. */
  extraMentionSources?: Partial<MentionSources>;
  logger: Logger;
  clock?: Clock;
  /** A model client other than the Anthropic SDK's (tests may pass a scripted one). */
  modelClient?: ModelClient;
  userInstructions?: string;
  /** Model calls one user message may lead to before the loop asks the user to continue (the Task's default otherwise). */
  maxSteps?: number;
  /**
   * LSP tools and `@problems`: `'typescript'` spawns typescript-language-server on first use (no
   * LSP tools, with a warning, when it does not resolve); the editor passes its own service.
   */
  language?: 'typescript' | LanguageService;
  /** ripgrep to search with (the editor passes its bundled one); default: `rg` on PATH, else the JS fallback. */
  ripgrepPath?: string;
}

/** An archive that also keeps the tokenizer's learned factor per model, so a new session starts calibrated. */
export type SessionArchive = ArchiveStore & {
  tokenFactor(model: string): number | undefined;
  saveTokenFactor(model: string, factor: number, at: number): void;
};

export interface TaskSession {
  sessionId: string;
  task: Task;
  engine: ContextEngine;
  archive: ArchiveStore;
  profile: ModelProfile;
  tracker: FileContextTracker;
  /** The agent's system text and tool definitions as given to the engine (a recording keeps them). */
  systemText: string;
  toolDefinitions: ToolDefinition[];
  /** The time the engine gave the latest exchange, ms since epoch (a recording keeps it for replays). */
  exchangeTime(): number;
  /** Flushes and closes the archive (at once), then stops a language server this session started. */
  close(): Promise<void>;
}

/** Builds a ready Task: archive, tokenizer, model client and profile, engine, tools. */
export async function openTaskSession(o: TaskSessionOptions): Promise<TaskSession> {
  const clock = o.clock ?? systemClock;
  const redact = createRedactor({ secrets: [o.apiKey], formats: o.redactSecrets ?? true });
  const logger = redactingLogger(o.logger, redact);
  // The engine reads the clock once per exchange, when it begins; the last reading is that exchange's time.
  let lastEngineTime = 0;
  const engineClock: Clock = { now: () => (lastEngineTime = clock.now()) };
  const model = o.modelClient ?? new AnthropicModelClient({ apiKey: o.apiKey, ...(o.baseURL ? { baseURL: o.baseURL } : {}), ...(o.headerTimeoutMs ? { headerTimeoutMs: o.headerTimeoutMs } : {}) });
  const profile = await new ModelProfileResolver().resolve({
    model: o.model,
    baseURL: o.baseURL ?? 'https://api.anthropic.com',
    client: model,
    ...(o.condenseModel ? { condenseModel: o.condenseModel } : {}),
  });
  const maxOutput = Math.min(profile.maxOutputTokens, MAX_ANSWER_TOKENS);
  const settings = sessionEngineSettings(profile, o.settings ?? {});
  const archive = (o.openArchive ?? (await sqliteOpener()))(o.archivePath);
  const learnedFactor = archive.tokenFactor(o.model);
  const tokenizer = createTiktokenTokenizer(learnedFactor !== undefined ? { learnedFactor } : {});
  const workspace = new NodeWorkspace(o.workspaceRoot);
  const ignore = new GitignoreMatcher(workspace);
  const searcher = createTextSearcher(workspace, ignore, o.ripgrepPath ? { rgPath: o.ripgrepPath } : {});
  const commands = new ShellCommandRunner(workspace.root);
  const tracker = new FileContextTracker(workspace);
  const ownLanguage = o.language === 'typescript' ? typescriptLanguage(workspace.root, logger) : undefined;
  const language = typeof o.language === 'object' ? o.language : ownLanguage;
  const toolContext = (signal: AbortSignal, mentionedPaths: ReadonlySet<string>): ToolContext => ({
    workspace,
    ignore,
    searcher,
    commands,
    tracker,
    ...(language ? { language } : {}),
    mentionedPaths,
    approve: o.approve,
    signal,
  });
  const sessionId = o.sessionId ?? newSessionId(clock.now());
  const stable = { os: `${platform()} ${release()}`, shell: commands.shell, workspaceRoot: workspace.root, frontEnd: o.frontEnd };
  const systemText = systemPrompt(stable, o.userInstructions);
  let engine: ContextEngine;
  const recall = recallTool({ retrieve: (ids, format) => engine.retrieve(ids, format), searchArchive: (q, n) => engine.searchArchive(q, n) });
  const tools = [...workspaceTools(language), recall];
  const toolDefinitions = toolDefinitionsForApi(tools);
  try {
    engine = new ContextEngine({
      sessionId,
      settings,
      tokenizer,
      archive,
      summarizer: new ModelSummarizer(model, profile.condenseModel ?? o.model),
      clock: engineClock,
      logger,
      systemPrompt: systemText,
      workspaceRoot: workspace.root,
      tools: toolDefinitions,
      // A request the API would reject fails here with the reason, before it costs a call.
      validateRequests: true,
    });
  } catch (error) {
    archive.close();
    await ownLanguage?.close();
    throw error;
  }
  const task = new Task({
    engine,
    tokenizer,
    model,
    modelId: o.model,
    maxOutputTokens: maxOutput,
    tools,
    toolContext,
    mentions: {
      ...workspaceMentionSources(toolContext, commands),
      fetchUrl: (url, signal) => fetchUrlText(url, {}, signal),
      ...(language ? { problems: languageProblems(language, () => tracker.tracked().map((f) => f.path)) } : {}),
      ...o.extraMentionSources,
    },
    environment: () => ({ time: new Date(clock.now()).toISOString(), ...o.environment?.() }),
    tracker,
    clock,
    redact,
    ...(o.maxSteps !== undefined ? { maxSteps: o.maxSteps } : {}),
  });
  // Each reported usage refines the tokenizer's factor; keep it for the next session of this model.
  task.onEvent((event) => {
    if (event.type !== 'turn_done' || !tokenizer.learned?.()) return;
    try {
      archive.saveTokenFactor(o.model, tokenizer.factor(), clock.now());
    } catch (error) {
      logger.warn(`The tokenizer calibration could not be saved: ${error instanceof Error ? error.message : String(error)}`);
    }
  });
  const close = async () => {
    engine.close();
    await ownLanguage?.close();
  };
  return { sessionId, task, engine, archive, profile, tracker, systemText, toolDefinitions, exchangeTime: () => lastEngineTime, close };
}

/** typescript-language-server for the workspace, started on first use; none (said once) when it is not installed. */
function typescriptLanguage(root: string, logger: Logger): LspLanguageService | undefined {
  const server = typescriptServerSpec();
  if (!server) {
    logger.warn('typescript-language-server or typescript does not resolve from this install: the session runs without LSP tools (npm install typescript-language-server@5 typescript@5).');
    return undefined;
  }
  return new LspLanguageService({ root, server, logger });
}

/**
 * The SQLite store, loaded only when no other store is given: the universal .vsix carries no
 * native driver, and a static import would make this module fail to load wherever it is missing.
 */
async function sqliteOpener() {
  return (await import('../adapters/sqliteArchiveStore')).openSqliteArchive;
}
