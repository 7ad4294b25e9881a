import type { AssembledTurn } from '../engine/contextEngine';
import type { ModelUsage } from './modelClient';
import { promptTokens } from './modelClient';
import type { TurnCost } from './pricing';
import type { TurnReport } from './taskEvents';

/** The figures of one model call, from the engine's assembled turn and the API's usage. */
export function turnReport(turn: AssembledTurn, usage: ModelUsage, cost: TurnCost, engineMs: number, modelMs: number): Omit<TurnReport, 'housekeeping'> {
  const prompt = promptTokens(usage);
  return {
    turn: turn.turn,
    mode: turn.mode,
    promptTokens: turn.tokens,
    budget: turn.budget,
    layers: turn.usage,
    usage,
    cost,
    cacheHitRate: prompt > 0 ? usage.cacheReadTokens / prompt : 0,
    engineMs,
    modelMs,
  };
}
