import { autoCondenseAt, effectiveBudget, layerBudgets, lowWatermark } from '../engine/engineState';
import type { EngineSettings } from '../shared/engineSettings';
import type { ContextFigures } from '../shared/webviewMessages';

/**
 * Every figure of the context panel from one EngineSettings, through the engine's own budget
 * functions, so the panel cannot disagree with what the engine enforces. Pure.
 */
export function contextFigures(s: EngineSettings, source: ContextFigures['source']): ContextFigures {
  const usable = Math.max(0, s.contextWindow - s.reservedOutputTokens);
  const b = layerBudgets(s);
  return {
    source,
    window: s.contextWindow,
    reservedOutput: s.reservedOutputTokens,
    usable,
    budget: effectiveBudget(s),
    lowWatermark: lowWatermark(s),
    condensePercent: s.autoCondensePercent,
    // The threshold ContextEngine.assemble() condenses at (0 where the reserve exceeds the window).
    condenseAt: Math.max(0, autoCondenseAt(s)),
    layers: {
      narrative: b.narrativeTokens,
      headers: b.headerTokens,
      summaries: b.summaryCount * s.summaryMaxTokens,
      index: b.indexTokens,
      fileViews: b.fileViewTokens,
    },
  };
}
