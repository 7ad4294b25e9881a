import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JsonFileState } from '../../src/adapters/jsonFileState';
import { makeTempDir } from '../../src/adapters/tempFiles';
import { SessionMemory } from '../../src/extension/sessionMemory';

let temp: { dir: string; remove: () => void };
beforeEach(() => (temp = makeTempDir('strata-state-')));
afterEach(() => temp.remove());
const quiet = { info: () => {}, warn: () => {}, error: () => {} };

describe('the chat state file (the last session and its running-turn marker)', () => {
  it('is on disk as soon as update returns: a new reader (the next window) sees it, no temporary file left', async () => {
    const path = join(temp.dir, 'ws-storage', 'chat-state.json');
    const memory = new SessionMemory(new JsonFileState(path), new JsonFileState(join(temp.dir, 'global.json')), quiet);
    memory.remember('s-1', 'Refactor the parser');
    // No await: the next activation may read it at once.
    expect(new SessionMemory(new JsonFileState(path), new JsonFileState(join(temp.dir, 'global.json')), quiet).last()).toEqual({ sessionId: 's-1', running: { text: 'Refactor the parser' } });
    memory.forget();
    expect(new JsonFileState(path).get('strata.lastSession')).toBeUndefined();
    expect(readdirSync(join(temp.dir, 'ws-storage'))).toEqual(['chat-state.json']);
  });

  it('reads a damaged file as empty, and a value of the wrong shape as no last session', () => {
    const path = join(temp.dir, 'chat-state.json');
    writeFileSync(path, '{"strata.lastSession": ');
    expect(new JsonFileState(path).get('strata.lastSession')).toBeUndefined();
    writeFileSync(path, JSON.stringify({ 'strata.lastSession': { sessionId: 42 } }));
    expect(new SessionMemory(new JsonFileState(path), new JsonFileState(join(temp.dir, 'g.json')), quiet).last()).toBeUndefined();
  });

  it('rejects an update it cannot write, keeping the value it had', async () => {
    writeFileSync(join(temp.dir, 'blocker'), 'a file where a folder should be');
    const state = new JsonFileState(join(temp.dir, 'blocker', 'chat-state.json'));
    await expect(state.update('k', 1)).rejects.toThrow(/could not be written/);
    expect(state.get('k')).toBeUndefined();
  });
});
