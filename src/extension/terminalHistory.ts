/** One finished shell command as VS Code's shell integration reported it. */
export interface TerminalCommand {
  /** The command line as run (`TerminalShellExecution.commandLine.value`). */
  command: string;
  /** Undefined when the shell did not report one. */
  exitCode?: number;
  /** Raw output as `execution.read()` gave it: escape sequences included. */
  output: string;
}

export interface TerminalHistoryLimits {
  /** Commands kept, latest last. */
  commands: number;
  /** Lines of one command's output kept, its last ones (they hold the result or the error). */
  linesPerCommand: number;
  /** Model tokens of the whole tail; older commands go first, then the oldest lines. */
  tokens: number;
}

/** Three commands, 40 lines each, 1,000 tokens in all: a terminal tail, not a log. */
export const DEFAULT_TERMINAL_LIMITS: TerminalHistoryLimits = { commands: 3, linesPerCommand: 40, tokens: 1_000 };

/** Characters of one command's raw output kept while it runs (its tail), before escapes are stripped. */
export const MAX_RAW_OUTPUT_CHARS = 64_000;

/**
 * The last few commands run in the editor's terminals with their output, cleaned and capped, for
 * the Task's `<environment>` block. Pure: the editor feeds it (terminalWatcher.ts). `count` gives
 * model tokens of a text.
 */
export class TerminalHistory {
  private readonly entries: string[] = [];

  constructor(
    private readonly count: (text: string) => number,
    private readonly limits: TerminalHistoryLimits = DEFAULT_TERMINAL_LIMITS,
  ) {}

  record(command: TerminalCommand): void {
    // Whatever is kept here goes to the model and into the archive: secrets never do.
    const listsEnvironment = ENVIRONMENT_LISTING.test(command.command.trim());
    const output = listsEnvironment ? '[output not recorded: it lists environment variables, which may hold secrets]' : redactSecrets(cleanTerminalOutput(command.output));
    const lines = output.split('\n');
    const kept = lines.slice(-this.limits.linesPerCommand);
    const cut = lines.length - kept.length;
    const status = command.exitCode === undefined ? '' : ` (exit ${command.exitCode})`;
    const body = [...(cut > 0 ? [`… ${cut} earlier lines`] : []), ...kept].join('\n');
    this.entries.push(`$ ${redactSecrets(command.command.trim())}${status}${body ? `\n${body}` : ''}`);
    this.entries.splice(0, Math.max(0, this.entries.length - this.limits.commands));
  }

  /** The tail, oldest command first, within the token cap; undefined when nothing ran. */
  text(): string | undefined {
    let text = this.entries.join('\n');
    while (text.length > 0 && this.count(text) > this.limits.tokens) {
      // Drop whole lines from the front: the latest output is what the user just saw.
      const next = text.indexOf('\n');
      text = next < 0 ? '' : text.slice(next + 1);
    }
    return text.length > 0 ? text : undefined;
  }
}

/**
 * Output as a person saw it: ANSI/VT escapes (colours, cursor moves, OSC titles and
 * shell-integration marks) removed, `\r\n` as `\n`, a line rewritten with `\r` (a progress bar)
 * kept as its last state, trailing blank lines dropped.
 */
export function cleanTerminalOutput(raw: string): string {
  const stripped = raw
    // OSC: ESC ] ... terminated by BEL or ESC \
    .replace(/\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)/g, '')
    // CSI: ESC [ params intermediates final
    .replace(/\u001b\[[0-?]*[ -/]*[@-~]/g, '')
    // Other two-character escapes (charset selection, keypad modes...)
    .replace(/\u001b[@-Z\\-_()#%*+][0-9A-Za-z]?/g, '')
    .replace(/\r\n/g, '\n');
  return stripped
    .split('\n')
    .map((line) => line.split('\r').filter((part) => part.length > 0).pop() ?? '')
    .join('\n')
    .replace(/\s+$/, '');
}

/** `env`, `printenv`, `set` and `export` without arguments print every variable, secrets included. */
const ENVIRONMENT_LISTING = /^(env|printenv|set|export|declare\s+-x)\s*$/;

/** Names of values that are secrets: API keys, tokens, passwords. */
const SECRET_NAME = String.raw`[A-Za-z0-9_.-]*(?:api[_-]?key|token|secret|passw(?:or)?d|credential|auth)[A-Za-z0-9_.-]*`;
const SECRET_ASSIGNMENT = new RegExp(String.raw`(${SECRET_NAME}\s*[=:]\s*)("[^"]*"|'[^']*'|\S+)`, 'gi');
/** Key formats that are secret wherever they appear (Anthropic, OpenAI-style, GitHub, AWS access keys). */
const SECRET_TOKENS = /\b(?:sk-ant-[A-Za-z0-9_-]{8,}|sk-[A-Za-z0-9_-]{20,}|gh[pousr]_[A-Za-z0-9]{20,}|AKIA[0-9A-Z]{16})\b/g;

/** `text` with the values of secret-named assignments and known key formats replaced by `[redacted]`. */
export function redactSecrets(text: string): string {
  return text.replace(SECRET_ASSIGNMENT, (_, name: string) => `${name}[redacted]`).replace(SECRET_TOKENS, '[redacted]');
}
