import { describe, expect, it } from 'vitest';
import { resolveEngineSettings } from '../../src/shared/engineSettings';
import { parseSessionText } from '../../src/shared/sessionSchema';
import { openSqliteArchive } from '../../src/adapters/sqliteArchiveStore';
import { createTiktokenTokenizer } from '../../src/adapters/tiktokenTokenizer';
import { makeTempDir } from '../../src/adapters/tempFiles';
import { replaySession } from '../../src/host/replaySession';
import type { ReplayTurn } from '../../src/host/replaySession';
import { drive, makeEngine, silentLogger, syntheticSession } from '../support/engineHarness';

describe('bad and extreme inputs end to end', () => {
  it('replays a session with a 50 MB tool result within budget and archives it whole', async () => {
    const huge = 'x'.repeat(10_000) + '\n' + 'log line with some words in it\n'.repeat(1_600_000);
    const lines = [
      JSON.stringify({ meta: { system: 'agent' } }),
      JSON.stringify({ role: 'user', content: 'Look at the build log.' }),
      JSON.stringify({ role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'cat build.log' } }] }),
      JSON.stringify({ role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: huge }] }),
      JSON.stringify({ role: 'assistant', content: [{ type: 'text', text: 'The log repeats one line.' }] }),
    ];
    const session = parseSessionText(lines.join('\n'), 'huge.jsonl');
    const temp = makeTempDir('strata-huge-');
    const archive = openSqliteArchive(`${temp.dir}/a.sqlite`);
    const turns: ReplayTurn[] = [];
    try {
      await replaySession(session, 'huge', resolveEngineSettings(), { tokenizer: createTiktokenTokenizer(), archive, logger: silentLogger }, (t) => turns.push(t));
      expect(turns).toHaveLength(2);
      for (const t of turns) expect(t.assembled.tokens).toBeLessThanOrEqual(t.assembled.budget);
      const stored = archive.get('huge', 2)!;
      const result = stored.full[0]!.content[0]!;
      expect(result.type === 'tool_result' && result.content === huge).toBe(true);
    } finally {
      archive.close();
      temp.remove();
    }
  });

  it('runs a 10,000-exchange session: every request within budget, ids monotonic, headers capped', async () => {
    const { engine, archive } = makeEngine({ promptBudgetTokens: 8_000 });
    const turns = await drive(engine, syntheticSession(10_000, 8));
    expect(turns).toHaveLength(10_000);
    turns.forEach((t, i) => {
      expect(t.turn).toBe(i + 1);
      expect(t.tokens).toBeLessThanOrEqual(t.budget);
    });
    const context = turns[turns.length - 1]!.request.messages[0]!.content.find((b) => b.type === 'text' && b.text.startsWith('<strata_context>'));
    const headerLines = (context as { text: string }).text.split('## Recent summaries')[0]!.split('\n').filter((l) => /^e\d+/.test(l));
    expect(headerLines.length).toBeLessThanOrEqual(200);
    expect(archive.lastSeq('s1')).toBe(10_000);
  }, 120_000);
});
