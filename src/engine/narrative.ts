import type { Housekeeping } from '../shared/protocolSchema';

/**
 * L0: the story so far. Fields are short plain strings; `render` lays them out and the caller
 * trims the result to the narrative budget.
 */
export interface Narrative {
  objective: string;
  story: string;
  achievements: string[];
  activeFiles: string[];
  activeSymbols: string[];
  state: string;
  nextSteps: string[];
  /** `state` is the model's own (housekeeping): kept over the derived one until the model updates it. */
  stateFromModel?: true;
}

const MAX_ACHIEVEMENTS = 5;
const MAX_ACTIVE = 6;

export function emptyNarrative(objective: string): Narrative {
  return { objective, story: '', achievements: [], activeFiles: [], activeSymbols: [], state: 'starting', nextSteps: [] };
}

/** What the engine observed of one finished exchange, used when the model wrote no housekeeping. */
export interface ExchangeFacts {
  seq: number;
  header: string;
  files: string[];
  symbols: string[];
  edited: string[];
  failed: boolean;
  nextSteps: string[];
}

/** Derives the next narrative from the last one and an exchange's facts; deterministic. */
export function advanceNarrative(previous: Narrative, facts: ExchangeFacts): Narrative {
  const achievements = [...previous.achievements];
  for (const file of facts.edited) {
    const line = `e${facts.seq} changed ${file}`;
    if (!achievements.includes(line)) achievements.push(line);
  }
  return {
    objective: previous.objective,
    story: previous.story,
    achievements: achievements.slice(-MAX_ACHIEVEMENTS),
    activeFiles: mostRecentFirst(facts.files, previous.activeFiles),
    activeSymbols: mostRecentFirst(facts.symbols, previous.activeSymbols),
    state: previous.stateFromModel ? previous.state : `${facts.failed ? 'last step hit an error' : 'last step'}: ${facts.header}`,
    nextSteps: facts.nextSteps.length > 0 ? facts.nextSteps.slice(0, 3) : previous.nextSteps,
    ...(previous.stateFromModel ? { stateFromModel: true as const } : {}),
  };
}

/** Applies the model's own narrative update over the derived one. */
export function applyHousekeeping(current: Narrative, housekeeping: Housekeeping | undefined): Narrative {
  const update = housekeeping?.narrative;
  if (!update) return current;
  return {
    ...current,
    objective: update.objective ?? current.objective,
    state: update.state ?? current.state,
    achievements: update.achievements ? update.achievements.slice(-MAX_ACHIEVEMENTS) : current.achievements,
    nextSteps: update.nextSteps ?? current.nextSteps,
    ...(update.state !== undefined || current.stateFromModel ? { stateFromModel: true as const } : {}),
  };
}

function mostRecentFirst(fresh: string[], older: string[]): string[] {
  const merged: string[] = [];
  for (const item of [...fresh, ...older]) if (!merged.includes(item)) merged.push(item);
  return merged.slice(0, MAX_ACTIVE);
}

/** The narrative as the model reads it. */
export function renderNarrative(n: Narrative): string {
  const lines = [`Objective: ${n.objective}`];
  if (n.story) lines.push(`Story: ${n.story}`);
  if (n.achievements.length) lines.push(`Done: ${n.achievements.join('; ')}`);
  if (n.activeFiles.length) lines.push(`Active files: ${n.activeFiles.join(', ')}`);
  if (n.activeSymbols.length) lines.push(`Active symbols: ${n.activeSymbols.join(', ')}`);
  lines.push(`State: ${n.state}`);
  if (n.nextSteps.length) lines.push(`Next: ${n.nextSteps.join('; ')}`);
  return lines.join('\n');
}
