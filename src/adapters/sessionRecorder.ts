import { appendFileSync } from 'node:fs';
import type { EngineSettings } from '../shared/engineSettings';
import type { Message, ToolDefinition } from '../shared/messages';
import { StrataError } from '../shared/strataError';
import { writePrivateFile } from './privateFiles';

/** What a recording keeps beside each message so a replay can send the same requests. */
export interface RecordedExchange {
  input: Message;
  output: Message;
  /** Clock time the engine gave the exchange, ms since epoch. */
  at: number;
  /** The engine's prompt estimate and the API's reported prompt size (0 when no call was made). */
  estimatedTokens: number;
  reportedTokens: number;
  /** How the exchange began (see the Task's `exchange` event); absent when plain. */
  userMessage?: boolean;
  changedFiles?: string[];
  resendFrom?: number;
}

export interface RecordingMeta {
  model: string;
  /** The agent's system text as given to the engine (the engine appends its protocol). */
  system: string;
  tools: ToolDefinition[];
  settings: EngineSettings;
  sessionId: string;
}

/**
 * Writes a live session as JSON Lines in the shared session format (a meta line, then one
 * Messages API message per line), with a `strata` field per message that `strata replay` reads
 * to reproduce the exact requests: the exchange's time, and the usage that corrected the tokenizer.
 * Each line is appended at once, so a crash loses at most the exchange in flight.
 */
export class SessionRecorder {
  constructor(
    readonly path: string,
    meta: RecordingMeta,
  ) {
    const line = { meta: { source: 'strata chat', agent: 'strata', model: meta.model, session_id: meta.sessionId, system: meta.system, tools: meta.tools, settings: meta.settings } };
    try {
      writePrivateFile(path, `${JSON.stringify(line)}\n`);
    } catch (error) {
      throw new StrataError(`Cannot write the recording ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}. Check the folder exists and is writable, or drop --record.`, 'record_unwritable');
    }
  }

  add(exchange: RecordedExchange): void {
    const begun = { ...(exchange.userMessage ? { userMessage: true } : {}), ...(exchange.changedFiles?.length ? { changedFiles: exchange.changedFiles } : {}), ...(exchange.resendFrom !== undefined ? { resendFrom: exchange.resendFrom } : {}) };
    const input = { ...exchange.input, strata: { at: exchange.at, ...begun } };
    const output = { ...exchange.output, strata: { estimatedTokens: exchange.estimatedTokens, reportedTokens: exchange.reportedTokens } };
    appendFileSync(this.path, `${JSON.stringify(input)}\n${JSON.stringify(output)}\n`);
  }
}
