import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { clineHeadTitle, listClaudeCodeSessions, listClineTasks } from '../../src/adapters/importCandidates';
import { CLINE_HISTORY_FILE } from '../../src/adapters/importedSessionReader';
import { useTempDirs } from '../support/tempDirs';

/** The import picker's list on what real folders also hold: long files, look-alike folders, equal times. */
const tempDir = useTempDirs('strata-candidates-edges-');
const touch = (path: string, seconds: number) => utimesSync(path, seconds, seconds);
const userLine = (text: string) => `${JSON.stringify({ type: 'user', uuid: 'u', parentUuid: null, cwd: '/w', message: { role: 'user', content: text } })}\n`;
/** A summary line of about `bytes` bytes: no query in it. */
const summaryLine = (bytes: number) => `${JSON.stringify({ type: 'summary', summary: 's'.repeat(bytes), leafUuid: 'x' })}\n`;
const HEAD_NOTE = /^\(no query in the first \d+ KB\)$/;

describe('listClaudeCodeSessions: long files and look-alikes', () => {
  it('a query past the part read is not searched for; the title says how much was read', async () => {
    const root = tempDir();
    mkdirSync(join(root, 'p'));
    const path = join(root, 'p', 'long.jsonl');
    writeFileSync(path, summaryLine(200_000) + userLine('late query'));
    const [candidate] = await listClaudeCodeSessions(root);
    expect(candidate?.title).toMatch(HEAD_NOTE);
    const kb = Number(/(\d+) KB/.exec(candidate!.title)![1]);
    expect(kb * 1024).toBeLessThan(200_000);
  });

  it('a query at the start of a long file is found, with its working folder', async () => {
    const root = tempDir();
    mkdirSync(join(root, 'p'));
    writeFileSync(join(root, 'p', 'long.jsonl'), userLine('early query') + summaryLine(200_000));
    expect((await listClaudeCodeSessions(root)).map((c) => [c.title, c.project])).toEqual([['early query', '/w']]);
  });

  it('a folder named like a transcript is not one; sessions of the same time are listed by path', async () => {
    const root = tempDir();
    mkdirSync(join(root, 'p'));
    mkdirSync(join(root, 'p', 'folder.jsonl'));
    for (const name of ['b.jsonl', 'a.jsonl', 'c.jsonl']) {
      writeFileSync(join(root, 'p', name), userLine(`query ${name}`));
      touch(join(root, 'p', name), 1_700_000_000);
    }
    expect((await listClaudeCodeSessions(root)).map((c) => c.title)).toEqual(['query a.jsonl', 'query b.jsonl', 'query c.jsonl']);
  });
});

describe('listClineTasks: long files and look-alikes', () => {
  it('a history with no query says so: "(no query)" when read whole, how much was read when not', async () => {
    const root = tempDir();
    for (const [task, text] of [
      ['1', '[]'],
      ['2', JSON.stringify([{ role: 'assistant', data: 'd'.repeat(200_000) }, { role: 'user', content: 'late' }])],
    ] as const) {
      mkdirSync(join(root, task));
      writeFileSync(join(root, task, CLINE_HISTORY_FILE), text);
      touch(join(root, task, CLINE_HISTORY_FILE), 1_700_000_000 + Number(task));
    }
    const titles = (await listClineTasks(root)).map((c) => c.title);
    expect(titles[0]).toMatch(HEAD_NOTE);
    expect(titles[1]).toBe('(no query)');
  });

  it('a task whose history is a folder is left out', async () => {
    const root = tempDir();
    mkdirSync(join(root, '1', CLINE_HISTORY_FILE), { recursive: true });
    expect(await listClineTasks(root)).toEqual([]);
  });

  it('a query with a broken escape far from the cut gives no title, not a garbled part of it', () => {
    expect(clineHeadTitle(`[{"role":"user","content":"ab\\x${'c'.repeat(20)}"}]`)).toBeUndefined();
  });
});
