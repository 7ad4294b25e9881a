import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openJsonlArchive } from '../../src/adapters/jsonlArchiveStore';
import { openSqliteArchive } from '../../src/adapters/sqliteArchiveStore';
import { makeTempDir } from '../../src/adapters/tempFiles';
import type { ArchivedExchange } from '../../src/engine/ports';

/** The turn environment block (time, open files) is bookkeeping: search neither finds it nor shows it in a snippet. */
const exchange: ArchivedExchange = {
  sessionId: 's1',
  seq: 1,
  createdAt: Date.UTC(2026, 10, 3, 9, 7),
  header: 'e1 09:07 asked about the parser',
  summary: 'e1: the parser reads tokens.',
  tokens: 100,
  full: [
    { role: 'user', content: [{ type: 'text', text: 'How does the parser handle quokka tokens?' }, { type: 'text', text: '<environment>\nTime: 2026-11-03T09:07\nOpen files: wombat.ts quokka.ts\n</environment>' }] },
    { role: 'assistant', content: [{ type: 'text', text: 'It reads them one by one.' }] },
  ],
};

let temp: { dir: string; remove: () => void };
beforeEach(() => (temp = makeTempDir('strata-envsearch-')));
afterEach(() => temp.remove());

describe.each([
  ['SQLite', (dir: string) => openSqliteArchive(join(dir, 'a.sqlite'))],
  ['JSON Lines', (dir: string) => openJsonlArchive(join(dir, 'a.jsonl'))],
])('the %s archive search', (_name, open) => {
  it('does not find words only the environment block holds, and its snippets leave the block out', () => {
    const archive = open(temp.dir);
    try {
      archive.put(exchange);
      expect(archive.searchAll('wombat', 10)).toEqual([]);
      const hits = archive.searchAll('quokka', 10);
      expect(hits).toHaveLength(1);
      expect(hits[0]!.snippet).toMatch(/quokka/i);
      expect(hits[0]!.snippet).not.toMatch(/environment|Open files|wombat/);
    } finally {
      archive.close();
    }
  });
});
