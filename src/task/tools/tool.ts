import { z } from 'zod';
import type { FileContextTracker } from '../fileContextTracker';
import type { LanguageService } from '../languagePort';
import type { CommandRunner, IgnoreMatcher, TextSearcher, Workspace } from '../workspacePort';
import type { ToolLimits } from './toolLimits';

/** What goes back to the model as the `tool_result` block. */
export interface ToolResult {
  text: string;
  isError: boolean;
}

/** What the user is asked before a write or a command runs. */
export interface ApprovalRequest {
  tool: string;
  /** The validated input. */
  input: unknown;
  /** One line for the user, e.g. "run `npm test` in ."; it ends with the protection note when there is one. */
  summary: string;
  /**
   * Why this write can run code (a `.git/`, `.vscode/`, hooks ... path, see `protectedReason`):
   * such a call needs the user's own answer even where writes are auto-approved.
   */
  protection?: string;
}

export interface ApprovalDecision {
  approved: boolean;
  /** The user's words when refusing, passed on to the model. */
  feedback?: string;
}

/** Everything a tool may touch; built by the Task loop once per session (signal per turn). */
export interface ToolContext {
  workspace: Workspace;
  ignore: IgnoreMatcher;
  searcher: TextSearcher;
  commands: CommandRunner;
  tracker: FileContextTracker;
  /** Definitions, references, outlines, hovers and diagnostics; the LSP tools are offered only with one. */
  language?: LanguageService;
  /**
   * Workspace-relative paths the user mentioned (`@/dist/`): ignored files at or under them may
   * be read, listed and searched. Anything else ignored is refused.
   */
  mentionedPaths: ReadonlySet<string>;
  /** Asked before every tool whose `needsApproval` is set; the loop answers at once when auto-approving. */
  approve(request: ApprovalRequest): Promise<ApprovalDecision>;
  /** Stops the running tool (a command's process group is killed). */
  signal: AbortSignal;
  /** Time limits other than `DEFAULT_TOOL_LIMITS` (a test's, or a front end's setting). */
  limits?: Partial<ToolLimits>;
}

/** A validated call, ready to run (input already checked by zod). */
export interface PreparedCall {
  ok: true;
  summary: string;
  input: unknown;
  /** Why the call needs the user's own approval whatever auto-approves (see `ApprovalRequest.protection`). */
  protection(ctx: ToolContext): Promise<string | undefined>;
  run(ctx: ToolContext): Promise<ToolResult>;
}

export interface InputProblem {
  ok: false;
  issues: z.core.$ZodIssue[];
}

/** One tool as the registry and the API see it; built with `defineTool`, so `prepare` is typed inside. */
export interface Tool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: z.ZodType;
  /** Writes and commands need the user's approval (unless auto-approved). */
  readonly needsApproval: boolean;
  prepare(input: unknown): PreparedCall | InputProblem;
}

export interface ToolSpec<S extends z.ZodType> {
  name: string;
  description: string;
  input: S;
  needsApproval: boolean;
  /** The one-line approval summary for a validated input. */
  summarize(input: z.output<S>): string;
  /** For writes: why this input's target can run code (`protectedReason`), checked before approval. */
  protection?(input: z.output<S>, ctx: ToolContext): Promise<string | undefined>;
  run(input: z.output<S>, ctx: ToolContext): Promise<ToolResult>;
}

/** Erases a tool's input type behind zod validation, so the registry holds one `Tool` type without casts. */
export function defineTool<S extends z.ZodType>(spec: ToolSpec<S>): Tool {
  return {
    name: spec.name,
    description: spec.description,
    inputSchema: spec.input,
    needsApproval: spec.needsApproval,
    prepare(raw: unknown): PreparedCall | InputProblem {
      const parsed = spec.input.safeParse(raw);
      if (!parsed.success) return { ok: false, issues: parsed.error.issues };
      const input = parsed.data;
      return {
        ok: true,
        input,
        summary: spec.summarize(input),
        protection: async (ctx) => spec.protection?.(input, ctx),
        run: (ctx) => spec.run(input, ctx),
      };
    },
  };
}

export function ok(text: string): ToolResult {
  return { text, isError: false };
}

export function fail(text: string): ToolResult {
  return { text, isError: true };
}
