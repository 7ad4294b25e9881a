import { describe, expect, it } from 'vitest';
import { computeUsage } from '../../src/engine/usage';
import { SessionMemory } from '../../src/extension/sessionMemory';
import { MapMemento } from '../support/mapMemento';

const quiet = { info: () => {}, warn: () => {}, error: () => {} };
const memory = () => {
  const global = new MapMemento();
  return { global, memory: new SessionMemory(new MapMemento(), global, quiet) };
};

describe("what survives a reload besides the archive: each session's cost and last prompt", () => {
  it('adds up the dollars of a session, ignoring nothing-spent and nonsense amounts', () => {
    const { memory: m } = memory();
    m.addCost('s1', 0.25);
    m.addCost('s1', 0.5);
    for (const usd of [0, -1, Number.NaN]) m.addCost('s1', usd);
    m.addCost('s2', 0.1);
    expect(m.cost('s1')).toBeCloseTo(0.75, 10);
    expect(m.cost('s2')).toBeCloseTo(0.1, 10);
    expect(m.cost('never')).toBe(0);
  });

  it('keeps the cost of the 500 most recently charged sessions: a session charged again counts as recent', () => {
    const { memory: m } = memory();
    for (let i = 0; i < 500; i++) m.addCost(`s${i}`, 1);
    m.addCost('s0', 1); // s0 is now the newest
    m.addCost('s500', 1); // one too many: the oldest (s1) goes
    expect(m.cost('s0')).toBe(2);
    expect(m.cost('s1')).toBe(0);
    expect(m.cost('s2')).toBe(1);
    expect(m.cost('s500')).toBe(1);
  });

  it("keeps the last prompt of the 50 most recent sessions, the newest one per session", () => {
    const { memory: m } = memory();
    const first = computeUsage(10_000, 200_000, 16_000, []);
    const second = computeUsage(12_000, 200_000, 16_000, []);
    m.rememberUsage('s0', first);
    for (let i = 1; i <= 49; i++) m.rememberUsage(`s${i}`, first);
    m.rememberUsage('s0', second); // s0 newest again
    m.rememberUsage('s50', first); // s1 goes
    expect(m.usage('s0')).toEqual(second);
    expect(m.usage('s1')).toBeUndefined();
    expect(m.usage('s2')).toEqual(first);
    expect(m.usage('s50')).toEqual(first);
  });

  it('reads a stored value that does not parse as absent', () => {
    const { global, memory: m } = memory();
    global.values.set('strata.sessionCosts', { s1: 'a lot' });
    global.values.set('strata.sessionUsage', { s1: { used: -5 } });
    expect(m.cost('s1')).toBe(0);
    expect(m.usage('s1')).toBeUndefined();
  });
});
