import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { EngineSettings } from '../../src/shared/engineSettings';
import type { AssembledTurn } from '../../src/engine/contextEngine';
import { drive, makeEngine, syntheticSession } from '../support/engineHarness';

const GOLDEN_DIR = join(__dirname, '..', 'fixtures', 'golden');

/**
 * Byte-exact requests for fixed inputs. To accept an intended change, run with
 * STRATA_UPDATE_GOLDEN=1 and review the diff of test/fixtures/golden/ like code.
 */
async function golden(name: string, settings: Partial<EngineSettings>, steps: number, pick: (t: AssembledTurn) => boolean, outputLines = 12): Promise<void> {
  const turns = await drive(makeEngine(settings).engine, syntheticSession(steps, outputLines));
  const turn = turns.find(pick);
  expect(turn, `no turn of ${name} matches what this golden is about`).toBeDefined();
  if (!turn) return;
  const actual = `${JSON.stringify({ turn: turn.turn, mode: turn.mode, tokens: turn.tokens, housekeepingTokens: turn.housekeepingTokens, events: turn.events, request: turn.request }, null, 1)}\n`;
  const path = join(GOLDEN_DIR, `${name}.json`);
  if (process.env.STRATA_UPDATE_GOLDEN === '1') writeFileSync(path, actual);
  expect(existsSync(path), `missing golden ${path}`).toBe(true);
  expect(actual).toBe(readFileSync(path, 'utf8'));
}

describe('golden requests (each layer and budget edge)', () => {
  const last = (turn: number) => (t: AssembledTurn) => t.turn === turn;
  it('full mode: the history as it is', () => golden('full-mode', {}, 4, last(4)));
  it('the turn the history first passes the budget: first re-layering step', () =>
    golden('first-relayer', { promptBudgetTokens: 3_000 }, 16, (t) => t.events.some((e) => e.type === 'relayer')));
  it('layered: L2 headers, L3 summaries, L4 index, file views, working memory, L0', () =>
    golden('layered-all-layers', { promptBudgetTokens: 3_000, workingMemoryMax: 6, workingMemoryMin: 2, fileViewPercent: 10 }, 24, last(24)));
  it('housekeeping asked on the turn before a step', () =>
    golden('housekeeping-ask', { promptBudgetTokens: 3_000, workingMemoryMax: 6, workingMemoryMin: 2, summaryMaxTokens: 20 }, 24, (t) => t.housekeepingTokens > 0));
  // economy: the 2k budget holds (under balanced this session grows past 2.5x it, runs 1.5x ahead of its history and never squeezes)
  it('under pressure: a budget so small every layer is at its minimum', () =>
    golden('pressure', { promptBudgetTokens: 2_000, headerMaxTokens: 8, maxHeaders: 10, contextPreset: 'economy' }, 30, (t) => t.events.some((e) => e.type === 'relayer' && e.pressure >= 3), 90));
  it('condensed: the condense summary replaces L3, headers stay', () =>
    golden('condensed', { contextWindow: 6_000, reservedOutputTokens: 500, promptBudgetTokens: 5_500, autoCondensePercent: 40 }, 24, (t) => t.events.some((e) => e.type === 'condense_context')));
});
