import type { Message } from '../../shared/messages';
import { isEditCall, shellCommandOf } from '../toolOutput';
import { extractEntities, isFilePath } from './entities';

/** What an answer did, read from its tool calls and shell blocks: commands run, files changed. */

/** Characters of the answer's text read for topic, sentences and questions. */
export const TEXT_HEAD = 4_000;
/** Blocks of one message looked at; answers with hundreds of tool calls are described by their first ones. */
export const MAX_BLOCKS = 64;

export function basename(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  return trimmed.slice(trimmed.lastIndexOf('/') + 1) || trimmed;
}

const DEFINITION = /\b(?:function|def|class|interface|type|enum|struct|trait|fn|func|const|let)\s{1,4}([A-Za-z_$][\w$]{1,60})/g;
const REDIRECT = /(?:^|[^>\d&])>{1,2}\s{0,4}([\w./~-]{1,200}\.[A-Za-z0-9]{1,8})(?![\w.])/;
/** Segments that only set up the shell, and prefixes that only wrap the real program. */
const SETUP_PROGRAMS = new Set(['cd', 'source', '.', 'export', 'set', 'pushd', 'popd', 'ulimit', 'unset']);
const WRAPPERS = new Set(['sudo', 'time', 'env', 'timeout', 'nohup', 'exec', 'nice']);
const SUBCOMMAND_PROGRAMS = new Set(['git', 'npm', 'yarn', 'pnpm', 'bun', 'cargo', 'go', 'docker', 'kubectl', 'gh', 'pip', 'pip3', 'make']);
const RUNNERS = new Set(['npx', 'uv', 'poetry', 'pipenv', 'hatch', 'pdm']);

/** Shell commands of an answer: `command` tool inputs, or fenced bash blocks when it has no tool calls. */
export function commandsRun(answer: Message): string[] {
  const commands: string[] = [];
  for (const block of answer.content.slice(0, MAX_BLOCKS)) {
    const command = block.type === 'tool_use' ? shellCommandOf(block) : undefined;
    if (command !== undefined) commands.push(oneLine(command));
  }
  if (answer.content.some((b) => b.type === 'tool_use')) return commands;
  for (const block of answer.content.slice(0, MAX_BLOCKS)) if (block.type === 'text') commands.push(...fencedShell(block.text.slice(0, TEXT_HEAD * 4)));
  return commands;
}

/** Bodies of ```bash / ```sh blocks (mini-swe-agent's way of running commands), by indexOf: linear. */
function fencedShell(text: string): string[] {
  const found: string[] = [];
  for (let open = text.indexOf('```'); open !== -1; open = text.indexOf('```', open + 3)) {
    const newline = text.indexOf('\n', open);
    const close = newline === -1 ? -1 : text.indexOf('```', newline);
    if (close === -1) break;
    const body = text.slice(newline + 1, close).trim();
    if (/^(?:bash|sh|shell|console)?\s*$/.test(text.slice(open + 3, newline)) && body !== '') found.push(oneLine(body));
    open = close;
  }
  return found;
}

/** `pytest`, `git diff`, `python reproduce.py`, `sed base.py`: the program that matters in a command line (its first 400 characters). */
export function commandLabel(command: string): string {
  for (const segment of command.slice(0, 400).split(/&&|\|\||;|\||\n/)) {
    const words = segment.replace(/^[\s({]+|[\s)}]+$/g, '').split(/\s+/).filter((w) => !/^\w+=/.test(w));
    // wrappers, their durations and flags (`sudo`, `timeout 10s`, `npx -y`): no program starts with `-`
    while (words.length > 0 && (WRAPPERS.has(words[0]!) || /^\d+[smh]?$/.test(words[0]!) || words[0]!.startsWith('-'))) words.shift();
    const program = basename(words[0] ?? '');
    if (!program || SETUP_PROGRAMS.has(program)) continue;
    const rest = words.slice(1).filter((w) => !w.startsWith('-'));
    if (/^python[\d.]*$/.test(program)) {
      if (words[1] === '-m' && words[2]) return words[2];
      return words[1] === '-c' ? `${program} -c` : rest[0] ? `${program} ${basename(rest[0])}` : program;
    }
    if (RUNNERS.has(program)) return commandLabel(words.slice(words[1] === 'run' ? 2 : 1).join(' ')) || program;
    if (SUBCOMMAND_PROGRAMS.has(program)) {
      const subcommand = subcommandOf(words.slice(1));
      if (subcommand) return `${program} ${subcommand}`;
    }
    const file = rest.map((w) => w.replace(/^['"]|['"]$/g, '')).find(isFilePath);
    return file ? `${program} ${basename(file)}` : program;
  }
  return 'shell';
}

/**
 * The subcommand among a program's arguments: the first that is neither a flag, nor the value of
 * `-c` / `-C` (`git -c core.pager=cat log`, `make -C dir test`), nor a setting or a path.
 */
function subcommandOf(args: string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '-c' || arg === '-C') i++;
    else if (!arg.startsWith('-') && !/[=/]/.test(arg)) return arg;
  }
  return undefined;
}

/** Files the answer changed, with the symbols its edits define or touch: `edited src/a.ts (parseLine)`. */
export function editedChanges(answer: Message): string[] {
  const files = new Map<string, { verb: string; symbols: Set<string> }>();
  const note = (path: string, verb: string, texts: string[]) => {
    const entry = files.get(path) ?? { verb, symbols: new Set<string>() };
    if (verb === 'edited') entry.verb = verb;
    for (const s of editedSymbols(texts)) entry.symbols.add(s);
    files.set(path, entry);
  };
  for (const block of answer.content.slice(0, MAX_BLOCKS)) {
    if (block.type !== 'tool_use') continue;
    const input = (typeof block.input === 'object' && block.input !== null ? block.input : {}) as Record<string, unknown>;
    const path = input.file_path ?? input.notebook_path ?? input.path;
    if (isEditCall(block) && typeof path === 'string') {
      const edits: unknown[] = Array.isArray(input.edits) ? input.edits : [];
      const texts = [...stringsOf(input, ['old_string', 'new_string', 'old_str', 'new_str']), ...edits.flatMap((e) => stringsOf(e, ['old_string', 'new_string']))];
      note(path, texts.length > 0 ? 'edited' : 'wrote', texts.length > 0 ? texts : stringsOf(input, ['content', 'file_text']));
    }
  }
  for (const command of commandsRun(answer)) {
    // Commands are on one line, single-spaced, at most 400 characters (oneLine).
    if (/\bsed -i/.test(command)) for (const f of extractEntities(command).files) note(f, 'edited', []);
    const target = REDIRECT.exec(command)?.[1];
    if (target && !target.startsWith('/dev/')) note(target, 'wrote', [command]);
  }
  return [...files].map(([path, e]) => `${e.verb} ${shortPath(path)}${e.symbols.size > 0 ? ` (${[...e.symbols].slice(0, 3).join(', ')})` : ''}`);
}

/**
 * Definitions in the edited text; else the symbols the edit added or removed; else those it touched.
 * Neither deduplicated nor cut: the caller keeps a set and shows its first three.
 */
function editedSymbols(texts: string[]): string[] {
  const bounded = texts.map((t) => t.slice(0, TEXT_HEAD));
  const defined = bounded.flatMap((t) => [...t.matchAll(DEFINITION)].map((m) => m[1]!));
  if (defined.length > 0) return defined;
  const [before = [], after = []] = bounded.map((t) => extractEntities(t).symbols);
  const changed = [...after.filter((s) => !before.includes(s)), ...before.filter((s) => !after.includes(s))];
  return changed.length > 0 ? changed : [...before, ...after];
}

/** The string fields `keys` of a tool input or of one of its edits; anything else has none. */
function stringsOf(fields: unknown, keys: string[]): string[] {
  if (typeof fields !== 'object' || fields === null) return [];
  return keys.map((k) => (fields as Record<string, unknown>)[k]).filter((v): v is string => typeof v === 'string');
}

function oneLine(text: string): string {
  return text.slice(0, 400).replace(/\s+/g, ' ').trim();
}

/** The last two segments of a path: enough to tell files apart, cheap in tokens. */
function shortPath(path: string): string {
  return path.split('/').filter(Boolean).slice(-2).join('/');
}
