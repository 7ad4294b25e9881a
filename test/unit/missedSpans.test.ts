import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveEngineSettings } from '../../src/shared/engineSettings';
import { readSessionFile } from '../../src/adapters/sessionFileReader';
import { benchSession } from '../../src/cli/bench/benchSession';
import { emptyMissedSpanReport, missedSpans, outputKind } from '../../src/cli/bench/missedSpans';
import { charTokenizer, silentLogger } from '../support/engineHarness';
import { MemoryArchive } from '../support/memoryArchive';

const SESSION = join(__dirname, '..', '..', 'bench', 'sessions', 'cc-deep-manifest-a7da6a22.jsonl');

describe('missedSpans: the spans the bench counts as missed, and where they came from', () => {
  it('finds exactly the spans the bench scores as missed, each with its source and age', async () => {
    const session = readSessionFile(SESSION);
    // a budget small enough that layering folds history away and spans go missing
    const settings = resolveEngineSettings({ contextWindow: 200_000, promptBudgetTokens: 12_000 });
    const ports = { tokenizer: charTokenizer, logger: silentLogger, openArchive: () => new MemoryArchive() };
    const bench = await benchSession(session, 's', settings, ports, () => undefined);
    const report = emptyMissedSpanReport();
    await missedSpans(session, 's', settings, ports, report);
    const { spanTotal, spanHit } = bench.strata.recall;
    expect(spanTotal - spanHit).toBeGreaterThan(0);
    expect(report.spans).toBe(spanTotal);
    expect(report.missed).toHaveLength(spanTotal - spanHit);
    for (const miss of report.missed) {
      expect(miss.ageTokens).toBeGreaterThan(0);
      expect(miss.kind).not.toBe('unknown');
    }
    expect(report.spendAll.turns).toBe(bench.strata.requests);
  });

  it('names outputs by what the engine can do with them', () => {
    expect(outputKind({ name: 'Read', input: { file_path: 'a.ts' } })).toBe('read');
    expect(outputKind({ name: 'Read', input: { file_path: 'a.ts', offset: 10, limit: 5 } })).toBe('read-part');
    expect(outputKind({ name: 'Edit', input: { file_path: 'a.ts', old_string: 'x', new_string: 'y' } })).toBe('edit');
    expect(outputKind({ name: 'bash', input: { command: "sed -n '1,80p' a.py" } })).toBe('sh:part of file');
    expect(outputKind({ name: 'Bash', input: { command: 'cd repo && git diff --stat' } })).toBe('sh:git diff');
    expect(outputKind({ name: 'Bash', input: { command: 'FOO=1 pytest -x' } })).toBe('sh:pytest');
    expect(outputKind({ name: 'Glob', input: { pattern: '**/*.ts' } })).toBe('glob');
    expect(outputKind(undefined)).toBe('unknown');
  });
});
