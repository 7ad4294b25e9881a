import { describe, expect, it } from 'vitest';
import { cleanTerminalOutput, redactSecrets, TerminalHistory } from '../../src/extension/terminalHistory';

/** One token per word: easy to reason about in a test, linear like the real counter. */
const words = (text: string) => text.split(/\s+/).filter((w) => w.length > 0).length;
const lines = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag} line ${i + 1}`).join('\r\n');

describe('cleanTerminalOutput', () => {
  it('removes colours, cursor moves, OSC titles and shell-integration marks; keeps the text', () => {
    const raw = '\u001b]633;C\u0007\u001b[1;31mError:\u001b[0m missing \u001b[2Kfile\r\n\u001b]0;title\u001b\\done\r\n';
    expect(cleanTerminalOutput(raw)).toBe('Error: missing file\ndone');
  });

  it('keeps the last state of a line rewritten with carriage returns (a progress bar)', () => {
    expect(cleanTerminalOutput('10%\r50%\r100%\r\nok\r\n\r\n')).toBe('100%\nok');
  });
});

describe('TerminalHistory', () => {
  it('is empty until a command ends', () => {
    expect(new TerminalHistory(words).text()).toBeUndefined();
  });

  it('shows each command with its exit code and output, oldest first, and keeps only the latest commands', () => {
    const h = new TerminalHistory(words, { commands: 2, linesPerCommand: 10, tokens: 1_000 });
    h.record({ command: 'npm ci', exitCode: 0, output: 'added 3 packages\r\n' });
    h.record({ command: 'npm test ', exitCode: 1, output: '\u001b[31mFAIL\u001b[0m a.test.ts\r\n' });
    h.record({ command: 'git status', output: 'clean\r\n' });
    expect(h.text()).toBe('$ npm test (exit 1)\nFAIL a.test.ts\n$ git status\nclean');
  });

  it("keeps a command's last lines and says how many went", () => {
    const h = new TerminalHistory(words, { commands: 3, linesPerCommand: 3, tokens: 1_000 });
    h.record({ command: 'make', exitCode: 2, output: lines(10, 'build') });
    expect(h.text()).toBe('$ make (exit 2)\n… 7 earlier lines\nbuild line 8\nbuild line 9\nbuild line 10');
  });

  it('keeps the whole tail within the token cap by dropping its oldest lines first', () => {
    const cap = 20;
    const h = new TerminalHistory(words, { commands: 3, linesPerCommand: 100, tokens: cap });
    h.record({ command: 'first', output: lines(10, 'old') });
    h.record({ command: 'second', exitCode: 0, output: lines(3, 'new') });
    const text = h.text()!;
    expect(words(text)).toBeLessThanOrEqual(cap);
    expect(text.endsWith('$ second (exit 0)\nnew line 1\nnew line 2\nnew line 3')).toBe(true);
    expect(text).not.toContain('$ first');
  });
});

describe('secrets never reach the tail (it goes to the model and into the archive)', () => {
  it('redacts secret-named assignments and known key formats, in the command line and the output', () => {
    expect(redactSecrets('export ANTHROPIC_API_KEY=sk-ant-api03-abcdefghijkl')).toBe('export ANTHROPIC_API_KEY=[redacted]');
    expect(redactSecrets('GITHUB_TOKEN: "ghp_0123456789abcdefghijABCDEFGHIJ" and password=hunter2')).toBe('GITHUB_TOKEN: [redacted] and password=[redacted]');
    expect(redactSecrets('found key sk-ant-api03-zzzzzzzzzzzz in config')).toBe('found key [redacted] in config');
    expect(redactSecrets('AWS AKIAABCDEFGHIJKLMNOP here')).toBe('AWS [redacted] here');
    expect(redactSecrets('npm test -- parser: 3 passed, tokenizer ok')).toBe('npm test -- parser: 3 passed, tokenizer ok');
  });

  it('keeps the command but not the output of a listing of the environment, and redacts what other commands print', () => {
    const history = new TerminalHistory((t) => t.length);
    history.record({ command: 'printenv', exitCode: 0, output: 'HOME=/home/dev\nANTHROPIC_API_KEY=sk-ant-api03-secretsecret\n' });
    history.record({ command: 'cat .env', exitCode: 0, output: 'DB_PASSWORD=s3cret\nPORT=8080\n' });
    const text = history.text()!;
    expect(text).toContain('$ printenv (exit 0)\n[output not recorded: it lists environment variables, which may hold secrets]');
    expect(text).toContain('DB_PASSWORD=[redacted]\nPORT=8080');
    expect(text).not.toMatch(/secretsecret|s3cret/);
  });
});

describe('cleanTerminalOutput: other escapes and rewritten lines', () => {
  it('removes charset and cursor escapes of two or three characters, keeping what follows them', () => {
    expect(cleanTerminalOutput('a\u001b(Bb')).toBe('ab');
    expect(cleanTerminalOutput('x\u001bM y')).toBe('x y');
  });

  it('keeps the last text of a line that ends in a carriage return', () => {
    expect(cleanTerminalOutput('building\rdone\r\nnext')).toBe('done\nnext');
    expect(cleanTerminalOutput('building\rdone\r')).toBe('done');
  });
});

describe('TerminalHistory: limits', () => {
  it('by default keeps the last three commands', () => {
    const h = new TerminalHistory(words);
    for (const n of [1, 2, 3, 4]) h.record({ command: `echo ${n}`, exitCode: 0, output: `${n}` });
    expect(h.text()).toBe('$ echo 2 (exit 0)\n2\n$ echo 3 (exit 0)\n3\n$ echo 4 (exit 0)\n4');
  });

  it('shows a command that printed nothing on one line', () => {
    const h = new TerminalHistory(words);
    h.record({ command: 'true', exitCode: 0, output: '\r\n' });
    expect(h.text()).toBe('$ true (exit 0)');
  });

  it('keeps a tail of exactly the cap whole, drops whole lines (an empty one too) above it, and nothing is left of a line alone above it', () => {
    const chars = (t: string) => t.length;
    const h = new TerminalHistory(chars, { commands: 3, linesPerCommand: 10, tokens: 8 });
    h.record({ command: 'ls', output: 'a\n\nbcdefghi' });
    // '$ ls', 'a' and the empty line go; the last line is 8 characters, the cap.
    expect(h.text()).toBe('bcdefghi');
    const exact = new TerminalHistory(chars, { commands: 3, linesPerCommand: 10, tokens: 7 });
    exact.record({ command: 'x', output: 'abc' });
    expect(exact.text()).toBe('$ x\nabc');
    const alone = new TerminalHistory(chars, { commands: 3, linesPerCommand: 10, tokens: 3 });
    alone.record({ command: 'a-long-command', output: '' });
    expect(alone.text()).toBeUndefined();
  });
});

describe('what the tail never records, and what it keeps', () => {
  const recorded = (command: string) => {
    const h = new TerminalHistory(words);
    h.record({ command, exitCode: 0, output: 'HOME=/home/dev' });
    return h.text()!.includes('HOME=/home/dev');
  };

  it('treats env, printenv, set, export and declare -x alone as listings, however spaced', () => {
    for (const command of ['env', '  printenv  ', 'set', 'export', 'declare -x', 'declare   -x']) expect(recorded(command), command).toBe(false);
  });

  it('records what other commands print, even when they start like a listing', () => {
    for (const command of ['env FOO=1 node app.js', 'setup', 'exports', 'declare -r X=1']) expect(recorded(command), command).toBe(true);
  });

  it('redacts every key format on its own, and leaves shorter look-alikes', () => {
    expect(redactSecrets('key sk-ant-abcdefgh12 here')).toBe('key [redacted] here');
    expect(redactSecrets('found sk-proj1234567890abcdefghij in the log')).toBe('found [redacted] in the log');
    for (const prefix of ['ghp', 'gho', 'ghu', 'ghs', 'ghr']) expect(redactSecrets(`pushed with ${prefix}_0123456789abcdefghijABCD`)).toBe('pushed with [redacted]');
    expect(redactSecrets('the sk-x flag, ghp_1 and sk-ant-x')).toBe('the sk-x flag, ghp_1 and sk-ant-x');
  });
});
