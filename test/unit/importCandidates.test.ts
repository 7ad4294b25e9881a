import { cpSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claudeCodeHead, claudeCodeProjectsDir, clineHeadTitle, clineTasksDir, listClaudeCodeSessions, listClineTasks } from '../../src/adapters/importCandidates';
import { useTempDirs } from '../support/tempDirs';

const FIXTURES = join(__dirname, '..', 'fixtures', 'import');
const CLAUDE_PROJECT = join(FIXTURES, 'claude-code', '-home-dev-calc');
const CLAUDE_NAME = '0b6c4a52-7a1e-4c39-9d7e-1f2a3b4c5d6e.jsonl';
const CLINE_TASKS = join(FIXTURES, 'cline', 'tasks');

const tempDir = useTempDirs('strata-candidates-');

/** Sets a file's modification time, in seconds since epoch. */
const touch = (path: string, seconds: number) => utimesSync(path, seconds, seconds);

describe('listClaudeCodeSessions', () => {
  it('lists <project>/<session>.jsonl newest first with the first query and the working folder, leaving out subagent files', async () => {
    const root = tempDir();
    mkdirSync(join(root, '-home-dev-calc'));
    mkdirSync(join(root, '-home-dev-web'));
    cpSync(join(CLAUDE_PROJECT, CLAUDE_NAME), join(root, '-home-dev-calc', CLAUDE_NAME));
    writeFileSync(join(root, '-home-dev-web', 'b.jsonl'), '{"type":"user","uuid":"u","parentUuid":null,"cwd":"/home/dev/web","message":{"role":"user","content":"Why is the build slow?"}}\n');
    writeFileSync(join(root, '-home-dev-web', 'agent-1234abcd.jsonl'), '{"type":"user","isSidechain":true,"message":{"role":"user","content":"sub"}}\n');
    writeFileSync(join(root, '-home-dev-web', 'notes.txt'), 'not a session');
    touch(join(root, '-home-dev-calc', CLAUDE_NAME), 1_700_000_000);
    touch(join(root, '-home-dev-web', 'b.jsonl'), 1_700_000_500);
    const list = await listClaudeCodeSessions(root);
    expect(list.map((c) => [c.title, c.project, c.format, c.modifiedAt])).toEqual([
      ['Why is the build slow?', '/home/dev/web', 'claude-code', 1_700_000_500_000],
      ['Fix the failing test in src/math.test.ts', '/home/dev/calc', 'claude-code', 1_700_000_000_000],
    ]);
    expect(list[1]!.path).toBe(join(root, '-home-dev-calc', CLAUDE_NAME));
  });

  it('a missing folder lists nothing; a session without a query says so', async () => {
    const root = tempDir();
    expect(await listClaudeCodeSessions(join(root, 'none'))).toEqual([]);
    mkdirSync(join(root, 'p'));
    writeFileSync(join(root, 'p', 's.jsonl'), '{"type":"summary","summary":"x","leafUuid":"y"}\n');
    expect((await listClaudeCodeSessions(root)).map((c) => [c.title, c.project])).toEqual([['(no query)', 'p']]);
  });

  it('reads only whole lines of a head that cuts the file', () => {
    const text = readFileSync(join(CLAUDE_PROJECT, CLAUDE_NAME), 'utf8');
    const cut = text.indexOf('"Fix the failing') + 5;
    expect(claudeCodeHead(text.slice(0, cut), false, 'f')).toEqual({});
    const afterFirst = text.indexOf('\n', cut) + 20;
    expect(claudeCodeHead(text.slice(0, afterFirst), false, 'f')).toEqual({ title: 'Fix the failing test in src/math.test.ts', cwd: '/home/dev/calc' });
  });
});

describe('listClineTasks', () => {
  it('lists task folders holding a history, newest first, titled by their <task>', async () => {
    const root = tempDir();
    cpSync(CLINE_TASKS, root, { recursive: true });
    mkdirSync(join(root, '1732300000000'));
    touch(join(root, '1732280000000', 'api_conversation_history.json'), 1_732_290_000);
    touch(join(root, '1732290000000', 'api_conversation_history.json'), 1_732_280_000);
    const list = await listClineTasks(root);
    expect(list.map((c) => [c.title, c.format, c.path])).toEqual([
      ['Add a --verbose flag to the CLI', 'cline', join(root, '1732280000000', 'api_conversation_history.json')],
      ['Rename the helper to formatDate', 'cline', join(root, '1732290000000', 'api_conversation_history.json')],
    ]);
  });

  it('finds the first query in a head cut anywhere, escapes decoded', () => {
    const full = JSON.stringify([{ role: 'user', content: [{ type: 'text', text: '<task>\nSay "hi" \u00e9\u00e8 twice\n</task>' }] }]);
    expect(clineHeadTitle(full)).toBe('Say "hi" éè twice');
    const cut = full.indexOf('twice') + 2;
    expect(clineHeadTitle(full.slice(0, cut))).toBe('Say "hi" éè tw');
    expect(clineHeadTitle(JSON.stringify([{ role: 'user', content: 'plain \\u00e9 query' }]))).toBe('plain \\u00e9 query');
    expect(clineHeadTitle('[{"role":"user","content":"a\\u00')).toBe('a');
    expect(clineHeadTitle('[]')).toBeUndefined();
  });
});

describe('where the sessions live', () => {
  it("Claude Code: $CLAUDE_CONFIG_DIR/projects, else ~/.claude/projects; Cline: beside this extension's global storage", () => {
    expect(claudeCodeProjectsDir({}, '/home/u')).toBe(join('/home/u', '.claude', 'projects'));
    expect(claudeCodeProjectsDir({ CLAUDE_CONFIG_DIR: '/cfg' }, '/home/u')).toBe(join('/cfg', 'projects'));
    expect(clineTasksDir('/data/User/globalStorage/strata.strata')).toBe(join('/data/User/globalStorage', 'saoudrizwan.claude-dev', 'tasks'));
  });
});
