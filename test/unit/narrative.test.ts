import { describe, expect, it } from 'vitest';
import type { ExchangeFacts, Narrative } from '../../src/engine/narrative';
import { advanceNarrative, applyHousekeeping, emptyNarrative, renderNarrative } from '../../src/engine/narrative';

const facts = (seq: number, over: Partial<ExchangeFacts> = {}): ExchangeFacts => ({
  seq,
  header: `step ${seq}`,
  files: [],
  symbols: [],
  edited: [],
  failed: false,
  nextSteps: [],
  ...over,
});

describe('narrative (L0): derived from the exchanges, overridden by the model', () => {
  it('starts empty with the objective and renders only what it has', () => {
    const n = emptyNarrative('Fix the parser');
    expect(n).toEqual({ objective: 'Fix the parser', story: '', achievements: [], activeFiles: [], activeSymbols: [], state: 'starting', nextSteps: [] });
    expect(renderNarrative(n)).toBe('Objective: Fix the parser\nState: starting');
  });

  it('renders every field in its order and separator', () => {
    const n: Narrative = {
      objective: 'O',
      story: 'S',
      achievements: ['a1', 'a2'],
      activeFiles: ['f1', 'f2'],
      activeSymbols: ['s1', 's2'],
      state: 'T',
      nextSteps: ['n1', 'n2'],
    };
    expect(renderNarrative(n)).toBe('Objective: O\nStory: S\nDone: a1; a2\nActive files: f1, f2\nActive symbols: s1, s2\nState: T\nNext: n1; n2');
  });

  it('advances from an exchange: edits become achievements once, files and symbols most recent first, the state says whether it failed', () => {
    let n = emptyNarrative('Goal');
    n = advanceNarrative(n, facts(1, { files: ['a.ts', 'b.ts'], symbols: ['A'], edited: ['a.ts'], nextSteps: ['run tests'] }));
    expect(n).toEqual({
      objective: 'Goal',
      story: '',
      achievements: ['e1 changed a.ts'],
      activeFiles: ['a.ts', 'b.ts'],
      activeSymbols: ['A'],
      state: 'last step: step 1',
      nextSteps: ['run tests'],
    });
    n = advanceNarrative(n, facts(2, { files: ['c.ts', 'a.ts'], symbols: ['B', 'A'], edited: ['a.ts', 'a.ts'], failed: true }));
    expect(n.achievements).toEqual(['e1 changed a.ts', 'e2 changed a.ts']);
    expect(n.activeFiles).toEqual(['c.ts', 'a.ts', 'b.ts']);
    expect(n.activeSymbols).toEqual(['B', 'A']);
    expect(n.state).toBe('last step hit an error: step 2');
    // no next steps from this exchange: the previous ones stay
    expect(n.nextSteps).toEqual(['run tests']);
  });

  it('keeps the last 5 achievements, the 6 most recent files and symbols, and at most 3 next steps', () => {
    let n = emptyNarrative('Goal');
    for (let seq = 1; seq <= 7; seq++) {
      n = advanceNarrative(n, facts(seq, { files: [`f${seq}.ts`], symbols: [`S${seq}`], edited: [`f${seq}.ts`], nextSteps: ['x', 'y', 'z', 'w'] }));
    }
    expect(n.achievements).toEqual(['e3 changed f3.ts', 'e4 changed f4.ts', 'e5 changed f5.ts', 'e6 changed f6.ts', 'e7 changed f7.ts']);
    expect(n.activeFiles).toEqual(['f7.ts', 'f6.ts', 'f5.ts', 'f4.ts', 'f3.ts', 'f2.ts']);
    expect(n.activeSymbols).toEqual(['S7', 'S6', 'S5', 'S4', 'S3', 'S2']);
    expect(n.nextSteps).toEqual(['x', 'y', 'z']);
    // the story and the objective are never derived
    expect(advanceNarrative({ ...n, story: 'kept' }, facts(8)).story).toBe('kept');
  });

  it("keeps the model's narrative state over the derived one at later exchanges, until the model writes a new one", () => {
    let n = applyHousekeeping(advanceNarrative(emptyNarrative('Goal'), facts(1)), { narrative: { state: 'parser fixed; tests next' } });
    n = advanceNarrative(n, facts(2));
    n = advanceNarrative(n, facts(3, { failed: true }));
    expect(n.state).toBe('parser fixed; tests next');
    // housekeeping without a state keeps it too; a new state replaces it
    n = applyHousekeeping(advanceNarrative(n, facts(4)), { narrative: { nextSteps: ['run tests'] } });
    expect(n.state).toBe('parser fixed; tests next');
    n = advanceNarrative(applyHousekeeping(n, { narrative: { state: 'tests pass' } }), facts(5));
    expect(n.state).toBe('tests pass');
    // a narrative the model never wrote a state for stays derived
    expect(advanceNarrative(emptyNarrative('Goal'), facts(1)).state).toMatch(/^last step: /);
  });

  it("applies the model's update field by field over the derived one; nothing without an update", () => {
    const derived: Narrative = { ...emptyNarrative('Goal'), story: 'S', achievements: ['old'], activeFiles: ['a.ts'], state: 'derived', nextSteps: ['n'] };
    expect(applyHousekeeping(derived, undefined)).toBe(derived);
    expect(applyHousekeeping(derived, { headers: { e1: 'h' } })).toBe(derived);
    expect(applyHousekeeping(derived, { narrative: {} })).toEqual(derived);
    expect(applyHousekeeping(derived, { narrative: { objective: 'New goal', state: 'model state' } })).toEqual({
      ...derived,
      objective: 'New goal',
      state: 'model state',
      stateFromModel: true,
    });
    const many = ['1', '2', '3', '4', '5', '6', '7'];
    expect(applyHousekeeping(derived, { narrative: { achievements: many, nextSteps: ['m1'] } })).toEqual({
      ...derived,
      achievements: ['3', '4', '5', '6', '7'],
      nextSteps: ['m1'],
    });
  });
});
