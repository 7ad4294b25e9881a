import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveEngineSettings } from '../../src/shared/engineSettings';
import type { MessagesRequest } from '../../src/shared/messages';
import { openSqliteArchive } from '../../src/adapters/sqliteArchiveStore';
import { readSessionFile } from '../../src/adapters/sessionFileReader';
import { createTiktokenTokenizer } from '../../src/adapters/tiktokenTokenizer';
import { makeTempDir } from '../../src/adapters/tempFiles';
import { replaySession } from '../../src/cli/replaySession';
import type { ReplayTurn } from '../../src/cli/replaySession';
import { silentLogger } from '../support/engineHarness';
import { sharedSessionFiles } from '../support/sharedSessions';

/** API rules a request must satisfy or Anthropic rejects it. */
function apiProblems(request: MessagesRequest): string[] {
  const problems: string[] = [];
  const msgs = request.messages;
  if (msgs[0]?.role !== 'user') problems.push('first message is not the user');
  let marks = request.system.filter((b) => b.cache_control).length;
  msgs.forEach((m, i) => {
    if (i > 0 && m.role === msgs[i - 1]!.role) problems.push(`messages ${i - 1} and ${i} share a role`);
    if (m.content.length === 0) problems.push(`message ${i} is empty`);
    const uses = new Set((msgs[i - 1]?.content ?? []).flatMap((b) => (b.type === 'tool_use' ? [b.id] : [])));
    for (const b of m.content) {
      if (b.cache_control) marks += 1;
      if (b.type === 'text' && b.text.trim() === '') problems.push(`message ${i} has an empty text block`);
      if (b.type === 'tool_result' && !uses.has(b.tool_use_id)) problems.push(`message ${i} has a tool_result without its tool_use`);
    }
  });
  if (marks > 4) problems.push(`${marks} cache breakpoints (max 4)`);
  return problems;
}

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
          expect(apiProblems(t.assembled.request)).toEqual([]);
          for (const layer of t.assembled.usage.layers) {
            if (['L0', 'L2', 'L3', 'L4'].includes(layer.layer)) expect(layer.used, `${layer.layer} on turn ${t.turn}`).toBeLessThanOrEqual(layer.budget);
          }
        }
        expect(result.unarchived).toBe(0);
        // replaySession closed the engine and its archive: what it holds is read back from the file.
        const reopened = openSqliteArchive(`${temp.dir}/a.sqlite`);
        expect(reopened.lastSeq(basename(file))).toBe(answers);
        reopened.close();
      } finally {
        archive.close();
        temp.remove();
      }
    });
  }
});
