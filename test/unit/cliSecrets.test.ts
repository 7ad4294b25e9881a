import { runCli, type CliRun } from '../support/runCli';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSqliteArchive } from '../../src/adapters/sqliteArchiveStore';
import { makeTempDir } from '../../src/adapters/tempFiles';
import { MessagesApiServer } from '../support/messagesApiServer';
import { textAnswer, toolAnswer } from '../support/messagesApiEvents';

/**
 * Issue 20, "API key leak" and "secrets in files": through the real `strata chat` loop against the
 * local Messages API, the model reads the process environment and a `.env` file. The key and the
 * planted secrets must reach none of: the next request, the archive (rows and full-text index),
 * the recording, stdout, stderr. Every secret is built here, at run time.
 */
const CLI = join(__dirname, '..', '..', 'dist', 'cli.js');
const word = (n: number) => randomBytes(n * 2).toString('hex').replace(/[^a-f0-9]/g, '').slice(0, n);
// Each secret holds a long word of its own, so a full-text search for that word finds it if it was indexed.
const KEY_WORD = `k${word(30)}`;
const apiKey = `sk-ant-api03-${KEY_WORD}-${word(12)}AA`;
const AWS_WORD = `Aw${word(20)}`;
const awsSecret = `${AWS_WORD}/${word(8)}+${word(8)}`;
const awsId = `AKIA${word(16).toUpperCase()}`;
const otherKey = `sk-ant-api03-o${word(40)}`;
const ghToken = `ghp_${word(36)}`;
const planted = { apiKey, awsSecret, awsId, otherKey, ghToken };

let server: MessagesApiServer;
let temp: { dir: string; remove: () => void };

function run(args: string[], stdin: string): Promise<CliRun> {
  return runCli(CLI, args, stdin, temp.dir, { ANTHROPIC_API_KEY: apiKey });
}

beforeEach(async () => {
  server = await MessagesApiServer.start({ models: [{ id: 'claude-sonnet-5-5', max_input_tokens: 200_000, max_tokens: 64_000 }] });
  temp = makeTempDir('strata-secrets-');
  mkdirSync(join(temp.dir, 'ws'));
  const env = `AWS_ACCESS_KEY_ID=${awsId}\nAWS_SECRET_ACCESS_KEY=${awsSecret}\nANTHROPIC_API_KEY=${otherKey}\nGITHUB_TOKEN=${ghToken}\nPORT=8080\n`;
  writeFileSync(join(temp.dir, 'ws', '.env'), env);
});

afterEach(async () => {
  await server.close();
  temp.remove();
});

/** The model reads the environment of the chat's process (plain and base64), `cat`s, reads and searches `.env`, then answers. */
function scriptLeakAttempts(): void {
  server.enqueue(
    toolAnswer('execute_command', { command: "tr '\\0' '\\n' < /proc/$PPID/environ; base64 -w0 < /proc/$PPID/environ" }, 'Checking the environment.'),
    toolAnswer('execute_command', { command: 'cat .env' }),
    toolAnswer('read_file', { path: '.env' }),
    toolAnswer('search_files', { regex: 'SECRET|TOKEN', path: '.' }),
    textAnswer('Done.'),
  );
}

/** Every file the archive left (the database, and its -wal/-shm while they exist), as bytes. */
function archiveBytes(archive: string): string {
  const dir = join(archive, '..');
  const base = archive.slice(dir.length + 1);
  return readdirSync(dir)
    .filter((f) => f.startsWith(base))
    .map((f) => readFileSync(join(dir, f), 'latin1'))
    .join('\n');
}

describe.runIf(process.platform === 'linux')('strata chat keeps secrets out of everything it writes (issue 20)', () => {
  it('the key from /proc/$PPID/environ and the secrets of .env reach no request, archive row, index entry, recording or output', async () => {
    scriptLeakAttempts();
    const archive = join(temp.dir, 'a.sqlite');
    const record = join(temp.dir, 'chat.jsonl');
    const result = await run(['chat', '--workspace', join(temp.dir, 'ws'), '--base-url', server.url, '--archive', archive, '--record', record, '--yes', '--no-lsp'], 'Look at @/.env and the environment\n');
    expect(result.code).toBe(0);
    expect(server.messageRequests).toHaveLength(5);

    const requests = JSON.stringify(server.messageRequests.map((r) => r.body));
    // The tools did run and their output did reach the model, with markers in place of the secrets.
    expect(requests).toContain('ANTHROPIC_API_KEY=[redacted: session-key]');
    expect(requests).toContain('AWS_SECRET_ACCESS_KEY=[redacted: aws-secret]');
    expect(requests).toContain('[redacted: session-key-base64]');
    expect(requests).toContain('PORT=8080');
    // What is left of the base64 of the environment decodes to no key either.
    for (const encoded of requests.match(/[A-Za-z0-9+/]{60,}={0,2}/g) ?? []) expect(Buffer.from(encoded, 'base64').toString('latin1')).not.toContain(apiKey);

    const written = { requests, archive: archiveBytes(archive), record: readFileSync(record, 'utf8'), stdout: result.stdout, stderr: result.stderr };
    for (const [where, text] of Object.entries(written)) {
      for (const [what, secret] of Object.entries(planted)) expect(text.includes(secret), `${what} in ${where}`).toBe(false);
    }
    const store = openSqliteArchive(archive);
    try {
      expect(store.searchAll(KEY_WORD, 10)).toEqual([]);
      expect(store.searchAll(AWS_WORD, 10)).toEqual([]);
      expect(store.searchAll('PORT', 10).length).toBeGreaterThan(0);
    } finally {
      store.close();
    }
  });

  it('--no-redact lets the model see the secrets of .env, never the API key', async () => {
    scriptLeakAttempts();
    const archive = join(temp.dir, 'a.sqlite');
    const result = await run(['chat', '--workspace', join(temp.dir, 'ws'), '--base-url', server.url, '--archive', archive, '--yes', '--no-lsp', '--no-redact'], 'Look at the environment\n');
    expect(result.code).toBe(0);
    const requests = JSON.stringify(server.messageRequests.map((r) => r.body));
    expect(requests).toContain(`AWS_SECRET_ACCESS_KEY=${awsSecret}`);
    expect(requests).toContain(ghToken);
    expect(requests).toContain('ANTHROPIC_API_KEY=[redacted: session-key]');
    for (const text of [requests, archiveBytes(archive), result.stdout, result.stderr]) expect(text).not.toContain(apiKey);
  });

  it('the archive and the recording are created readable by their owner only (0600)', async () => {
    server.enqueue(textAnswer('Hello.'));
    const archive = join(temp.dir, 'data', 'a.sqlite');
    const record = join(temp.dir, 'chat.jsonl');
    const result = await run(['chat', '--workspace', join(temp.dir, 'ws'), '--base-url', server.url, '--archive', archive, '--record', record, '--no-lsp'], 'hi\n');
    expect(result.code).toBe(0);
    for (const file of [archive, record]) {
      expect(existsSync(file)).toBe(true);
      expect((statSync(file).mode & 0o777).toString(8), file).toBe('600');
    }
  });
});
