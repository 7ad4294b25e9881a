import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../src/adapters/tempFiles';
import { MessagesApiServer } from '../support/messagesApiServer';
import { textAnswer, toolAnswer } from '../support/messagesApiEvents';

// The built `strata chat` against the local Messages API stand-in: the "nested .git"
// and "spoofed approval" rows as a user meets them.

const CLI = join(__dirname, '..', '..', 'dist', 'cli.js');

let server: MessagesApiServer;
let temp: { dir: string; remove: () => void };
let ws: string;
/** CLIs still running when a test ends (a hung one, on a failure) are killed, not left behind. */
const running = new Set<ChildProcess>();

function chat(extra: string[], stdin: string, o: { path?: string; sigintOn?: string } = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const args = [CLI, 'chat', '--workspace', ws, '--base-url', server.url, '--archive', join(temp.dir, 'a.sqlite'), '--no-lsp', ...extra];
  return new Promise((resolve) => {
    // A fake key built at run time: no secret in a fixture.
    const env = { PATH: o.path ?? process.env.PATH, HOME: temp.dir, ANTHROPIC_API_KEY: ['sk', 'ant', 'safety', String(process.pid)].join('-') };
    const child = spawn(process.execPath, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
    running.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    let interrupted = false;
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      // Ctrl-C half a second after `sigintOn` shows, then the end of input, as a user would.
      if (o.sigintOn === undefined || interrupted || !stderr.includes(o.sigintOn)) return;
      interrupted = true;
      setTimeout(() => child.kill('SIGINT'), 500);
      setTimeout(() => child.stdin.end(), 1_000);
    });
    child.on('close', (code) => {
      running.delete(child);
      resolve({ code, stdout, stderr });
    });
    child.stdin.write(stdin);
    if (o.sigintOn === undefined) child.stdin.end();
  });
}

beforeEach(async () => {
  server = await MessagesApiServer.start({ models: [{ id: 'claude-sonnet-5-5', max_input_tokens: 200_000, max_tokens: 64_000 }] });
  temp = makeTempDir('strata-chat-safety-');
  ws = join(temp.dir, 'ws');
  mkdirSync(join(ws, 'sub', '.git'), { recursive: true });
  writeFileSync(join(ws, 'sub', '.git', 'config'), '[core]\n');
});

afterEach(async () => {
  for (const child of running) child.kill('SIGKILL');
  await server.close();
  temp.remove();
});

describe('strata chat safety (built CLI)', () => {
  it('--yes refuses a write into a nested .git and tells the model why; --allow-protected-writes lets it through', async () => {
    const evil = '[core]\n\tfsmonitor = "sh -c evil"\n';
    server.enqueue(toolAnswer('write_file', { path: 'sub/.git/config', content: evil }), textAnswer('Understood.'));
    const refused = await chat(['--yes'], 'configure git\n');
    expect(refused.code).toBe(0);
    expect(refused.stderr).toContain('refused under --yes, the path is protected: write sub/.git/config');
    expect(readFileSync(join(ws, 'sub', '.git', 'config'), 'utf8')).toBe('[core]\n');
    expect(JSON.stringify(server.messageRequests[1]!.body)).toContain('--allow-protected-writes');

    server.enqueue(toolAnswer('write_file', { path: 'sub/.git/config', content: evil }), textAnswer('Done.'));
    const allowed = await chat(['--yes', '--allow-protected-writes'], 'configure git\n');
    expect(allowed.code).toBe(0);
    expect(readFileSync(join(ws, 'sub', '.git', 'config'), 'utf8')).toBe(evil);
  });

  it('Ctrl-C stops a search_files whose pattern backtracks without end, with no ripgrep on PATH', async () => {
    writeFileSync(join(ws, 'evil.txt'), `${'a'.repeat(40)}!`);
    server.enqueue(toolAnswer('search_files', { regex: '(a+)+$' }), textAnswer('never asked'));
    const r = await chat([], 'find it\n', { path: join(temp.dir, 'no-bin'), sigintOn: '→ search_files' });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('[stopped; the partial answer is kept]');
    expect(r.stderr).toContain('The user stopped the search for /(a+)+$/');
    expect(server.messageRequests).toHaveLength(1);
  }, 20_000);

  it("prints the model's escape codes as text, keeping its line breaks", async () => {
    server.enqueue(textAnswer('Line one\n\x1b[2K\rAllow harmless? done'));
    const r = await chat([], 'hi\n');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Line one\n\\x1b[2K\\rAllow harmless? done');
    expect(r.stdout).not.toMatch(/[\u001b\r]/);
    expect(existsSync(CLI)).toBe(true);
  });
});
