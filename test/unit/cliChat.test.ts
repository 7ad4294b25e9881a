import { runCli, type CliRun } from '../support/runCli';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../../src/adapters/tempFiles';
import { MessagesApiServer } from '../support/messagesApiServer';
import { textAnswer, toolAnswer } from '../support/messagesApiEvents';

const CLI = join(__dirname, '..', '..', 'dist', 'cli.js');
const API_KEY = 'sk-ant-cli-test-71d3-secret';

let server: MessagesApiServer;
let temp: { dir: string; remove: () => void };

function run(args: string[], stdin: string, env: Record<string, string | undefined> = { ANTHROPIC_API_KEY: API_KEY }): Promise<CliRun> {
  return runCli(CLI, args, stdin, temp.dir, env);
}

beforeEach(async () => {
  server = await MessagesApiServer.start({ models: [{ id: 'claude-sonnet-5-5', max_input_tokens: 200_000, max_tokens: 64_000 }] });
  temp = makeTempDir('strata-chat-');
  mkdirSync(join(temp.dir, 'ws'));
  writeFileSync(join(temp.dir, 'ws', 'notes.txt'), 'alpha\nbeta\n');
});

afterEach(async () => {
  await server.close();
  temp.remove();
});

describe('strata chat (scripted through stdin)', () => {
  it('answers one message per line, runs tools, shows per-turn figures, keeps the key out of every output, exits 0 at end of input', async () => {
    server.enqueue(
      toolAnswer('read_file', { path: 'notes.txt' }, 'Reading.'),
      textAnswer('The file has alpha and beta.\n<housekeeping>{"narrative":{"state":"read"}}</housekeeping>', { input_tokens: 1200, cache_read_input_tokens: 800, output_tokens: 30 }),
      textAnswer('Second answer.'),
    );
    const archive = join(temp.dir, 'a.sqlite');
    const record = join(temp.dir, 'chat.jsonl');
    const result = await run(['chat', '--workspace', join(temp.dir, 'ws'), '--base-url', server.url, '--archive', archive, '--record', record, '--yes'], 'What is in notes.txt?\nThanks\n');
    expect(result.stderr).not.toMatch(/error \(/);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('The file has alpha and beta.');
    expect(result.stdout).toContain('Second answer.');
    expect(result.stdout).not.toContain('housekeeping');
    expect(result.stderr).toContain('→ read_file');
    expect(result.stderr).toMatch(/\[e2 · [\d,]+\/[\d,]+ tokens \(full\) · cache 40% · \$0\.\d{4}\]/);
    expect(server.messageRequests).toHaveLength(3);
    for (const text of [result.stdout, result.stderr, readFileSync(archive, 'latin1'), readFileSync(record, 'utf8')]) expect(text).not.toContain(API_KEY);

    // The recording replays to the very requests the chat sent.
    const dump = join(temp.dir, 'dump.jsonl');
    const replay = await run(['replay', record, '--dump', dump, '--quiet'], '');
    expect(replay.stderr).toBe('');
    expect(replay.code).toBe(0);
    const replayed = readFileSync(dump, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { kind: string; request: unknown });
    const sent = server.messageRequests.map((r) => {
      const { model: _m, max_tokens: _t, stream: _s, ...request } = r.body as Record<string, unknown>;
      return request;
    });
    expect(replayed.filter((l) => l.kind === 'main').map((l) => l.request)).toEqual(sent);
  });

  it('/edit <n> <text> resends an earlier message edited; a bad id is said and the chat goes on; the recording replays to the same requests', async () => {
    server.enqueue(textAnswer('First answer.'), textAnswer('Second answer.'), textAnswer('Edited answer.'), textAnswer('Last answer.'));
    const record = join(temp.dir, 'edit.jsonl');
    const args = ['chat', '--workspace', join(temp.dir, 'ws'), '--base-url', server.url, '--archive', join(temp.dir, 'a.sqlite'), '--record', record, '--no-lsp'];
    const result = await run(args, 'first question\nsecond question\n/edit 2 second question, edited\n/edit 9 nothing\n/edit\nlast question\n');
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('[your message is e1; /edit 1 <text> resends it edited]');
    expect(result.stderr).toContain('[edited e2: e2 superseded (kept in the archive), the new message is e3]');
    expect(result.stderr).toContain('Cannot resend from e9: it is not an exchange of this session');
    expect(result.stderr).toContain('usage: /edit <n> <text>');
    expect(server.messageRequests).toHaveLength(4);
    const last = JSON.stringify((server.messageRequests[3]!.body as { messages: unknown }).messages);
    expect(last).toContain('second question, edited');
    expect(last).not.toMatch(/second question\\n|Second answer/);

    const dump = join(temp.dir, 'dump.jsonl');
    const replay = await run(['replay', record, '--dump', dump, '--quiet'], '');
    expect(replay.stderr).toBe('');
    const replayed = readFileSync(dump, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { kind: string; request: unknown });
    const sent = server.messageRequests.map((r) => {
      const { model: _m, max_tokens: _t, stream: _s, ...request } = r.body as Record<string, unknown>;
      return request;
    });
    expect(replayed.filter((l) => l.kind === 'main').map((l) => l.request)).toEqual(sent);
  });

  it('refuses writes it cannot ask about (no terminal, no --yes) and tells the model', async () => {
    server.enqueue(toolAnswer('write_file', { path: 'x.txt', content: 'x' }), textAnswer('Fine, not writing.'));
    const result = await run(['chat', '--workspace', join(temp.dir, 'ws'), '--base-url', server.url, '--archive', join(temp.dir, 'a.sqlite')], 'write x\n');
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('refused (no terminal to ask; run with --yes to allow)');
    expect(JSON.stringify(server.messageRequests[1]!.body)).toContain('The user refused');
  });

  it('usage errors exit 2 before anything runs: no key, unknown option', async () => {
    const noKey = await run(['chat', '--base-url', server.url], 'hi\n', {});
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toContain('ANTHROPIC_API_KEY');
    const unknown = await run(['chat', '--modle', 'x'], 'hi\n');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("Unknown option '--modle'");
    expect(server.messageRequests).toHaveLength(0);
  });

  it('a failed turn is reported, archived, and the exit code says so', async () => {
    server.enqueue({ fault: 'status', status: 401, errorType: 'authentication_error', message: 'invalid x-api-key' });
    const result = await run(['chat', '--workspace', join(temp.dir, 'ws'), '--base-url', server.url, '--archive', join(temp.dir, 'a.sqlite')], 'hello\n');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/error \(model_auth\)/);
    expect(result.stderr).not.toContain(API_KEY);
  });
});
