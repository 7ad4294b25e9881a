import type { EngineEvent } from '../engine/engineEvents';
import type { Usage } from '../engine/usage';
import type { Message } from '../shared/messages';
import type { ModelUsage } from './modelClient';
import type { TurnCost } from './pricing';

/** Figures of one model call, for the chat's meter and the CLI's per-turn line. */
export interface TurnReport {
  /** Exchange id the call answered (`e${turn}`). */
  turn: number;
  mode: 'full' | 'layered';
  /** The engine's estimate of the prompt, and its budget, in model tokens. */
  promptTokens: number;
  budget: number;
  /** Layer by layer (the engine's `layerUsage`), for the context panel. */
  layers: Usage;
  /** What the API reported. */
  usage: ModelUsage;
  cost: TurnCost;
  /** Share of the prompt read from the cache, 0..1. */
  cacheHitRate: number;
  /** Milliseconds spent assembling the prompt (the engine) and waiting for the model. */
  engineMs: number;
  modelMs: number;
  /** Whether this turn asked for housekeeping, and whether the answer gave it in a valid form. */
  housekeeping: 'not_asked' | 'applied' | 'missed';
}

/**
 * What a Task tells its front ends, in order. Front ends only render these; nothing about a
 * turn is decided outside the loop.
 */
export type TaskEvent =
  /** A user message began as exchange `turn` (the id an edit and resend names). */
  | { type: 'user_message'; turn: number; text: string }
  /** An edited message was resent: `superseded` left the conversation (archived, marked), replaced by `by`. */
  | { type: 'resent'; from: number; by: number; superseded: number[] }
  /** Visible answer text as it streams (protocol blocks already removed). */
  | { type: 'text'; turn: number; text: string }
  | { type: 'tool_call'; turn: number; id: string; name: string; input: unknown }
  | { type: 'tool_result'; turn: number; id: string; name: string; text: string; isError: boolean }
  /**
   * A request of exchange `turn` was assembled and is about to go to the model (again, after an
   * emergency condense): `layers` is its window accounting, known before any answer arrives.
   */
  | { type: 'request'; turn: number; layers: Usage }
  /** The model call finished: the same layers plus what only the answer tells (usage, cost, cache). */
  | { type: 'turn_done'; report: TurnReport }
  /**
   * An exchange closed: exactly what went into the engine (input and answer) and the prompt size
   * the engine estimated against what the API reported (0 when no call was made). A recorder
   * that keeps these can replay the session to the same requests.
   */
  | {
      type: 'exchange';
      turn: number;
      input: Message;
      output: Message;
      estimatedTokens: number;
      reportedTokens: number;
      /** The input was the user's own message (where an edited resend may restart). */
      userMessage?: boolean;
      /** Files seen changed on disk before this input (the engine superseded their old reads). */
      changedFiles?: string[];
      /** This exchange is an edited resend of `e${resendFrom}` (that and what followed were superseded). */
      resendFrom?: number;
    }
  /** Re-layering, masking, condensing, sliding-window events from the engine. */
  | { type: 'engine'; event: EngineEvent }
  /**
   * Something the user should know that is not a failure: why an answer ended early (`max_tokens`,
   * `refusal`, `pause_turn`), a tool call not run because its input was unusable, a cap reached.
   */
  | { type: 'notice'; turn: number; kind: NoticeKind; message: string }
  /** A protocol block of the answer (housekeeping, context request) could not be read; it was ignored. */
  | { type: 'protocol_warning'; turn: number; message: string }
  /** The model client waits `ms` before trying again (the API asked to); stopping the task ends the wait. */
  | { type: 'waiting'; turn: number; ms: number; message: string }
  /** Something went wrong; `message` says what happened and what to do. Nothing was lost. */
  | { type: 'error'; code: string; message: string }
  /** The loop stopped waiting for the user. */
  | { type: 'idle'; reason: 'answered' | 'stopped' | 'failed' | 'step_limit' };

/** What a `notice` is about. */
export type NoticeKind = 'max_tokens' | 'refusal' | 'pause_turn' | 'tool_input' | 'context_cap';
