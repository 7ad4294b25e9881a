import type { Message } from '../../src/shared/messages';
import { assistant, text, toolResult, toolUse, user } from './engineHarness';

/**
 * A tiny coding session for bench tests: `files` reads of ~1,200-token files, each followed by an
 * edit quoting a line of the file it read (a span probe), then "Done.".
 */
export function renameSession(files: number): Message[] {
  const out: Message[] = [user(text('Rename every helper in src/ to camelCase.'))];
  for (let i = 1; i <= files; i++) {
    const lines = Array.from({ length: 120 }, (_, k) => `export const helper_${i}_${k} = computeValue(${i * 31 + k}, 'file ${i}');`);
    out.push(assistant(toolUse(`r${i}`, 'Read', { file_path: `src/file${i}.ts` })));
    out.push(user(toolResult(`r${i}`, lines.join('\n'))));
    out.push(assistant(toolUse(`e${i}`, 'Edit', { file_path: `src/file${i}.ts`, old_string: lines[7], new_string: lines[7]!.replace('helper_', 'helper') })));
    out.push(user(toolResult(`e${i}`, 'ok')));
  }
  out.push(assistant(text('Done.')));
  return out;
}

/** `messages` as a session file's text: one JSON message per line. */
export const sessionLines = (messages: Message[]): string => messages.map((m) => JSON.stringify(m)).join('\n') + '\n';
