import { z } from 'zod';
import { confinePath } from './confinePath';
import { defineTool, fail, ok } from './tool';
import type { ToolResult } from './tool';
import { displayPath } from './workspacePath';

/** Seconds a command may run when the model gives no timeout. */
export const DEFAULT_TIMEOUT_SECONDS = 120;
/** The longest timeout the model may ask for, in seconds. */
export const MAX_TIMEOUT_SECONDS = 600;

const input = z.object({
  command: z.string().min(1).describe('Shell command line to run (non-interactive: stdin is closed).'),
  cwd: z.string().default('.').describe('Working folder, relative to the workspace root (default: the root).'),
  timeout_seconds: z
    .number()
    .positive()
    .max(MAX_TIMEOUT_SECONDS)
    .default(DEFAULT_TIMEOUT_SECONDS)
    .describe(`Stop the command (and everything it started) after this many seconds (default ${DEFAULT_TIMEOUT_SECONDS}).`),
});

/** Runs a shell command inside the workspace (needs approval): timeout, abort and a capped output. */
export const executeCommandTool = defineTool({
  name: 'execute_command',
  description:
    'Run a shell command in the workspace and get its exit code and output (stdout and stderr interleaved; very long output keeps its head and tail). ' +
    'Commands cannot read input: pass flags such as --yes. Long-running servers never finish: they are stopped at the timeout.',
  input,
  needsApproval: true,
  summarize: (v) => `run \`${v.command}\` in ${v.cwd}`,
  async run(v, ctx): Promise<ToolResult> {
    const where = await confinePath(ctx, v.cwd, 'cwd');
    if (!where.ok) return fail(where.message);
    const stat = await ctx.workspace.stat(where.rel);
    if (stat?.kind !== 'directory') return fail(`The working folder '${v.cwd}' does not exist in the workspace.`);
    const timeoutMs = Math.round(v.timeout_seconds * 1000);
    const r = await ctx.commands.run({ command: v.command, cwd: where.realRel, timeoutMs, signal: ctx.signal });
    if (r.startError) return fail(`The command could not start: ${r.startError}.`);
    const output = r.output.trimEnd() === '' ? '(no output)' : r.output.trimEnd();
    const cut = r.truncated ? ` (${r.omittedBytes} bytes cut from the middle)` : '';
    const cwd = displayPath(where.rel);
    if (r.timedOut) return fail(`The command was stopped after its ${v.timeout_seconds} s timeout (in ${cwd}); it and its child processes were killed. Output so far${cut}:\n${output}`);
    if (r.aborted) return fail(`The user stopped the command (in ${cwd}). Output so far${cut}:\n${output}`);
    const status = r.exitCode === null ? 'was killed by a signal' : `exited with code ${r.exitCode}`;
    return ok(`The command ${status} (in ${cwd}). Output${cut}:\n${output}`);
  },
});
