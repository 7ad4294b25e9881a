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
