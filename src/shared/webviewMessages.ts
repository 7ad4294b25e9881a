import { z } from 'zod';
import { engineSettingsSchema } from './engineSettings';
import { mentionItemSchema } from './mentionItems';
import { settingGroupSchema, settingScopeSchema, settingValueSchema } from './settingsFields';
import { DEFAULT_MODEL } from './defaultModel';

/**
 * Messages between the extension host and the sidebar webview: two discriminated unions with
 * `domain/verb` names. Requests carry a `requestId` the reply echoes. Both sides `safeParse`
 * what they receive; an invalid message is dropped with a logged reason, never half-used.
 */

const requestId = z.string().min(1).max(100);

/** Model and approval settings (`strata.model`, `strata.autoApprove.*` ...), beside the engine's. */
export const modelSettingsSchema = z.object({
  /** Anthropic model id for chat answers. */
  model: z.string().min(1).max(200).default(DEFAULT_MODEL),
  /** Model id for condensing calls; empty means the chat model. */
  condenseModel: z.string().max(200).default(''),
  /** Messages API base URL; empty means Anthropic's. */
  baseUrl: z.string().max(2_000).default(''),
  /** Apply file writes without asking. */
  autoApproveWrites: z.boolean().default(false),
  /** Run shell commands without asking. */
  autoApproveCommands: z.boolean().default(false),
  /** Redact known secret formats from what tools return; the API key is redacted regardless. */
  redactSecrets: z.boolean().default(true),
});
export type ModelSettings = z.infer<typeof modelSettingsSchema>;

/** Mirrors `LayerUsage` in src/engine/usage.ts (a type test keeps the two equal). Tokens. */
export const layerUsageSchema = z.object({
  layer: z.enum(['system', 'L0', 'L1', 'L2', 'L3', 'L4', 'input', 'retrieved']),
  budget: z.number().nonnegative(),
  used: z.number().nonnegative(),
});

/** Mirrors `Usage` in src/engine/usage.ts. Tokens, except `percent` (of window - reserve). */
export const usageSchema = z.object({
  used: z.number().nonnegative(),
  window: z.number().positive(),
  reservedOutput: z.number().nonnegative(),
  available: z.number().nonnegative(),
  percent: z.number().nonnegative(),
  band: z.enum(['green', 'yellow', 'red']),
  layers: z.array(layerUsageSchema),
  budget: z.number().nonnegative().optional(),
});
/** The engine's `Usage` as the webview receives it. */
export type UsageView = z.infer<typeof usageSchema>;

/**
 * The figures the context panel shows, all computed on the host by `contextFigures()` from one
 * EngineSettings: the open session's (`source: 'session'`: window and output reserve as the model's
 * profile set them) or, before a session opens, the configured settings (`'settings'`). Tokens.
 */
export const contextFiguresSchema = z.object({
  source: z.enum(['session', 'settings']),
  window: z.number().int().positive(),
  /** Tokens kept free for the answer: the one place the reserve is named. */
  reservedOutput: z.number().int().nonnegative(),
  /** window - reservedOutput: what the meter's percentages are of. */
  usable: z.number().int().nonnegative(),
  /** The prompt budget in force (the re-layering high watermark): min(promptBudgetTokens, promptBudgetPercent of usable). */
  budget: z.number().int().nonnegative(),
  /** Where a re-layering step brings the prompt down to. */
  lowWatermark: z.number().int().nonnegative(),
  condensePercent: z.number().nonnegative(),
  /** condensePercent of usable: a prompt above it (and above the budget) is condensed. */
  condenseAt: z.number().int().nonnegative(),
  /** Caps of the archive layers at this budget (the engine's layerBudgets). */
  layers: z.object({
    narrative: z.number().int().nonnegative(),
    headers: z.number().int().nonnegative(),
    summaries: z.number().int().nonnegative(),
    index: z.number().int().nonnegative(),
    fileViews: z.number().int().nonnegative(),
  }),
});
export type ContextFigures = z.infer<typeof contextFiguresSchema>;

/** Mirrors `EngineEvent` in src/engine/engineEvents.ts; shown as rows in the chat flow. */
export const engineEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('relayer'), turn: z.number(), foldedThrough: z.number(), pressure: z.number(), masked: z.number() }),
  z.object({
    type: z.literal('condense_context'),
    turn: z.number(),
    tokensBefore: z.number(),
    tokensAfter: z.number(),
    inputTokens: z.number(),
    outputTokens: z.number(),
    cost: z.number(),
  }),
  z.object({ type: z.literal('condense_context_error'), turn: z.number(), tokensBefore: z.number(), error: z.string(), cost: z.number() }),
  z.object({ type: z.literal('sliding_window_truncation'), turn: z.number(), tokensBefore: z.number(), tokensAfter: z.number(), removedExchanges: z.number() }),
  z.object({ type: z.literal('outputs_masked'), turn: z.number(), masked: z.number(), tokensBefore: z.number(), tokensAfter: z.number() }),
  z.object({ type: z.literal('warning'), turn: z.number(), message: z.string() }),
]);
/** The engine's `EngineEvent` as the webview receives it. */
export type EngineEventView = z.infer<typeof engineEventSchema>;

/** Where the API key came from; the key itself never crosses to the webview. */
export const apiKeySourceSchema = z.enum(['secretStorage', 'environment', 'none']);
export type ApiKeySource = z.infer<typeof apiKeySourceSchema>;

/** Commands the webview may ask the host to run (buttons in calls to action). */
export const hostCommandSchema = z.enum(['strata.setApiKey', 'strata.openSettings', 'strata.openSettingsEditor', 'strata.showLastRequest', 'strata.condenseNow']);
export type HostCommand = z.infer<typeof hostCommandSchema>;

/** One line of a resumed session's compact history: a user message or a final answer (from the archive). */
export const historyEntrySchema = z.object({ role: z.enum(['user', 'assistant']), text: z.string().max(50_000), seq: z.number().int().positive() });
export type HistoryEntry = z.infer<typeof historyEntrySchema>;

export const webviewToHostSchema = z.discriminatedUnion('type', [
  /** Sent once the React app has mounted; the host flushes its queue after it. */
  z.object({ type: z.literal('webview/ready') }),
  z.object({ type: z.literal('chat/send'), requestId, text: z.string().min(1).max(200_000) }),
  /** Stops the running turn of the request it names. */
  z.object({ type: z.literal('chat/stop'), requestId }),
  /**
   * The user edited their message `e${seq}` and sends `text` instead (a new turn, `requestId`):
   * a running turn stops first; `seq` and what followed are superseded, kept in the archive.
   */
  z.object({ type: z.literal('chat/resend'), requestId, seq: z.number().int().positive(), text: z.string().min(1).max(200_000) }),
  z.object({ type: z.literal('session/new'), requestId }),
  z.object({ type: z.literal('command/run'), command: hostCommandSchema }),
  /** The user's answer to `approval/request` (same `requestId`); `feedback` goes to the model when refusing. */
  z.object({ type: z.literal('approval/respond'), requestId, approved: z.boolean(), feedback: z.string().max(10_000).optional() }),
  /** Opens VS Code's diff editor: the file as it is against what the pending write/edit `requestId` would make it. */
  z.object({ type: z.literal('approval/showDiff'), requestId }),
  /** The settings panel opened: the host answers with `settings/snapshot` echoing `requestId`. */
  z.object({ type: z.literal('settings/get'), requestId }),
  /** Writes `key` at `scope`; `value: null` removes it from that scope. Answered by `settings/updated`. */
  z.object({ type: z.literal('settings/update'), requestId, key: z.string().max(200), scope: settingScopeSchema, value: settingValueSchema.nullable() }),
  /** The text after an `@` in the input (`query`); answered by `mentions/results` echoing `requestId`. */
  z.object({ type: z.literal('mentions/query'), requestId, query: z.string().max(500) }),
]);
export type WebviewToHost = z.infer<typeof webviewToHostSchema>;

export const hostToWebviewSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('settings/changed'), engine: engineSettingsSchema, model: modelSettingsSchema }),
  z.object({ type: z.literal('apiKey/status'), source: apiKeySourceSchema }),
  /** The archive's state: `ok: false` carries a message that says why and where. */
  // `fallback`: the archive works, on the plain-file store, because SQLite does not load in this editor.
  z.object({ type: z.literal('storage/status'), ok: z.boolean(), message: z.string(), fallback: z.boolean().optional() }),
  /**
   * A new, empty session; replies to `session/new` when `requestId` is set. A session resumed from
   * the archive carries its compact `history` (and how many older entries were left out).
   */
  z.object({
    type: z.literal('session/started'),
    requestId: requestId.optional(),
    sessionId: z.string().min(1),
    history: z.array(historyEntrySchema).max(1_000).optional(),
    omitted: z.number().int().nonnegative().optional(),
    /** The archive's title of a resumed session; a new one is titled by its first message. */
    title: z.string().max(500).optional(),
    /** Dollars the session had cost before (the meter carries on from it). */
    cost: z.number().nonnegative().optional(),
    /** The session's last prompt as the meter showed it (a resumed session shows it until its next request). */
    usage: usageSchema.optional(),
    /** The message of a turn that was running when the window went away (a reload): shown as interrupted. */
    interrupted: z.string().max(1_000).optional(),
  }),
  z.object({ type: z.literal('usage/updated'), usage: usageSchema }),
  /** The window, reserve, budget and layer caps the context panel shows (see contextFiguresSchema). */
  z.object({ type: z.literal('context/figures'), figures: contextFiguresSchema }),
  /** Condense Now started (`running`) or ended: the view shows progress meanwhile. */
  z.object({ type: z.literal('condense/running'), running: z.boolean() }),
  /** The user's message of turn `requestId` is exchange `e${seq}`: the id an edit and resend names. */
  z.object({ type: z.literal('chat/userMessage'), requestId, seq: z.number().int().positive() }),
  /** An edited message was resent as `e${by}`: exchanges `superseded` (from `from` on) left the conversation. */
  z.object({ type: z.literal('chat/resent'), requestId, from: z.number().int().positive(), by: z.number().int().positive(), superseded: z.array(z.number().int().positive()) }),
  /** Streamed answer text for the turn `requestId` started. */
  z.object({ type: z.literal('chat/textDelta'), requestId, text: z.string() }),
  z.object({ type: z.literal('chat/toolCall'), requestId, toolUseId: z.string(), name: z.string(), input: z.unknown() }),
  z.object({ type: z.literal('chat/toolResult'), requestId, toolUseId: z.string(), text: z.string(), isError: z.boolean() }),
  /** A request of turn `requestId` went to the model: the meter shows its `usage` while the answer streams. */
  z.object({ type: z.literal('chat/requestSent'), requestId, usage: usageSchema }),
  /**
   * A model call finished; `cost` in dollars as priced from the usage the API reported,
   * `cacheHitRate` the share of the prompt read from the cache (0..1).
   */
  // `promptTokens`/`cacheReadTokens`: the API's figures behind cacheHitRate, so the session's rate can be summed.
  z.object({
    type: z.literal('chat/turnDone'),
    requestId,
    usage: usageSchema,
    cost: z.number().nonnegative(),
    cacheHitRate: z.number().min(0).max(1),
    promptTokens: z.number().int().nonnegative().optional(),
    cacheReadTokens: z.number().int().nonnegative().optional(),
  }),
  /** `usd`: what the event's model call cost in dollars (a condense), priced by the host; the event's own `cost` is in engine units. */
  z.object({ type: z.literal('chat/engineEvent'), requestId, event: engineEventSchema, usd: z.number().nonnegative().optional() }),
  /** The request failed; `code` is a StrataError code, `message` says what to do. */
  z.object({ type: z.literal('chat/error'), requestId, code: z.string(), message: z.string() }),
  /** The loop has nothing left to do for `requestId`; the input is free again. */
  z.object({ type: z.literal('chat/idle'), requestId, reason: z.enum(['answered', 'stopped', 'failed', 'step_limit']).optional() }),
  /**
   * A write or a command waits for the user: `requestId` names this approval (the reply echoes
   * it), `turnRequestId` the turn it belongs to, `summary` one line such as "run `npm test` in .".
   */
  z.object({ type: z.literal('approval/request'), requestId, turnRequestId: requestId, tool: z.string(), summary: z.string(), input: z.unknown() }),
  /** The approval was decided (by the user, or refused because the turn stopped). */
  z.object({ type: z.literal('approval/settled'), requestId, approved: z.boolean() }),
  /** The view's gear was clicked: show the settings panel. */
  z.object({ type: z.literal('settings/show') }),
  /**
   * Every Strata setting with its values per scope, grouped as in the manifest. Replies to
   * `settings/get` when `requestId` is set; sent unasked when settings change (settings.json edited).
   */
  z.object({ type: z.literal('settings/snapshot'), requestId: requestId.optional(), groups: z.array(settingGroupSchema), hasWorkspace: z.boolean() }),
  /** The outcome of `settings/update`; `message` says why a value was refused or could not be written. */
  z.object({ type: z.literal('settings/updated'), requestId, key: z.string(), ok: z.boolean(), message: z.string().optional() }),
  /** The `@`-mention list for `mentions/query` `requestId` (capped, best first). */
  z.object({ type: z.literal('mentions/results'), requestId, items: z.array(mentionItemSchema).max(100) }),
]);
export type HostToWebview = z.infer<typeof hostToWebviewSchema>;

/** Result of reading one inbound message: the message, or why it was dropped. */
export type Parsed<T> = { ok: true; message: T } | { ok: false; reason: string };

function parseWith<T>(schema: z.ZodType<T>, raw: unknown): Parsed<T> {
  const result = schema.safeParse(raw);
  if (result.success) return { ok: true, message: result.data };
  const type = typeof raw === 'object' && raw !== null && 'type' in raw ? String((raw as { type: unknown }).type) : typeof raw;
  const issues = result.error.issues.slice(0, 3).map((i) => `${i.path.join('.') || '(message)'}: ${i.message}`);
  return { ok: false, reason: `dropped message "${type.slice(0, 60)}": ${issues.join('; ')}` };
}

/** Validates a message the host received from the webview. */
export function parseWebviewToHost(raw: unknown): Parsed<WebviewToHost> {
  return parseWith(webviewToHostSchema, raw);
}

/** Validates a message the webview received from the host. */
export function parseHostToWebview(raw: unknown): Parsed<HostToWebview> {
  return parseWith(hostToWebviewSchema, raw);
}
