import type { MentionSources } from './mentions';
import { mentionedPath } from './mentions';
import { runToolCall } from './tools/runToolCall';
import type { ToolContext } from './tools/tool';
import type { CommandRunner } from './workspacePort';

/** Seconds `@git-changes` may take before it is stopped. */
const GIT_TIMEOUT_MS = 15_000;

/**
 * Mention sources over the workspace tools, so a mention obeys the same confinement and size
 * rules as the model's own reads; mentioning a path also lifts its ignore rule (the user chose it).
 */
export function workspaceMentionSources(context: (signal: AbortSignal, mentioned: ReadonlySet<string>) => ToolContext, commands: CommandRunner): MentionSources {
  const viaTool = async (name: string, input: { path: string }, signal?: AbortSignal): Promise<string> => {
    const mentioned = new Set([mentionedPath(input.path)]);
    const result = await runToolCall({ name, input }, context(signal ?? new AbortController().signal, mentioned));
    if (result.isError) throw new Error(result.text);
    return result.text;
  };
  return {
    readFile: (path, signal) => viaTool('read_file', { path }, signal),
    listFolder: (path, signal) => viaTool('list_files', { path }, signal),
    gitChanges: async (signal) => {
      const result = await commands.run({ command: 'git status --short && git diff', cwd: '.', timeoutMs: GIT_TIMEOUT_MS, ...(signal ? { signal } : {}) });
      if (result.startError) throw new Error(result.startError);
      if (result.exitCode !== 0) throw new Error(`git exited with ${result.exitCode}: ${result.output.trim().slice(0, 300)}`);
      return result.output;
    },
  };
}
