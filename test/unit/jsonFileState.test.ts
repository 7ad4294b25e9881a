import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JsonFileState } from '../../src/adapters/jsonFileState';
import { makeTempDir } from '../../src/adapters/tempFiles';
import { chatStatePath } from '../../src/extension/chatStatePath';
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

describe('where the chat state file lives', () => {
  const global = '/home/u/.config/Code/User/globalStorage/strata-dev.strata';

  it('a window of the same folder finds the marker another window set, whatever workspace storage folder VS Code gave each', async () => {
    // Code-server kept the old extension host (and its lock on workspaceStorage/<id>) after a reload,
    // so the new host got workspaceStorage/<id>-1: the state must not live there.
    const folders = ['file:///work/project'];
    const path = chatStatePath(temp.dir, { folders });
    expect(path).toBe(chatStatePath(temp.dir, { folders: [...folders] }));
    const before = new SessionMemory(new JsonFileState(path!), new JsonFileState(join(temp.dir, 'g.json')), quiet);
    before.remember('s-7', 'Take your time with this');
    const after = new SessionMemory(new JsonFileState(chatStatePath(temp.dir, { folders })!), new JsonFileState(join(temp.dir, 'g.json')), quiet);
    expect(after.last()).toEqual({ sessionId: 's-7', running: { text: 'Take your time with this' } });
  });

  it('is one file per workspace: other folders, another folder order, or a workspace file are other workspaces', () => {
    const one = chatStatePath(global, { folders: ['file:///a'] });
    expect(one).toMatch(new RegExp(`^${global}/workspaces/[0-9a-f]{16}/chat-state\\.json$`));
    const others = [
      chatStatePath(global, { folders: ['file:///b'] }),
      chatStatePath(global, { folders: ['file:///a', 'file:///b'] }),
      chatStatePath(global, { folders: ['file:///b', 'file:///a'] }),
      chatStatePath(global, { file: 'file:///a/a.code-workspace', folders: ['file:///a'] }),
    ];
    expect(new Set([one, ...others]).size).toBe(5);
    // the folders are kept apart: ['…/a', 'b'] is not ['…/ab']
    expect(chatStatePath(global, { folders: ['file:///a', 'b'] })).not.toBe(chatStatePath(global, { folders: ['file:///ab'] }));
    // the workspace file names the workspace, whatever folders it holds today
    expect(chatStatePath(global, { file: 'file:///w.code-workspace', folders: ['file:///a'] })).toBe(chatStatePath(global, { file: 'file:///w.code-workspace', folders: [] }));
  });

  it('is none without a folder or a workspace file (the caller keeps workspaceState)', () => {
    expect(chatStatePath(global, { folders: [] })).toBeUndefined();
  });

  it('reads the state an earlier version kept in the workspace storage folder until its first write, which goes to the new file', async () => {
    const former = join(temp.dir, 'workspaceStorage', 'abc', 'chat-state.json');
    mkdirSync(join(temp.dir, 'workspaceStorage', 'abc'), { recursive: true });
    writeFileSync(former, JSON.stringify({ 'strata.lastSession': { sessionId: 's-old' } }));
    const path = join(temp.dir, 'workspaces', 'x', 'chat-state.json');
    const state = new JsonFileState(path, former);
    expect(state.get('strata.lastSession')).toEqual({ sessionId: 's-old' });
    expect(existsSync(path)).toBe(false);
    await state.update('strata.lastSession', { sessionId: 's-new' });
    expect(new JsonFileState(path, former).get('strata.lastSession')).toEqual({ sessionId: 's-new' });
  });
});
