import type { HostToWebview } from '../shared/webviewMessages';
import { promptTokens } from '../task/modelClient';
import type { TaskEvent } from '../task/taskEvents';

/**
 * The webview messages one Task event becomes, for the turn the webview started as `requestId`.
 * `exchange` (what the archive keeps) shows nothing; `idle` ends the turn with its reason.
 * Pure: the controller sends what this returns, in order.
 */
export function taskEventMessages(event: TaskEvent, requestId: string): HostToWebview[] {
  switch (event.type) {
    case 'text':
      return event.text ? [{ type: 'chat/textDelta', requestId, text: event.text }] : [];
    case 'tool_call':
      return [{ type: 'chat/toolCall', requestId, toolUseId: event.id, name: event.name, input: event.input }];
    case 'tool_result':
      return [{ type: 'chat/toolResult', requestId, toolUseId: event.id, text: event.text, isError: event.isError }];
    case 'request':
      return [{ type: 'chat/requestSent', requestId, usage: event.layers }];
    case 'turn_done':
      return [
        {
          type: 'chat/turnDone',
          requestId,
          usage: event.report.layers,
          cost: event.report.cost.totalUsd,
          cacheHitRate: clamp01(event.report.cacheHitRate),
          promptTokens: promptTokens(event.report.usage),
          cacheReadTokens: event.report.usage.cacheReadTokens,
        },
      ];
    case 'engine':
      return [{ type: 'chat/engineEvent', requestId, event: event.event }];
    // Shown as the chat's warning rows: a stop reason, an unreadable protocol block, a wait.
    case 'notice':
    case 'protocol_warning':
    case 'waiting':
      return [{ type: 'chat/engineEvent', requestId, event: { type: 'warning', turn: event.turn, message: event.message } }];
    case 'error':
      return [{ type: 'chat/error', requestId, code: event.code, message: event.message }];
    case 'idle':
      return [{ type: 'chat/idle', requestId, reason: event.reason }];
    case 'user_message':
      return [{ type: 'chat/userMessage', requestId, seq: event.turn }];
    case 'resent':
      return [{ type: 'chat/resent', requestId, from: event.from, by: event.by, superseded: event.superseded }];
    case 'exchange':
      return [];
  }
}

function clamp01(x: number): number {
  return Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0;
}
