import type { ToolUseBlock } from '../shared/messages';
import type { ModelResult } from './modelClient';
import type { NoticeKind } from './taskEvents';

/** What the user is told about how an answer ended, one notice each. */
export interface StopNotice {
  kind: NoticeKind;
  message: string;
}

/**
 * The notices an answer's stop reason and unusable tool calls call for: `max_tokens` (naming a
 * call it cut), `refusal`, `pause_turn` (`continues`: the loop sends it back; otherwise its cap
 * of `maxPauses` was reached), and each call whose input could not be used. Pure.
 */
export function stopNotices(result: ModelResult, calls: readonly ToolUseBlock[], o: { maxOutputTokens: number; continues: boolean; maxPauses: number }): StopNotice[] {
  const limit = `${o.maxOutputTokens.toLocaleString('en-US')} tokens`;
  const unusable = calls.filter((c) => result.inputErrors?.[c.id] !== undefined);
  switch (result.stopReason) {
    case 'max_tokens': {
      const cut = unusable.map((c) => c.name).join(', ');
      const message = cut
        ? `The answer reached the output limit (${limit}) while writing a call to ${cut}; that call was not run, and the model is told to retry it with a smaller input.`
        : `The answer reached the output limit (${limit}) and is cut short; send "continue" to let the model go on.`;
      return [{ kind: 'max_tokens', message }];
    }
    case 'refusal':
      return [{ kind: 'refusal', message: `The model declined to go on with this answer (stop reason: refusal). What it wrote is kept${calls.length > 0 ? '; none of its tool calls ran' : ''}. Rephrase the request or ask something else.` }];
    default: {
      const notices: StopNotice[] = unusable.map((call) => ({ kind: 'tool_input', message: `The model's call to ${call.name} was not run: ${result.inputErrors?.[call.id] ?? ''}. The model is told why.` }));
      if (result.stopReason !== 'pause_turn') return notices;
      const message = o.continues
        ? 'The API paused this long answer (pause_turn); Strata sends it back so the model continues.'
        : `The API paused this answer again (pause_turn) after ${o.maxPauses} continuations; send a message to let it go on.`;
      return [...notices, { kind: 'pause_turn', message }];
    }
  }
}

/** Why a call of `result` must not run whatever it asks (a refusal, an unusable input), or undefined. */
export function unusableCallReason(call: ToolUseBlock, result: ModelResult): string | undefined {
  if (result.stopReason === 'refusal') return 'the answer ended in a refusal (stop reason refusal), so none of its tool calls ran';
  return result.inputErrors?.[call.id];
}
