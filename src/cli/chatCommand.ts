import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { mkdirSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { SessionRecorder } from '../adapters/sessionRecorder';
import { stderrLogger } from '../adapters/streamLogger';
import { openTaskSession } from '../host/openTaskSession';
import type { TaskSession } from '../host/openTaskSession';
import { StrataError } from '../shared/strataError';
import { DEFAULT_MODEL } from '../task/pricing';
import { chatApprover } from './chatApproval';
import { parseEditCommand, renderChatEvent } from './chatOutput';
import { openSqliteArchive } from '../adapters/sqliteArchiveStore';
import { cliSqliteDriver, sqliteDriverChoice } from './sqliteDriverOption';

export const CHAT_USAGE = `usage: strata chat [options]
  --workspace <dir>     folder the agent works in (default: the current folder)
  --model <id>          model id (default: ${DEFAULT_MODEL})
  --condense-model <id> a cheaper model for condensing (default: the chat's model)
  --base-url <url>      an Anthropic-compatible endpoint (default: https://api.anthropic.com)
  --archive <file>      SQLite archive (default: $XDG_DATA_HOME/strata/archive.sqlite or ~/.local/share/strata/archive.sqlite)
  --resume <id>         continue an archived session (its id is printed when a chat starts)
  --record <file>       also write the session as JSON Lines, replayable with strata replay
  --sqlite-driver <d>   auto (default: better-sqlite3 where it loads, else node:sqlite), node-sqlite or better-sqlite3
  --yes                 approve writes and commands without asking (protected paths such as
                        .git/, .vscode/, .husky/ and .envrc are refused under --yes)
  --allow-protected-writes  with --yes, also write protected paths
  --no-redact           let the model see secrets in tool output (tokens, passwords, private keys);
                        the API key is redacted all the same
  --no-lsp              no LSP tools (definition, references, symbols, hover, diagnostics from typescript-language-server)
  --verbose             per turn, the engine's time against the model's
The API key comes from ANTHROPIC_API_KEY. Without a terminal, stdin gives one message per line.
/edit <n> <text> resends your message e<n> edited: what followed it is superseded (kept in the archive).
Exit codes: 0 done, 1 a turn failed, 2 usage error.`;

/** `strata chat`: the Task loop in a terminal, or scripted through stdin. Returns the exit code. */
export async function runChat(argv: string[], io: { stdin: NodeJS.ReadableStream & { isTTY?: boolean }; out: (s: string) => void; err: (s: string) => void }): Promise<number> {
  const { values, positionals } = parseChatArgs(argv);
  if (values.help) {
    io.out(`${CHAT_USAGE}\n`);
    return 0;
  }
  if (positionals.length > 0) throw new StrataError(`chat takes no positional arguments (got '${positionals[0]}').\n${CHAT_USAGE}`, 'usage');
  const apiKey = process.env.ANTHROPIC_API_KEY ?? '';
  if (!apiKey) throw new StrataError('No API key: set ANTHROPIC_API_KEY in the environment (it is never printed or stored).', 'usage');
  const driverChoice = sqliteDriverChoice(values['sqlite-driver']);

  const interactive = io.stdin.isTTY === true;
  const lines = createInterface({ input: io.stdin, terminal: interactive });
  const queue = lineQueue(lines);
  const approve = chatApprover({
    yes: values.yes,
    allowProtectedWrites: values['allow-protected-writes'],
    interactive,
    readAnswer: () => queue.next(),
    err: io.err,
  });

  const archivePath = values.archive ?? defaultArchivePath();
  mkdirSync(join(archivePath, '..'), { recursive: true });
  const driver = cliSqliteDriver(driverChoice);
  const session = await openTaskSession({
    workspaceRoot: resolve(values.workspace ?? process.cwd()),
    archivePath,
    openArchive: (path) => openSqliteArchive(path, { driver }),
    ...(values.resume ? { sessionId: values.resume } : {}),
    apiKey,
    redactSecrets: !values['no-redact'],
    ...(values['base-url'] ? { baseURL: values['base-url'] } : {}),
    ...headerTimeoutForTests(process.env.STRATA_TEST_HEADER_TIMEOUT_MS),
    model: values.model ?? DEFAULT_MODEL,
    ...(values['condense-model'] ? { condenseModel: values['condense-model'] } : {}),
    frontEnd: 'strata chat (terminal)',
    approve,
    logger: stderrLogger(values.verbose),
    ...(values['no-lsp'] ? {} : { language: 'typescript' as const }),
  });
  const recorder = values.record
    ? new SessionRecorder(values.record, { model: session.profile.id, system: session.systemText, tools: session.toolDefinitions, settings: session.engine.settings, sessionId: session.sessionId })
    : undefined;
  let failed = false;
  session.task.onEvent((event) => {
    if (event.type === 'exchange') recorder?.add({ ...event, at: session.exchangeTime() });
    if (event.type === 'idle' && event.reason === 'failed') failed = true;
    renderChatEvent(event, { out: io.out, err: io.err, verbose: values.verbose });
  });
  io.err(`strata chat · session ${session.sessionId} · ${session.profile.id} (${session.profile.contextWindow.toLocaleString('en-US')}-token window) · archive ${archivePath} (SQLite, ${driver.label})\n`);

  let stop: AbortController | undefined;
  const onSigint = () => {
    if (stop && !stop.signal.aborted) stop.abort();
    else process.exit(130);
  };
  process.on('SIGINT', onSigint);
  try {
    for (;;) {
      if (interactive) io.err('you> ');
      const text = await queue.next();
      if (text === undefined) break;
      if (text.trim() === '') continue;
      stop = new AbortController();
      const edit = parseEditCommand(text);
      if (edit) await resendOrSay(session.task, edit, stop.signal, io.err);
      else if (text.trim().startsWith('/edit')) io.err('usage: /edit <n> <text>  (n: the id of one of your messages, shown as e<n> after it)\n');
      else await session.task.send(text, stop.signal);
      stop = undefined;
      io.out('\n');
    }
  } finally {
    process.off('SIGINT', onSigint);
    lines.close();
    await session.close();
  }
  const total = session.task.sessionCost.totals;
  io.err(`session ${session.sessionId}: ${total.turns} calls, $${total.totalUsd.toFixed(4)}\n`);
  return failed && !interactive ? 1 : 0;
}

/** A resend the Task refuses (an unknown or superseded id) is said, and the chat goes on. */
async function resendOrSay(task: TaskSession['task'], edit: { seq: number; text: string }, signal: AbortSignal, err: (s: string) => void): Promise<void> {
  try {
    await task.resend(edit.seq, edit.text, signal);
  } catch (error) {
    if (!(error instanceof StrataError)) throw error;
    err(`${error.message}\n`);
  }
}

const CHAT_OPTIONS = {
  workspace: { type: 'string' },
  model: { type: 'string' },
  'condense-model': { type: 'string' },
  'base-url': { type: 'string' },
  archive: { type: 'string' },
  resume: { type: 'string' },
  record: { type: 'string' },
  'sqlite-driver': { type: 'string' },
  yes: { type: 'boolean', default: false },
  'allow-protected-writes': { type: 'boolean', default: false },
  'no-lsp': { type: 'boolean', default: false },
  'no-redact': { type: 'boolean', default: false },
  verbose: { type: 'boolean', default: false },
  help: { type: 'boolean', default: false },
} as const;

/** node:util's parser (so `--model=x` works); its errors become usage errors (exit 2). */
function parseChatArgs(argv: string[]) {
  try {
    return parseArgs({ args: argv, allowPositionals: true, strict: true, options: CHAT_OPTIONS });
  } catch (error) {
    throw new StrataError(`${error instanceof Error ? error.message : String(error)}\n${CHAT_USAGE}`, 'usage');
  }
}

/**
 * STRATA_TEST_HEADER_TIMEOUT_MS, hidden and for tests only (scripts/safetyFigures.mjs): a shorter
 * wait for response headers than the 2 minutes users get, so a stall before the headers can be
 * exercised in seconds.
 */
function headerTimeoutForTests(value: string | undefined): { headerTimeoutMs?: number } {
  if (value === undefined || value === '') return {};
  const ms = Number(value);
  if (!Number.isInteger(ms) || ms < 1) throw new StrataError(`STRATA_TEST_HEADER_TIMEOUT_MS must be a positive whole number of milliseconds (got '${value}'); unset it.`, 'usage');
  return { headerTimeoutMs: ms };
}

/** The archive `strata chat` and `strata import` use unless --archive names another. */
export function defaultArchivePath(): string {
  const base = process.env.XDG_DATA_HOME || join(homedir(), '.local', 'share');
  return join(base, 'strata', 'archive.sqlite');
}

/** Lines of a readline interface as an async queue (approvals and messages share one stdin). */
function lineQueue(lines: ReturnType<typeof createInterface>): { next(): Promise<string | undefined> } {
  const buffered: string[] = [];
  const waiting: Array<(line: string | undefined) => void> = [];
  let closed = false;
  lines.on('line', (line) => {
    const w = waiting.shift();
    if (w) w(line);
    else buffered.push(line);
  });
  lines.on('close', () => {
    closed = true;
    for (const w of waiting.splice(0)) w(undefined);
  });
  return {
    next: () => {
      if (buffered.length > 0) return Promise.resolve(buffered.shift());
      if (closed) return Promise.resolve(undefined);
      return new Promise((r) => waiting.push(r));
    },
  };
}
