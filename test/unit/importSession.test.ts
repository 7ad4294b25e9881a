import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readImportedSession } from '../../src/adapters/importedSessionReader';
import { openJsonlArchive } from '../../src/adapters/jsonlArchiveStore';
import { openSqliteArchive } from '../../src/adapters/sqliteArchiveStore';
import { createTiktokenTokenizer } from '../../src/adapters/tiktokenTokenizer';
import type { Logger } from '../../src/engine/ports';
import { StrataError } from '../../src/engine/ports';
import { ContextEngine } from '../../src/engine/contextEngine';
import { ExtractiveSummarizer } from '../../src/engine/extractiveSummarizer';
import { importSessions, NO_ANSWER } from '../../src/host/importSession';
import { resolveEngineSettings } from '../../src/shared/engineSettings';
import { useTempDirs } from '../support/tempDirs';

const FIXTURES = join(__dirname, '..', 'fixtures', 'import');
const CLAUDE_FILE = join(FIXTURES, 'claude-code', '-home-dev-calc', '0b6c4a52-7a1e-4c39-9d7e-1f2a3b4c5d6e.jsonl');
const CLINE_TASKS = join(FIXTURES, 'cline', 'tasks');

const tempDir = useTempDirs('strata-import-');

const logger: Logger = { info: () => {}, warn: () => {}, error: () => {} };
/** One tokenizer for every import here (building one is the slow part); no import feeds it usage. */
const tokenizer = createTiktokenTokenizer();

/** Every exchange of every session in the archive at `path`, by session. */
function archived(path: string) {
  const archive = openSqliteArchive(path);
  try {
    return archive.listSessions().map((id) => ({
      id,
      info: archive.sessionInfo(id),
      exchanges: Array.from({ length: archive.lastSeq(id) }, (_, i) => archive.get(id, i + 1)!),
      hits: archive.search(id, 'divide', 5).length,
    }));
  } finally {
    archive.close();
  }
}

describe('importSessions into a real SQLite archive', () => {
  it('archives a Claude Code transcript as a new session: its exchanges verbatim, ids from e1, real times, title and source', async () => {
    const archivePath = join(tempDir(), 'archive.sqlite');
    const result = await importSessions(CLAUDE_FILE, { archivePath, logger, tokenizer });
    expect(result.failed).toEqual([]);
    const parsed = readImportedSession({ path: CLAUDE_FILE, format: 'claude-code' });
    const answers = parsed.messages.filter((m) => m.role === 'assistant').length;
    expect(result.imported).toHaveLength(1);
    const imported = result.imported[0]!;
    expect(imported).toMatchObject({ exchanges: answers, unarchived: 0, title: 'Fix the failing test in src/math.test.ts' });
    expect(imported.sessionId).toMatch(/^s-\d{4}-\d\d-\d\d-[0-9a-f]{8}$/);
    expect(imported.problems).toEqual(expect.arrayContaining(parsed.problems));
    const [session] = archived(archivePath);
    expect(session!.id).toBe(imported.sessionId);
    expect(session!.info).toEqual({ title: imported.title, source: `claude-code:${CLAUDE_FILE}` });
    expect(session!.exchanges.map((e) => e.seq)).toEqual(Array.from({ length: answers }, (_, i) => i + 1));
    expect(session!.exchanges.flatMap((e) => e.full)).toEqual(parsed.messages);
    expect(session!.exchanges[0]!.createdAt).toBe(Date.parse('2026-11-20T10:00:01.000Z'));
    expect(session!.exchanges.every((e) => e.header.length > 0 && e.summary.length > 0)).toBe(true);
    expect(session!.hits).toBeGreaterThan(0);
  });

  it('a chat reopened on the imported session continues its ids after the imported exchanges', async () => {
    const archivePath = join(tempDir(), 'archive.sqlite');
    const { imported } = await importSessions(CLAUDE_FILE, { archivePath, logger, tokenizer });
    const { sessionId, exchanges } = imported[0]!;
    const before = archived(archivePath)[0]!.exchanges;
    const archive = openSqliteArchive(archivePath);
    const engine = new ContextEngine({ sessionId, settings: resolveEngineSettings({}), tokenizer, archive, summarizer: new ExtractiveSummarizer(tokenizer), clock: { now: () => Date.UTC(2026, 10, 22) }, logger, systemPrompt: 'You are a test agent.' });
    engine.beginExchange({ role: 'user', content: [{ type: 'text', text: 'Does divide handle zero?' }] });
    await engine.assemble();
    engine.completeExchange({ role: 'assistant', content: [{ type: 'text', text: 'It throws on zero.' }] });
    engine.close();
    const after = archived(archivePath)[0]!.exchanges;
    expect(after.map((e) => e.seq)).toEqual(Array.from({ length: exchanges + 1 }, (_, i) => i + 1));
    expect(after.slice(0, exchanges)).toEqual(before);
    expect(after[exchanges]!.full[0]).toEqual({ role: 'user', content: [{ type: 'text', text: 'Does divide handle zero?' }] });
  });

  it('importing the same file twice makes two sessions, the first left as it was', async () => {
    const archivePath = join(tempDir(), 'archive.sqlite');
    const first = await importSessions(CLAUDE_FILE, { archivePath, logger, tokenizer });
    const before = archived(archivePath);
    const second = await importSessions(CLAUDE_FILE, { archivePath, logger, tokenizer });
    const after = archived(archivePath);
    expect(second.imported[0]!.sessionId).not.toBe(first.imported[0]!.sessionId);
    expect(after.map((s) => s.id).sort()).toEqual([first.imported[0]!.sessionId, second.imported[0]!.sessionId].sort());
    expect(after.find((s) => s.id === first.imported[0]!.sessionId)).toEqual(before[0]);
    expect(after.find((s) => s.id === second.imported[0]!.sessionId)!.exchanges.map((e) => e.full)).toEqual(before[0]!.exchanges.map((e) => e.full));
  });

  it('a folder imports every session in it; one unreadable file fails alone', async () => {
    const dir = tempDir();
    cpSync(CLINE_TASKS, dir, { recursive: true });
    cpSync(CLAUDE_FILE, join(dir, 'session.jsonl'));
    writeFileSync(join(dir, 'broken.jsonl'), 'not json at all\n');
    writeFileSync(join(dir, 'agent-5e1f2a3b.jsonl'), 'a subagent transcript is never imported on its own\n');
    const archivePath = join(tempDir(), 'archive.sqlite');
    const seen: string[] = [];
    const result = await importSessions(dir, { archivePath, logger, tokenizer, onSession: (s, i, n) => seen.push(`${i}/${n} ${s.format}`) });
    expect(seen).toEqual(['1/4 cline', '2/4 cline', '3/4 claude-code', '4/4 claude-code']);
    expect(result.imported.map((s) => [s.source.format, s.title])).toEqual([
      ['cline', 'Add a --verbose flag to the CLI'],
      ['cline', 'Rename the helper to formatDate'],
      ['claude-code', 'Fix the failing test in src/math.test.ts'],
    ]);
    expect(result.failed.map((f) => f.source.path)).toEqual([join(dir, 'broken.jsonl')]);
    expect(result.failed[0]!.error).toContain('broken.jsonl:1: not valid JSON');
    expect(archived(archivePath).map((s) => s.exchanges.length)).toEqual(result.imported.map((s) => s.exchanges));
  });

  it('--from limits a folder to one format', async () => {
    const dir = tempDir();
    cpSync(CLINE_TASKS, dir, { recursive: true });
    cpSync(CLAUDE_FILE, join(dir, 'session.jsonl'));
    const result = await importSessions(dir, { archivePath: join(dir, 'a.sqlite'), logger, tokenizer, from: 'claude-code' });
    expect(result.imported.map((s) => s.source.format)).toEqual(['claude-code']);
  });

  it('a transcript ending on an input archives it with a marked answer, and says so', async () => {
    const dir = tempDir();
    const file = join(dir, 'open.json');
    writeFileSync(file, JSON.stringify([{ role: 'user', content: 'first' }, { role: 'assistant', content: 'one' }, { role: 'user', content: 'still waiting' }]));
    const archivePath = join(dir, 'archive.sqlite');
    const result = await importSessions(file, { archivePath, logger, tokenizer });
    expect(result.imported[0]!.exchanges).toBe(2);
    expect(result.imported[0]!.problems).toContain(`the transcript ends on an input without an answer; archived with the answer "${NO_ANSWER}"`);
    expect(archived(archivePath)[0]!.exchanges[1]!.full).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'still waiting' }] },
      { role: 'assistant', content: [{ type: 'text', text: NO_ANSWER }] },
    ]);
  });

  it('nothing to import, or a file of unknown format, is a StrataError that says what to do', async () => {
    const dir = tempDir();
    const archivePath = join(dir, 'archive.sqlite');
    await expect(importSessions(join(dir, 'missing.jsonl'), { archivePath, logger, tokenizer })).rejects.toThrow(/Nothing to import at .*missing\.jsonl/);
    mkdirSync(join(dir, 'empty'));
    await expect(importSessions(join(dir, 'empty'), { archivePath, logger, tokenizer })).rejects.toThrow(/holds no session to import/);
    writeFileSync(join(dir, 'notes.txt'), 'hello');
    const error = await importSessions(join(dir, 'notes.txt'), { archivePath, logger, tokenizer }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StrataError);
    expect((error as StrataError).message).toContain('--from claude-code or --from cline');
  });
});

describe('importSessions into the plain-file fallback archive (SQLite not loadable in the editor)', () => {
  it('archives the transcript in the JSON Lines store the chat uses, readable and searchable after reopening', async () => {
    const archivePath = join(tempDir(), 'archive.jsonl');
    const result = await importSessions(CLAUDE_FILE, { archivePath, openArchive: openJsonlArchive, logger, tokenizer });
    expect(result.failed).toEqual([]);
    const imported = result.imported[0]!;
    const parsed = readImportedSession({ path: CLAUDE_FILE, format: 'claude-code' });
    expect(imported.exchanges).toBe(parsed.messages.filter((m) => m.role === 'assistant').length);
    const archive = openJsonlArchive(archivePath);
    try {
      expect(archive.listSessions()).toEqual([imported.sessionId]);
      expect(archive.lastSeq(imported.sessionId)).toBe(imported.exchanges);
      expect(JSON.stringify(archive.get(imported.sessionId, 1)!.full)).toContain('Fix the failing test in src/math.test.ts');
      expect(archive.search(imported.sessionId, 'divide', 5).length).toBeGreaterThan(0);
    } finally {
      archive.close();
    }
  });
});
