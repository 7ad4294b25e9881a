import { describe, expect, it } from 'vitest';
import type { ChatController, ResumedHistory } from '../../src/extension/chatController';
import { archivedSessionView, openArchivedSession, restoreLastSession } from '../../src/extension/openArchivedSession';
import type { ArchiveBrowser } from '../../src/engine/archiveBrowser';
import { STOP_AND_OPEN, type StopQuestion } from '../../src/extension/stopQuestion';

/**
 * Open Session's decision: ask before stopping what runs, open at once when idle. The run over
 * the real ChatController and Task loop (a running turn kept or stopped) is in chatController.test.ts.
 */
const history: ResumedHistory = { entries: [{ role: 'user', text: 'earlier question', seq: 1 }], omitted: 0 };

function chat(busyWith: ChatController['busyWith']) {
  const resumed: Array<{ id: string; history: ResumedHistory }> = [];
  return {
    resumed,
    chat: {
      currentSessionId: 's-now',
      busyWith,
      resumeSession: async (id: string, h: ResumedHistory) => void resumed.push({ id, history: h }),
    },
  };
}

function asking(answer: boolean) {
  const questions: StopQuestion[] = [];
  let reads = 0;
  return {
    questions,
    reads: () => reads,
    steps: {
      history: () => ((reads += 1), history),
      confirmStop: async (q: StopQuestion) => (questions.push(q), answer),
    },
  };
}

const target = { id: 's-old', title: 'Fix the flaky parser test' };

describe('openArchivedSession', () => {
  it('opens at once, without asking, when nothing runs', async () => {
    const c = chat(undefined);
    const a = asking(false);
    expect(await openArchivedSession(c.chat, target, a.steps)).toBe('opened');
    expect(a.questions).toEqual([]);
    expect(c.resumed).toEqual([{ id: 's-old', history }]);
  });

  it('asks while a turn runs; Cancel leaves the chat as it is and reads nothing', async () => {
    const c = chat('turn');
    const a = asking(false);
    expect(await openArchivedSession(c.chat, target, a.steps)).toBe('cancelled');
    expect(a.questions).toHaveLength(1);
    expect(a.questions[0]).toMatchObject({ confirm: STOP_AND_OPEN, message: expect.stringContaining('A turn is running') });
    expect(a.questions[0]!.message).toContain('"Fix the flaky parser test"');
    expect(a.questions[0]!.detail).toMatch(/archived/);
    expect(c.resumed).toEqual([]);
    expect(a.reads()).toBe(0);
  });

  it('"Stop and open" switches the chat (resumeSession stops what runs)', async () => {
    const c = chat('turn');
    const a = asking(true);
    expect(await openArchivedSession(c.chat, target, a.steps)).toBe('opened');
    expect(a.questions).toHaveLength(1);
    expect(c.resumed).toEqual([{ id: 's-old', history }]);
  });

  it('names Condense Now when that is what runs', async () => {
    const a = asking(false);
    await openArchivedSession(chat('condense').chat, target, a.steps);
    expect(a.questions[0]!.message).toContain('Condense Now is running');
  });

  it('neither asks nor switches for the session the chat already uses, even while it runs', async () => {
    const c = chat('turn');
    const a = asking(true);
    expect(await openArchivedSession(c.chat, { id: 's-now', title: 'Now' }, a.steps)).toBe('current');
    expect(a.questions).toEqual([]);
    expect(c.resumed).toEqual([]);
  });

  it('stops nothing when the history cannot be read: the archive error reaches the user first', async () => {
    const c = chat('turn');
    const steps = {
      history: (): ResumedHistory => {
        throw new Error('Exchange e1 of session s-old is damaged and cannot be read.');
      },
      confirmStop: async () => true,
    };
    await expect(openArchivedSession(c.chat, target, steps)).rejects.toThrow(/damaged/);
    expect(c.resumed).toEqual([]);
  });
});

describe('the archived session as the chat shows it, and the restore at activation', () => {
  const info = { id: 's-old', title: 'Fix the flaky parser test', firstAt: 1, lastAt: 2, exchanges: 1 };
  const exchange = { sessionId: 's-old', seq: 1, createdAt: 1, header: 'e1', summary: '', tokens: 3, full: [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'earlier question' }] }] };
  const browser = (sessions: () => (typeof info)[]): ArchiveBrowser => ({
    path: '/a',
    sessions,
    exchanges: () => [exchange],
    get: () => exchange,
    searchAll: () => [],
    deleteSession: () => ({ exchanges: 0, blobs: 0 }),
    close: () => {},
  });

  it('is the title and history of an archived session, and nothing for one not archived', () => {
    expect(archivedSessionView(browser(() => [info]), 's-old')).toEqual({ title: 'Fix the flaky parser test', history });
    expect(archivedSessionView(browser(() => [info]), 's-gone')).toBeUndefined();
  });

  it('an archive that cannot be read at activation is logged and leaves the new session', () => {
    const errors: string[] = [];
    const logger = { info: () => {}, warn: () => {}, error: (m: string) => void errors.push(m) };
    const chat = { restoreLast: (lookup: (id: string) => unknown) => (lookup('s-old'), 'restored' as const) };
    restoreLastSession(
      chat,
      browser(() => {
        throw new Error('database is locked');
      }),
      logger,
    );
    expect(errors).toEqual(['the last session could not be restored from the archive (database is locked); the chat starts a new session, and Open Session lists the archived ones']);
  });
});

