import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLINE_HISTORY_FILE, findImportSources, readImportedSession } from '../../src/adapters/importedSessionReader';
import { readSessionFile } from '../../src/adapters/sessionFileReader';
import { thrown } from '../support/thrown';
import { useTempDirs } from '../support/tempDirs';

/** What `strata import` finds at a path, how it tells a file's format, and the errors a bad path gives. */
const FIXTURES = join(__dirname, '..', 'fixtures', 'import');
const CLAUDE_FILE = join(FIXTURES, 'claude-code', '-home-dev-calc', '0b6c4a52-7a1e-4c39-9d7e-1f2a3b4c5d6e.jsonl');
const CLINE_TASK = join(FIXTURES, 'cline', 'tasks', '1732280000000');

const tempDir = useTempDirs('strata-import-sources-');
const CLAUDE_LINE = '{"type":"user","uuid":"u","parentUuid":null,"message":{"role":"user","content":"hi"}}\n';
/** A path component longer than any file system allows: stat fails with ENAMETOOLONG, not ENOENT. */
const tooLong = (dir: string) => join(dir, 'x'.repeat(300));

describe('findImportSources: one file', () => {
  it('a transcript is Claude Code when its first line is an object with a "type", after a BOM and blank lines', () => {
    const dir = tempDir();
    const path = join(dir, 'session.txt');
    writeFileSync(path, `\uFEFF\n  \n${CLAUDE_LINE}`);
    expect(findImportSources(path)).toEqual([{ path, format: 'claude-code' }]);
  });

  it('a JSON array, or a file named as Cline names its history whatever it holds, is Cline', () => {
    const dir = tempDir();
    const array = join(dir, 'history.json');
    writeFileSync(array, '\n [{"role":"user","content":"hi"}]');
    expect(findImportSources(array)).toEqual([{ path: array, format: 'cline' }]);
    const named = join(dir, CLINE_HISTORY_FILE);
    writeFileSync(named, '{"not": "an array"}');
    expect(findImportSources(named)).toEqual([{ path: named, format: 'cline' }]);
  });

  it('an object without "type" on its first line cannot be told, and the error says how to force it', () => {
    const dir = tempDir();
    const path = join(dir, 'other.jsonl');
    writeFileSync(path, '{"role":"user"}\n{"type":"user"}\n');
    const error = thrown(() => findImportSources(path));
    expect(error.code).toBe('session_format');
    expect(error.message).toContain(path);
    expect(error.message).toContain('Give --from claude-code or --from cline.');
    expect(findImportSources(path, 'claude-code')).toEqual([{ path, format: 'claude-code' }]);
    expect(findImportSources(path, 'cline')).toEqual([{ path, format: 'cline' }]);
    const prose = join(dir, 'notes.jsonl');
    writeFileSync(prose, 'a note on the "type": field\n');
    expect(thrown(() => findImportSources(prose)).code).toBe('session_format');
  });
});

describe('findImportSources: folders', () => {
  it('a Cline task folder is its history file; --from claude-code finds nothing in it', () => {
    expect(findImportSources(CLINE_TASK)).toEqual([{ path: join(CLINE_TASK, CLINE_HISTORY_FILE), format: 'cline' }]);
    expect(findImportSources(CLINE_TASK, 'claude-code')).toEqual([]);
    expect(findImportSources(CLINE_TASK, 'cline')).toEqual([{ path: join(CLINE_TASK, CLINE_HISTORY_FILE), format: 'cline' }]);
  });

  it('any other folder gives its transcripts and task folders by path, not subagent files, other files or plain folders', () => {
    const dir = tempDir();
    for (const name of ['d-task', 'c-plain', 'b-folder.jsonl', join('c-plain', CLINE_HISTORY_FILE)]) mkdirSync(join(dir, name));
    cpSync(join(CLINE_TASK, CLINE_HISTORY_FILE), join(dir, 'd-task', CLINE_HISTORY_FILE));
    for (const name of ['e.jsonl', 'a.jsonl', 'agent-1.jsonl', 'notes.txt', 'f.json']) writeFileSync(join(dir, name), CLAUDE_LINE);
    const claude = [{ path: join(dir, 'a.jsonl'), format: 'claude-code' }, { path: join(dir, 'e.jsonl'), format: 'claude-code' }];
    const cline = [{ path: join(dir, 'd-task', CLINE_HISTORY_FILE), format: 'cline' }];
    expect(findImportSources(dir)).toEqual([claude[0], cline[0], claude[1]]);
    expect(findImportSources(dir, 'claude-code')).toEqual(claude);
    expect(findImportSources(dir, 'cline')).toEqual(cline);
  });

  it('a folder with nothing of the format asked for says so, naming the folder and the format', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'a.jsonl'), CLAUDE_LINE);
    const error = thrown(() => findImportSources(dir, 'cline'));
    expect(error.code).toBe('session_missing');
    expect(error.message).toMatch(new RegExp(`^${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} holds no session to import in the cline format: `));
    const empty = join(dir, 'empty');
    mkdirSync(empty);
    expect(thrown(() => findImportSources(empty)).message).toMatch(/holds no session to import: no Claude Code transcript/);
  });
});

describe('findImportSources and readImportedSession: paths that are not there or cannot be read', () => {
  it('a missing path, or one under a file, is session_missing; a path the system refuses is session_unreadable with its cause', () => {
    const dir = tempDir();
    const file = join(dir, 'file.jsonl');
    writeFileSync(file, CLAUDE_LINE);
    for (const path of [join(dir, 'none'), join(file, 'child')]) {
      expect(thrown(() => findImportSources(path))).toMatchObject({ code: 'session_missing', message: `Nothing to import at ${path}: no such file or folder.` });
      expect(thrown(() => readImportedSession({ path, format: 'claude-code' }))).toMatchObject({ code: 'session_missing', message: `Nothing to import at ${path}: no such file.` });
    }
    const long = tooLong(dir);
    expect(thrown(() => findImportSources(long))).toMatchObject({ code: 'session_unreadable', message: `Cannot read ${long} (ENAMETOOLONG).` });
    expect(thrown(() => readImportedSession({ path: dir, format: 'cline' }))).toMatchObject({ code: 'session_unreadable', message: `Cannot read the session ${dir} (EISDIR).` });
  });

  it('a pipe is neither a session file nor a folder of them: session_missing, saying what to give', () => {
    const fifo = join(tempDir(), 'pipe');
    execFileSync('mkfifo', [fifo]);
    expect(thrown(() => findImportSources(fifo))).toMatchObject({ code: 'session_missing', message: `Nothing to import at ${fifo}: it is neither a file nor a folder (a pipe, a socket or a device). Give a session file or a folder of sessions.` });
  });

  it('reads a source in the format it names, decoding problems first', () => {
    const claude = readImportedSession({ path: CLAUDE_FILE, format: 'claude-code' });
    expect(claude.messages[0]?.role).toBe('user');
    expect(claude.meta.cwd).toBe('/home/dev/calc');
    const cline = readImportedSession({ path: join(CLINE_TASK, CLINE_HISTORY_FILE), format: 'cline' });
    expect(cline.meta.title).toBe('Add a --verbose flag to the CLI');
    expect(() => readImportedSession({ path: CLAUDE_FILE, format: 'cline' })).toThrow(CLAUDE_FILE);
    const dir = tempDir();
    const path = join(dir, 'bad.jsonl');
    writeFileSync(path, Buffer.concat([Buffer.from(CLAUDE_LINE), Buffer.from('{"type":"user","message":{"role":"user","content":"x'), Buffer.from([0xc3]), Buffer.from('"}}\nnot json\n')]));
    const read = readImportedSession({ path, format: 'claude-code' });
    expect(read.problems[0]).toContain('invalid UTF-8');
    expect(read.problems.length).toBeGreaterThan(1);
  });
});

describe('readSessionFile: paths that are not there or cannot be read', () => {
  it('a path under a file is session_missing; a path the system refuses is session_unreadable with its cause', () => {
    const dir = tempDir();
    const file = join(dir, 'file.jsonl');
    writeFileSync(file, CLAUDE_LINE);
    const under = join(file, 'child');
    expect(thrown(() => readSessionFile(under))).toMatchObject({ code: 'session_missing', message: `Session file not found: ${under}. Check the path; a session is a .jsonl file.` });
    const long = tooLong(dir);
    expect(thrown(() => readSessionFile(long))).toMatchObject({ code: 'session_unreadable', message: `Cannot read the session file ${long} (ENAMETOOLONG).` });
  });
});
