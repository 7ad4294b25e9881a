import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openTaskSession, type TaskSession } from '../../src/host/openTaskSession';
import type { TaskEvent } from '../../src/task/taskEvents';
import { MessagesApiServer } from '../support/messagesApiServer';
import { textAnswer, toolAnswer } from '../support/messagesApiEvents';
import { useTempDirs } from '../support/tempDirs';

/** Every door from the environment into a turn passes the redactor: the user's text, mentions, the environment block, tool results, errors. */
const MODEL = 'claude-sonnet-5-5';
const tempDir = useTempDirs('strata-redaction-');
const apiKey = `sk-ant-api03-${randomBytes(24).toString('hex')}`;
const ghToken = `ghp_${randomBytes(18).toString('hex')}`;
let server: MessagesApiServer | undefined;
let session: TaskSession | undefined;
afterEach(async () => {
  await session?.close();
  await server?.close();
  session = undefined;
  server = undefined;
});

async function open(redactSecrets?: boolean): Promise<{ session: TaskSession; events: TaskEvent[]; logged: string[]; archive: string }> {
  server = await MessagesApiServer.start({ models: [{ id: MODEL, max_input_tokens: 200_000, max_tokens: 64_000 }] });
  const dir = tempDir();
  mkdirSync(join(dir, 'ws'), { recursive: true });
  writeFileSync(join(dir, 'ws', 'notes.txt'), `deploy with GITHUB_TOKEN=${ghToken}\n`);
  writeFileSync(join(dir, 'ws', 'key.txt'), `${apiKey}\n`);
  const logged: string[] = [];
  const log = (m: string) => logged.push(m);
  const archive = join(dir, 'archive.sqlite');
  session = await openTaskSession({
    workspaceRoot: join(dir, 'ws'),
    archivePath: archive,
    apiKey,
    ...(redactSecrets === undefined ? {} : { redactSecrets }),
    baseURL: server.url,
    model: MODEL,
    frontEnd: 'test',
    approve: async () => ({ approved: true }),
    environment: () => ({ terminalOutput: `$ echo $ANTHROPIC_API_KEY\n${apiKey}\n$ export GH_TOKEN=${ghToken}` }),
    logger: { info: log, warn: log, error: log },
  });
  const events: TaskEvent[] = [];
  session.task.onEvent((e) => events.push(e));
  return { session, events, logged, archive };
}

describe('the Task redacts what enters a turn', () => {
  it('the user text, a mention, the terminal tail and tool results: in requests, events and the archive', async () => {
    const { session, events, archive } = await open();
    server!.enqueue(toolAnswer('read_file', { path: 'notes.txt' }), toolAnswer('read_file', { path: 'key.txt' }), textAnswer('Read.'));
    await session.task.send(`my key is ${apiKey}, see @/notes.txt`);
    await session.close();
    const requests = JSON.stringify(server!.messageRequests.map((r) => r.body));
    expect(requests).toContain('my key is [redacted: session-key], see @/notes.txt');
    expect(requests).toContain('GITHUB_TOKEN=[redacted: github-token]');
    expect(requests).toContain('GH_TOKEN=[redacted: github-token]');
    const results = events.flatMap((e) => (e.type === 'tool_result' ? [e.text] : []));
    expect(results).toHaveLength(2);
    expect(results[0]).toContain('GITHUB_TOKEN=[redacted: github-token]');
    expect(results[1]).toContain('1 | [redacted: session-key]');
    for (const text of [requests, JSON.stringify(events), readFileSync(archive, 'latin1')]) {
      expect(text).not.toContain(apiKey);
      expect(text).not.toContain(ghToken);
    }
  });

  it('a failed turn: its message, shown and archived, is redacted too', async () => {
    const { session, events } = await open();
    server!.enqueue({ fault: 'status', status: 400, errorType: 'invalid_request_error', message: `the request named ${ghToken}` });
    await session.task.send('hello');
    const error = events.find((e) => e.type === 'error');
    expect(error && 'message' in error ? error.message : '').toContain('[redacted: github-token]');
    const archived = session.archive.get(session.sessionId, 1);
    expect(JSON.stringify(archived?.full)).toContain('[redacted: github-token]');
    expect(JSON.stringify(events)).not.toContain(ghToken);
    expect(JSON.stringify(archived)).not.toContain(ghToken);
  });

  it('redactSecrets: false keeps the other formats, never the key', async () => {
    const { session } = await open(false);
    server!.enqueue(textAnswer('ok'));
    await session.task.send(`key ${apiKey} token ${ghToken}`);
    const requests = JSON.stringify(server!.messageRequests.map((r) => r.body));
    expect(requests).toContain(`token ${ghToken}`);
    expect(requests).not.toContain(apiKey);
  });
});
