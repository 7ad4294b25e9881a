import type { z } from 'zod';
import { StrataError } from '../../shared/strataError';
import { fail } from './tool';
import type { Tool, ToolContext, ToolResult } from './tool';
import { WORKSPACE_TOOLS } from './toolRegistry';

/** A tool_use block as the model sent it: the input is whatever JSON it produced. */
export interface ToolUseRequest {
  name: string;
  input: unknown;
}

/** "- path: expected string, received undefined" lines, one per zod issue. */
export function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues.map((i) => `- ${i.path.length > 0 ? i.path.map(String).join('.') : '(input)'}: ${i.message}`).join('\n');
}

/**
 * Validates and runs one tool call. Never throws for anything the model sent: an unknown tool,
 * input failing the schema, a refused approval, an abort or a failing tool all come back as an
 * `isError` result whose text says what happened and what to do.
 */
export async function runToolCall(call: ToolUseRequest, ctx: ToolContext, tools: readonly Tool[] = WORKSPACE_TOOLS): Promise<ToolResult> {
  const tool = tools.find((t) => t.name === call.name);
  if (!tool) return fail(`Unknown tool '${call.name}'. The tools are: ${tools.map((t) => t.name).join(', ')}.`);
  const prepared = tool.prepare(call.input);
  if (!prepared.ok) return fail(`Invalid input for ${tool.name}; nothing was done. Fix these fields and call it again:\n${describeIssues(prepared.issues)}`);
  if (ctx.signal.aborted) return fail(`The user stopped the task before ${tool.name} ran.`);
  if (tool.needsApproval) {
    const protection = await prepared.protection(ctx);
    const summary = protection ? `${prepared.summary} (protected: ${protection})` : prepared.summary;
    const decision = await ctx.approve({ tool: tool.name, input: prepared.input, summary, ...(protection ? { protection } : {}) });
    if (!decision.approved) {
      const feedback = decision.feedback ? ` The user said: ${decision.feedback}` : '';
      return fail(`The user refused: ${summary}. Nothing was done.${feedback}`);
    }
  }
  try {
    return await prepared.run(ctx);
  } catch (error) {
    if (error instanceof StrataError) return fail(error.message);
    const message = error instanceof Error ? error.message : String(error);
    return fail(`${tool.name} failed: ${message}`);
  }
}
