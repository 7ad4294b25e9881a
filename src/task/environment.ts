import type { TextBlock } from '../shared/messages';

/**
 * What the front end knows about the user's surroundings. The stable part (OS, shell, workspace)
 * goes into the cached system prefix; everything that changes between turns travels with the input.
 */
export interface StableEnvironment {
  os: string;
  shell: string;
  workspaceRoot: string;
  /** The front end's name, e.g. "VS Code 1.100" or "strata chat". */
  frontEnd: string;
}

/** Read fresh at every turn; every field optional (a terminal has no open tabs). */
export interface TurnEnvironment {
  /** Workspace-relative paths of open editor tabs. */
  openTabs?: string[];
  activeFile?: string;
  /** The selected text of the active editor, with its line range, e.g. "12-18". */
  selection?: { lines: string; text: string };
  /** The tail of the active terminal's output. */
  terminalOutput?: string;
  /** ISO time of the turn, from the Clock port (kept out of the cached prefix). */
  time?: string;
  /** Files changed on disk since the model last read them. */
  staleFiles?: string[];
}

/** Open tabs listed at most; the rest are counted. */
export const MAX_OPEN_TABS = 20;
/** Characters of a selection or terminal tail sent with a turn. */
export const MAX_ENV_TEXT_CHARS = 4_000;

/** The system branch: role, stable environment, guardrails. The engine appends its protocol. */
export function systemPrompt(env: StableEnvironment, extraInstructions = ''): string {
  const lines = [
    'You are Strata, a coding agent working in the user\'s repository through tools.',
    '',
    '## Environment',
    `- Front end: ${env.frontEnd}`,
    `- Operating system: ${env.os}`,
    `- Shell: ${env.shell}`,
    `- Workspace root: ${env.workspaceRoot} (every path you use is relative to it; you cannot leave it)`,
    '',
    '## Guardrails',
    '- Read before you edit; prefer edit_file (search/replace) over rewriting whole files.',
    '- Writes and commands may need the user\'s approval; if one is refused, ask or change course, do not retry it unchanged.',
    '- Never print secrets (API keys, tokens) you come across; never run destructive commands (rm -rf, force pushes) unless the user asked for exactly that.',
    '- Earlier exchanges you only see as headers, summaries or pointers are archived, not lost: call the recall tool (by id or by topic) rather than re-running a command or re-reading a file.',
    '- When the task is done, say what changed and how it was checked, in a few lines.',
  ];
  if (extraInstructions.trim()) lines.push('', '## User instructions', extraInstructions.trim());
  return lines.join('\n');
}

/** The per-turn environment as one text block for the user input, or none when nothing is known. */
export function turnEnvironmentBlock(env: TurnEnvironment): TextBlock | undefined {
  const lines: string[] = [];
  if (env.time) lines.push(`Time: ${env.time}`);
  if (env.activeFile) lines.push(`Active file: ${env.activeFile}`);
  if (env.selection?.text) lines.push(`Selection (lines ${env.selection.lines}):`, cap(env.selection.text));
  if (env.openTabs && env.openTabs.length > 0) {
    const shown = env.openTabs.slice(0, MAX_OPEN_TABS);
    const more = env.openTabs.length - shown.length;
    lines.push(`Open tabs: ${shown.join(', ')}${more > 0 ? ` (+${more} more)` : ''}`);
  }
  if (env.terminalOutput?.trim()) lines.push('Recent terminal output:', cap(env.terminalOutput.trim(), true));
  if (env.staleFiles && env.staleFiles.length > 0) {
    lines.push(`Changed on disk since you read them (read again before editing): ${env.staleFiles.join(', ')}`);
  }
  if (lines.length === 0) return undefined;
  return { type: 'text', text: `<environment>\n${lines.join('\n')}\n</environment>` };
}

/** Keeps the head of a selection, or the tail of a terminal (its latest lines matter). */
function cap(text: string, keepTail = false): string {
  if (text.length <= MAX_ENV_TEXT_CHARS) return text;
  return keepTail ? `…\n${text.slice(-MAX_ENV_TEXT_CHARS)}` : `${text.slice(0, MAX_ENV_TEXT_CHARS)}\n…`;
}
