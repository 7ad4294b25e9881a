import * as vscode from 'vscode';
import type { Logger } from '../engine/ports';
import { MAX_RAW_OUTPUT_CHARS, type TerminalHistory } from './terminalHistory';

/**
 * Feeds `history` from VS Code's shell integration (stable since 1.93): each command's output is
 * read from its start (`read()` must be called then, or data is missed) and recorded when it
 * ends, with its exit code. Terminals without shell integration report nothing.
 */
export function watchTerminals(history: TerminalHistory, logger: Logger): vscode.Disposable {
  const outputs = new Map<vscode.TerminalShellExecution, Promise<string>>();
  const started = vscode.window.onDidStartTerminalShellExecution((event) => {
    outputs.set(event.execution, readTail(event.execution.read()));
  });
  const ended = vscode.window.onDidEndTerminalShellExecution((event) => {
    const output = outputs.get(event.execution) ?? Promise.resolve('');
    outputs.delete(event.execution);
    output.then(
      (text) => history.record({ command: event.execution.commandLine.value, output: text, ...(event.exitCode !== undefined ? { exitCode: event.exitCode } : {}) }),
      (error: unknown) => logger.warn(`terminal output could not be read: ${error instanceof Error ? error.message : String(error)}`),
    );
  });
  return vscode.Disposable.from(started, ended);
}

/** The stream's last MAX_RAW_OUTPUT_CHARS characters (a long build keeps only its end in memory). */
async function readTail(stream: AsyncIterable<string>): Promise<string> {
  let text = '';
  for await (const data of stream) {
    text += data;
    if (text.length > 2 * MAX_RAW_OUTPUT_CHARS) text = text.slice(-MAX_RAW_OUTPUT_CHARS);
  }
  return text.slice(-MAX_RAW_OUTPUT_CHARS);
}
