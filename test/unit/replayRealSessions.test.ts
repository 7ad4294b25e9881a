import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveEngineSettings } from '../../src/shared/engineSettings';
import { requestProblems } from '../../src/engine/requestValidity';
import { openSqliteArchive } from '../../src/adapters/sqliteArchiveStore';
import { readSessionFile } from '../../src/adapters/sessionFileReader';
import { createTiktokenTokenizer } from '../../src/adapters/tiktokenTokenizer';
import { makeTempDir } from '../../src/adapters/tempFiles';
import { replaySession } from '../../src/host/replaySession';
import type { ReplayTurn } from '../../src/host/replaySession';
import { silentLogger } from '../support/engineHarness';
import { sharedSessionFiles } from '../support/sharedSessions';

describe('replay on every shared real session (default settings, real tokenizer, real SQLite file)', () => {
  const tokenizer = createTiktokenTokenizer();
  for (const file of sharedSessionFiles()) {
    it(`${basename(file)}: one request per answer, every request and layer within budget, all valid API bodies`, async () => {
      const session = readSessionFile(file);
      const temp = makeTempDir('strata-test-');
      const archive = openSqliteArchive(`${temp.dir}/a.sqlite`);
      const turns: ReplayTurn[] = [];
      try {
        const result = await replaySession(session, basename(file), resolveEngineSettings(), { tokenizer, archive, logger: silentLogger }, (t) => turns.push(t));
        const answers = session.messages.filter((m) => m.role === 'assistant').length;
        expect(result.turns).toBe(answers);
        expect(turns.length).toBe(answers);
        for (const t of turns) {
          expect(t.assembled.tokens).toBeLessThanOrEqual(t.assembled.budget);
          expect(requestProblems(t.assembled.request)).toEqual([]);
          for (const layer of t.assembled.usage.layers) {
            if (['L0', 'L2', 'L3', 'L4'].includes(layer.layer)) expect(layer.used, `${layer.layer} on turn ${t.turn}`).toBeLessThanOrEqual(layer.budget);
          }
        }
        expect(archive.lastSeq(basename(file))).toBe(answers);
      } finally {
        archive.close();
        temp.remove();
      }
    });
  }
});
