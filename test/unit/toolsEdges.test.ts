import { mkdirSync, readFileSync, statSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { StrataError } from '../../src/shared/strataError';
import { runToolCall } from '../../src/task/tools/runToolCall';
import { NodeWorkspace } from '../../src/adapters/nodeWorkspace';
import type { CommandResult, DirEntry } from '../../src/task/workspacePort';
import { makeToolFixture } from '../support/toolWorkspace';
import type { ToolFixture } from '../support/toolWorkspace';

// The answers each workspace tool gives the model at its edges (missing, empty, wrong kind, too
// large, stopped), found by mutation testing (task-tools): each case pins one branch's text.

let fx: ToolFixture;
afterEach(() => fx?.remove());

const call = (name: string, input: unknown) => runToolCall({ name, input }, fx.ctx);

describe('edit_file edges', () => {
  it('a missing file, a folder, a binary file and an over-large file are refused, untouched', async () => {
    fx = makeToolFixture();
    const edit = (path: string) => call('edit_file', { path, edits: [{ search: 'a', replace: 'b' }] });
    expect(await edit('none.ts')).toEqual({ isError: true, text: "No file at 'none.ts'. Use write_file to create it." });
    mkdirSync(join(fx.root, 'dir'));
    expect(await edit('dir')).toEqual({ isError: true, text: "'dir' is a folder, not a file." });
    fx.write('bin.dat', 'a\0b');
    expect(await edit('bin.dat')).toEqual({ isError: true, text: "'bin.dat' is a binary file; edit_file works on text only." });
    expect(readFileSync(join(fx.root, 'bin.dat'), 'utf8')).toBe('a\0b');
    const big = fx.write('big.txt', 'a');
    truncateSync(big, 8 * 1024 * 1024 + 1);
    expect(await edit('big.txt')).toEqual({ isError: true, text: `'big.txt' is too large to edit here (${8 * 1024 * 1024 + 1} bytes); use a command such as sed.` });
    expect(statSync(big).size).toBe(8 * 1024 * 1024 + 1);
  });

  it('a file of exactly the 8 MB limit is still edited', async () => {
    fx = makeToolFixture();
    const path = fx.write('edge.txt', 'a');
    truncateSync(path, 8 * 1024 * 1024);
    const r = await call('edit_file', { path: 'edge.txt', edits: [{ search: 'a\0', replace: 'b\0' }] });
    // The NUL padding makes it binary: the size check passed, the binary check answered.
    expect(r.text).toBe("'edge.txt' is a binary file; edit_file works on text only.");
  });

  it('a file inside .git/ is never edited', async () => {
    fx = makeToolFixture();
    fx.write('.git/config', '[core]\n');
    expect(await call('edit_file', { path: '.git/config', edits: [{ search: '[core]', replace: '[x]' }] })).toEqual({ isError: true, text: "Refused: '.git/config' is inside .git/, which the tools never write; use git commands instead." });
    expect(readFileSync(join(fx.root, '.git/config'), 'utf8')).toBe('[core]\n');
  });

  it('one block applied is said in the singular', async () => {
    fx = makeToolFixture();
    fx.write('one.ts', 'let a = 1;\n');
    expect(await call('edit_file', { path: 'one.ts', edits: [{ search: 'a = 1', replace: 'a = 2' }] })).toEqual({ isError: false, text: 'Edited one.ts: 1 block applied (the file now has 2 lines).' });
  });
});

describe('write_file edges', () => {
  it('an empty file has 0 lines; replacing says so and gives the new size', async () => {
    fx = makeToolFixture();
    expect(await call('write_file', { path: 'e.txt', content: '' })).toEqual({ isError: false, text: 'Created e.txt (0 lines, 0 bytes).' });
    // The size is the file's bytes (two per é), not the text's characters.
    expect(await call('write_file', { path: 'e.txt', content: 'é'.repeat(1024) })).toEqual({ isError: false, text: 'Replaced e.txt (1 lines, 2.0 KB).' });
  });
});

describe('execute_command edges', () => {
  const result = (over: Partial<CommandResult>): CommandResult => ({ output: '', exitCode: 0, timedOut: false, aborted: false, truncated: false, omittedBytes: 0, ...over });
  const withRunner = (r: CommandResult) => {
    fx = makeToolFixture();
    fx.ctx.commands = { shell: '/bin/sh', run: async () => r };
  };

  it('a command that could not start', async () => {
    withRunner(result({ exitCode: null, startError: 'spawn /bin/sh ENOENT' }));
    expect(await call('execute_command', { command: 'ls' })).toEqual({ isError: true, text: 'The command could not start: spawn /bin/sh ENOENT.' });
  });

  it('no output, a cut output, a stop by the user and a kill by a signal', async () => {
    withRunner(result({ output: '\n \n' }));
    expect((await call('execute_command', { command: 'true' })).text).toBe('The command exited with code 0 (in .). Output:\n(no output)');
    fx.remove();
    withRunner(result({ output: '\n  head\n...tail\n\n', truncated: true, omittedBytes: 1234 }));
    expect((await call('execute_command', { command: 'x' })).text).toBe('The command exited with code 0 (in .). Output (1234 bytes cut from the middle):\n\n  head\n...tail');
    fx.remove();
    withRunner(result({ output: 'partial', exitCode: null, aborted: true }));
    expect(await call('execute_command', { command: 'sleep 9' })).toEqual({ isError: true, text: 'The user stopped the command (in .). Output so far:\npartial' });
    fx.remove();
    withRunner(result({ output: 'bye', exitCode: null }));
    expect(await call('execute_command', { command: 'kill -9 $$' })).toEqual({ isError: false, text: 'The command was killed by a signal (in .). Output:\nbye' });
  });

  it('a real command killed by a signal', async () => {
    fx = makeToolFixture();
    expect((await call('execute_command', { command: 'echo before; kill -9 $$' })).text).toBe('The command was killed by a signal (in .). Output:\nbefore');
  });
});

describe('list_files edges', () => {
  it('a missing folder, an empty one, and one holding only ignored entries', async () => {
    fx = makeToolFixture();
    expect(await call('list_files', { path: 'nowhere' })).toEqual({ isError: true, text: "No folder at 'nowhere'." });
    mkdirSync(join(fx.root, 'empty'));
    expect(await call('list_files', { path: 'empty' })).toEqual({ isError: false, text: 'empty is empty (or holds only ignored entries).' });
    fx.write('.gitignore', '*.log\n');
    fx.write('gen/out.log', '');
    expect((await call('list_files', { path: 'gen' })).text).toBe('gen is empty (or holds only ignored entries).');
    expect(await call('list_files', { path: '.gitignore' })).toEqual({ isError: true, text: "'.gitignore' is a file, not a folder; use read_file to read it." });
  });

  it('the entries come sorted, folders before their contents; a stopped listing says so with what it found, sorted', async () => {
    fx = makeToolFixture();
    for (const name of ['b/z.txt', 'b/a.txt', 'a.txt', 'c/d/e.txt']) fx.write(name, '');
    expect((await call('list_files', { recursive: true })).text).toBe('a.txt\nb/\nb/a.txt\nb/z.txt\nc/\nc/d/\nc/d/e.txt');
    // The user stops while the top folder is read; that folder's entries come back in reverse.
    let user = new AbortController();
    fx.ctx.signal = user.signal;
    class StoppedWhileListing extends NodeWorkspace {
      override async listDir(rel: string): Promise<DirEntry[]> {
        user.abort();
        return (await super.listDir(rel)).reverse();
      }
    }
    fx.ctx.workspace = new StoppedWhileListing(fx.root);
    expect(await call('list_files', { recursive: true })).toEqual({ isError: true, text: 'the user stopped the listing. Entries found before it stopped: 3.\na.txt\nb/\nc/' });
    class StoppedBeforeListing extends NodeWorkspace {
      override async stat(rel: string) {
        user.abort();
        return super.stat(rel);
      }
    }
    fx.ctx.signal = (user = new AbortController()).signal;
    fx.ctx.workspace = new StoppedBeforeListing(fx.root);
    expect(await call('list_files', {})).toEqual({ isError: true, text: 'the user stopped the listing. Entries found before it stopped: 0.' });
  });
});

describe('list_files: what the walk leaves out, and in what order it is cut', () => {
  it('.git is left out of the root, a folder-only ignore rule leaves a file of that name, an unreadable folder is skipped', async () => {
    fx = makeToolFixture();
    fx.write('.git/HEAD', 'ref');
    fx.write('.gitignore', 'out/\n');
    fx.write('out', 'a file, not a folder');
    fx.write('sub/x.txt', '');
    fx.write('locked/y.txt', '');
    class OneUnreadable extends NodeWorkspace {
      override async listDir(rel: string): Promise<DirEntry[]> {
        if (rel === 'locked') throw new Error('EACCES');
        return super.listDir(rel);
      }
    }
    fx.ctx.workspace = new OneUnreadable(fx.root);
    expect((await call('list_files', { recursive: true })).text).toBe('.gitignore\nlocked/\nout\nsub/\nsub/x.txt');
  });

  it('with the whole workspace mentioned, ignored entries are listed but .git still is not, unless the listing starts in it', async () => {
    fx = makeToolFixture({ mentioned: [''] });
    fx.write('.git/HEAD', 'ref');
    fx.write('.gitignore', '*.log\n');
    fx.write('run.log', '');
    expect((await call('list_files', { recursive: true })).text).toBe('.gitignore\nrun.log');
    expect((await call('list_files', { path: '.git' })).text).toBe('.git/HEAD');
  });

  it('the cap keeps the top levels: a file at the root survives a deep folder of 500 entries', async () => {
    fx = makeToolFixture();
    fx.write('z.txt', '');
    for (let i = 0; i < 510; i++) fx.write(`a/f${String(i).padStart(3, '0')}.txt`, '');
    const lines = (await call('list_files', { recursive: true })).text.split('\n');
    expect(lines).toContain('z.txt');
    expect(lines[0]).toBe('a/');
    expect(lines.at(-1)).toBe('[listing stopped at 500 entries: list a sub-folder to see more]');
  });
});

describe('read_file edges', () => {
  it('line ranges: only an end, one line, and a note when the asked end lies past the cap', async () => {
    fx = makeToolFixture();
    fx.write('l.txt', Array.from({ length: 2500 }, (_, i) => `l${i + 1}`).join('\n'));
    expect((await call('read_file', { path: 'l.txt', end_line: 2 })).text).toBe('l.txt (lines 1-2 of 2500)\n1 | l1\n2 | l2');
    expect((await call('read_file', { path: 'l.txt', start_line: 7, end_line: 7 })).text).toBe('l.txt (lines 7-7 of 2500)\n7 | l7');
    const capped = (await call('read_file', { path: 'l.txt', start_line: 1, end_line: 2400 })).text.split('\n');
    expect(capped[0]).toBe('l.txt (lines 1-2000 of 2500)');
    expect(capped.at(-1)).toBe('[more lines follow: read on with start_line 2001]');
  });

  it('a folder, an empty file, carriage returns, a long line, and a binary file with its size', async () => {
    fx = makeToolFixture();
    mkdirSync(join(fx.root, 'dir'));
    expect(await call('read_file', { path: 'dir' })).toEqual({ isError: true, text: "'dir' is a folder, not a file. Use list_files to see its contents." });
    fx.write('empty.txt', '');
    expect(await call('read_file', { path: 'empty.txt' })).toEqual({ isError: false, text: 'empty.txt is empty.' });
    fx.write('cr.txt', 'a\rb\r\nc\r\n');
    expect((await call('read_file', { path: 'cr.txt' })).text).toBe('cr.txt (lines 1-2 of 2)\n1 | a\rb\n2 | c');
    fx.write('wide.txt', `${'w'.repeat(2000)}\n${'v'.repeat(2500)}\n`);
    expect((await call('read_file', { path: 'wide.txt' })).text).toBe(`wide.txt (lines 1-2 of 2)\n1 | ${'w'.repeat(2000)}\n2 | ${'v'.repeat(2000)} [... 500 more characters]`);
    for (const [size, shown] of [[1023, '1023 bytes'], [1024, '1.0 KB'], [2048, '2.0 KB'], [1024 * 1024 - 1, '1024.0 KB'], [1024 * 1024, '1.0 MB']] as const) {
      const path = fx.write(`b${size}.bin`, '\0');
      truncateSync(path, size);
      expect((await call('read_file', { path: `b${size}.bin` })).text).toBe(`'b${size}.bin' is a binary file (${shown}); its content is not shown.`);
    }
  });
});

describe('read_file over a file above 1 MB (read by line range, chunk by chunk)', () => {
  /** Lines of 63 characters and a newline: `count` of them make `count * 64` bytes. */
  const lines = (count: number, from = 1) => Array.from({ length: count }, (_, i) => `${String(from + i).padStart(8, '0')}${'.'.repeat(55)}`);
  const MiB = 1024 * 1024;

  it('a file of exactly 1 MB is still read whole; a byte more needs a range', async () => {
    fx = makeToolFixture();
    fx.write('exact.txt', `${lines(MiB / 64).join('\n')}\n`);
    expect((await call('read_file', { path: 'exact.txt' })).text.split('\n')[0]).toBe('exact.txt (lines 1-2000 of 16384)');
    expect((await call('read_file', { path: 'exact.txt', start_line: 2, end_line: 3 })).text.split('\n')[0]).toBe('exact.txt (lines 2-3 of 16384)');
    fx.write('over.txt', `${lines(MiB / 64).join('\n')}\nx`);
    expect((await call('read_file', { path: 'over.txt' })).text).toMatch(/^'over\.txt' is 1\.0 MB, over the 1\.0 MB limit for reading a whole file\./);
    // Either end of a range is a range: only an end reads the start of the file.
    expect((await call('read_file', { path: 'over.txt', end_line: 1 })).text).toBe(`over.txt (lines 1-1 of a large file)\n1 | ${lines(1)[0]}`);
  });

  it('a range deep in it: the lines asked for, a line across a chunk edge whole, a split UTF-8 character kept, a lone CR kept', async () => {
    fx = makeToolFixture();
    // Line 1025 starts at byte 65536, the second chunk: make line 1024 cross the edge with a
    // two-byte character on it, and give line 1026 a carriage return in its middle.
    const body = lines(MiB / 64 + 100);
    body[1023] = `${'x'.repeat(63)}é`;
    body[1025] = `ab\rcd${'.'.repeat(58)}`;
    body[1026] = `crlf${'.'.repeat(59)}\r`;
    fx.write('big.txt', `${body.join('\n')}\n`);
    const r = await call('read_file', { path: 'big.txt', start_line: 1023, end_line: 1027 });
    expect(r).toEqual({ isError: false, text: `big.txt (lines 1023-1027 of a large file)\n1023 | ${body[1022]}\n1024 | ${'x'.repeat(63)}é\n1025 | ${body[1024]}\n1026 | ab\rcd${'.'.repeat(58)}\n1027 | crlf${'.'.repeat(59)}` });
  });

  it('the end of the file: its last line without a newline, and a start past the end', async () => {
    fx = makeToolFixture();
    const body = lines(MiB / 64 + 10);
    body[body.length - 1] = 'last\rline';
    fx.write('tail.txt', `${body.join('\n')}\r`);
    const total = body.length;
    expect((await call('read_file', { path: 'tail.txt', start_line: total })).text).toBe(`tail.txt (lines ${total}-${total} of ${total})\n${total} | last\rline`);
    expect((await call('read_file', { path: 'tail.txt', start_line: total - 1, end_line: total })).text).toBe(`tail.txt (lines ${total - 1}-${total} of ${total})\n${total - 1} | ${body[total - 2]}\n${total} | last\rline`);
    expect((await call('read_file', { path: 'tail.txt', start_line: total - 1 })).text).toBe(`tail.txt (lines ${total - 1}-${total} of ${total})\n${total - 1} | ${body[total - 2]}\n${total} | ${body[total - 1]}`);
    expect(await call('read_file', { path: 'tail.txt', start_line: total + 5 })).toEqual({ isError: true, text: `'tail.txt' has ${total} lines; start_line ${total + 5} is past its end.` });
  });

  it("a runaway line (no newline for 200,000 characters, across chunks) is shown cut, with the count of what was left out", async () => {
    fx = makeToolFixture();
    const body = lines(MiB / 64);
    const runaway = `${'r'.repeat(199_999)}z`;
    const lastRunaway = `${'q'.repeat(150_000)}\r`;
    fx.write('minified.txt', `${body.join('\n')}\n${runaway}\nafter\n${lastRunaway}`);
    const first = body.length + 1;
    const r = await call('read_file', { path: 'minified.txt', start_line: first });
    expect(r).toEqual({
      isError: false,
      text: `minified.txt (lines ${first}-${first + 2} of ${first + 2})\n${first} | ${'r'.repeat(2000)} [... 198000 more characters]\n${first + 1} | after\n${first + 2} | ${'q'.repeat(2000)} [... 148000 more characters]`,
    });
  });

  it('a read the user stops says how far the scan went', async () => {
    fx = makeToolFixture();
    fx.write('big.txt', `${lines(MiB / 64 + 10).join('\n')}\n`);
    const user = new AbortController();
    fx.ctx.signal = user.signal;
    class StopAfterFirstChunk extends NodeWorkspace {
      override async readBytes(rel: string, offset: number, length: number): Promise<Uint8Array> {
        if (offset > 0) user.abort();
        return super.readBytes(rel, offset, length);
      }
    }
    fx.ctx.workspace = new StopAfterFirstChunk(fx.root);
    // The sniff for a NUL reads at 0; the scan's second chunk (offset 65536) stops it.
    expect(await call('read_file', { path: 'big.txt', start_line: 5000 })).toEqual({ isError: true, text: "the user stopped the read: 'big.txt' (1.0 MB) was scanned to line 2048, short of line 5000. Find the lines you need with search_files, then read a range near them." });
  });
});

describe('search_files edges', () => {
  it('a missing path, and no match within a file pattern', async () => {
    fx = makeToolFixture();
    fx.write('a.ts', 'alpha\n');
    expect(await call('search_files', { regex: 'x', path: 'nope' })).toEqual({ isError: true, text: "No file or folder at 'nope'." });
    expect(await call('search_files', { regex: 'beta', file_pattern: '*.ts' })).toEqual({ isError: false, text: "No matches for /beta/ in '.' (files *.ts)." });
  });

  it('matches of one file stay together, a long line is cut at 300 characters, a capped search says so', async () => {
    fx = makeToolFixture();
    fx.write('a.txt', `hit one\nhit ${'x'.repeat(296)}\nhit ${'y'.repeat(297)}\n`);
    fx.write('b.txt', 'hit two\n');
    expect((await call('search_files', { regex: 'hit' })).text).toBe(`4 matches in 2 files\na.txt:1: hit one\na.txt:2: hit ${'x'.repeat(296)}\na.txt:3: hit ${'y'.repeat(296)} [...]\n\nb.txt:1: hit two`);
    fx.ctx.searcher = { search: async () => ({ matches: [{ path: 'a.txt', line: 1, text: 'hit one' }], truncated: true, engine: 'javascript' }) };
    expect((await call('search_files', { regex: 'hit' })).text).toBe('1 match in 1 file (stopped at 300: narrow the path, pattern or file_pattern)\na.txt:1: hit one');
  });

  it("a searcher's own failure is the tool's failure, named; a bad pattern is the model's to fix", async () => {
    fx = makeToolFixture();
    fx.ctx.searcher = { search: async () => { throw new Error('disk on fire'); } };
    expect(await call('search_files', { regex: 'x' })).toEqual({ isError: true, text: 'search_files failed: disk on fire' });
    fx.ctx.searcher = { search: async () => { throw new StrataError('The search pattern is not valid.', 'search-pattern'); } };
    expect(await call('search_files', { regex: 'x' })).toEqual({ isError: true, text: 'The search pattern is not valid.' });
  });
});
