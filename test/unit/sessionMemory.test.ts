import { describe, expect, it } from 'vitest';
import { computeUsage } from '../../src/engine/usage';
import { SessionMemory } from '../../src/extension/sessionMemory';
import { MapMemento } from '../support/mapMemento';

/**
 * What survives a window reload besides the archive: the last session (with its running marker)
 * and each session's dollars. jsonFileState.test.ts runs it on the JSON file the extension uses;
 * sessionRestore.test.ts through a reload of the chat.
 */
function memory() {
  const workspace = new MapMemento();
  const global = new MapMemento();
  const warnings: string[] = [];
  const m = new SessionMemory(workspace, global, { info: () => {}, warn: (w) => void warnings.push(w), error: () => {} });
  return { m, workspace, global, warnings };
}

describe('SessionMemory', () => {
  it('remembers the session, marked running with its message cut to 500 characters, and forgets it', () => {
    const { m, workspace } = memory();
    expect(m.last()).toBeUndefined();
    m.remember('s-1', 'x'.repeat(600));
    expect(m.last()).toEqual({ sessionId: 's-1', running: { text: 'x'.repeat(500) } });
    m.remember('s-1', '');
    expect(m.last()).toEqual({ sessionId: 's-1', running: { text: '' } });
    m.remember('s-1');
    expect(m.last()).toEqual({ sessionId: 's-1' });
    expect(workspace.values.get('strata.lastSession')).toEqual({ sessionId: 's-1' });
    m.forget();
    expect(m.last()).toBeUndefined();
    expect(workspace.values.has('strata.lastSession')).toBe(false);
  });

  it('reads a stored value of the wrong shape as no last session', () => {
    const { m, workspace } = memory();
    for (const bad of [{ sessionId: '' }, { sessionId: 'x'.repeat(201) }, { sessionId: 's', running: { text: 'y'.repeat(501) } }, 's-1']) {
      workspace.values.set('strata.lastSession', bad);
      expect(m.last(), JSON.stringify(bad).slice(0, 40)).toBeUndefined();
    }
    workspace.values.set('strata.lastSession', { sessionId: 'x'.repeat(200) });
    expect(m.last()).toEqual({ sessionId: 'x'.repeat(200) });
  });

  it('adds up the dollars of each session in the global state; nothing for zero, negative or no amount', () => {
    const { m, global } = memory();
    expect(m.cost('s-1')).toBe(0);
    m.addCost('s-1', 0.25);
    m.addCost('s-1', 0.5);
    m.addCost('s-2', 1);
    for (const usd of [0, -1, Number.NaN]) m.addCost('s-3', usd);
    expect([m.cost('s-1'), m.cost('s-2'), m.cost('s-3')]).toEqual([0.75, 1, 0]);
    expect(global.values.get('strata.sessionCosts')).toEqual({ 's-1': 0.75, 's-2': 1 });
    global.values.set('strata.sessionCosts', { 's-1': 'lots' });
    expect(m.cost('s-1')).toBe(0); // a damaged record counts as none
  });

  it('keeps the 500 latest sessions, the one just added last', () => {
    const { m, global } = memory();
    for (let i = 0; i < 501; i++) m.addCost(`s-${i}`, 1);
    m.addCost('s-1', 1); // s-1 moves to the end, so s-2 is the oldest now
    m.addCost('s-new', 1);
    const keys = Object.keys(global.values.get('strata.sessionCosts') as object);
    expect(keys).toHaveLength(500);
    expect(keys.slice(0, 2)).toEqual(['s-3', 's-4']);
    expect(keys.slice(-2)).toEqual(['s-1', 's-new']);
    expect(m.cost('s-1')).toBe(2);
    expect(m.cost('s-0')).toBe(0);
  });

  it("keeps the last prompt of the 50 most recent sessions, the newest one per session, and reads a damaged record as none", () => {
    const { m, global } = memory();
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
    expect(Object.keys(global.values.get('strata.sessionUsage') as object)).toHaveLength(50);
    global.values.set('strata.sessionUsage', { s0: { used: -5 } });
    expect(m.usage('s0')).toBeUndefined();
  });

  it("keeps each model's window per server, the 20 most recent, rewritten only when it changed, and reads a damaged record as none", () => {
    const { m, global } = memory();
    const window = { contextWindow: 300_000, maxOutputTokens: 64_000 };
    m.rememberModelWindow('', 'claude-x', window);
    expect(m.modelWindow('', 'claude-x')).toEqual(window);
    expect(m.modelWindow('http://127.0.0.1:8080', 'claude-x')).toBeUndefined();
    const stored = global.values.get('strata.modelWindows');
    m.rememberModelWindow('', 'claude-x', { ...window });
    expect(global.values.get('strata.modelWindows')).toBe(stored); // the same object: not written again
    m.rememberModelWindow('', 'claude-x', { ...window, contextWindow: 400_000 });
    expect(m.modelWindow('', 'claude-x')?.contextWindow).toBe(400_000);
    m.rememberModelWindow('', 'claude-x', { contextWindow: 400_000, maxOutputTokens: 32_000 });
    expect(m.modelWindow('', 'claude-x')?.maxOutputTokens).toBe(32_000);
    for (let i = 0; i < 20; i++) m.rememberModelWindow('', `model-${i}`, window);
    expect(m.modelWindow('', 'claude-x')).toBeUndefined();
    expect(m.modelWindow('', 'model-0')).toEqual(window);
    expect(Object.keys(global.values.get('strata.modelWindows') as object)).toHaveLength(20);
    global.values.set('strata.modelWindows', { ' model-0': { contextWindow: 0 } });
    expect(m.modelWindow('', 'model-0')).toBeUndefined();
  });

  it('logs a write the editor refused', async () => {
    const { m, workspace, global, warnings } = memory();
    workspace.failWith = new Error('storage closed');
    global.failWith = 'quota';
    m.remember('s-1');
    m.addCost('s-1', 1);
    await new Promise((r) => setTimeout(r, 0));
    expect(warnings).toEqual(['could not remember strata.lastSession: storage closed', 'could not remember strata.sessionCosts: quota']);
  });
});
