import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openTaskSession, type TaskSession } from '../../src/host/openTaskSession';
import type { MessagesRequest } from '../../src/shared/messages';
import { MessagesApiServer } from '../support/messagesApiServer';
import { textAnswer, toolAnswer } from '../support/messagesApiEvents';
import { useTempDirs } from '../support/tempDirs';

const MODEL = 'claude-sonnet-5-5';
const tempDir = useTempDirs('strata-terminal-');
let server: MessagesApiServer | undefined;
let session: TaskSession | undefined;
afterEach(async () => {
  await session?.close();
  await server?.close();
  session = undefined;
  server = undefined;
});

describe('the terminal tail in the environment', () => {
  it('goes with an input only when it changed since it last went, not with every tool step', async () => {
    server = await MessagesApiServer.start({ models: [{ id: MODEL, max_input_tokens: 200_000, max_tokens: 64_000 }] });
    const dir = tempDir();
    mkdirSync(join(dir, 'ws'), { recursive: true });
    writeFileSync(join(dir, 'ws', 'a.ts'), 'export const a = 1;\n');
    let terminal = '$ npm test (exit 1)\nFAIL parser.test.ts';
    session = await openTaskSession({
      workspaceRoot: join(dir, 'ws'),
      archivePath: join(dir, 'archive.sqlite'),
      apiKey: 'sk-ant-test-terminal',
      baseURL: server.url,
      model: MODEL,
      frontEnd: 'test',
      approve: async () => ({ approved: true }),
      environment: () => ({ terminalOutput: terminal }),
      logger: { info: () => {}, warn: () => {}, error: () => {} },
    });
    server.enqueue(toolAnswer('read_file', { path: 'a.ts' }), toolAnswer('read_file', { path: 'a.ts' }), textAnswer('Read it.'), textAnswer('Seen.'));
    await session.task.send('why does the test fail?');
    terminal = '$ npm test (exit 0)\nall passed';
    await session.task.send('and now?');
    const inputs = server.messageRequests.map((r) => JSON.stringify((r.body as MessagesRequest).messages.at(-1)));
    expect(inputs.map((i) => i.includes('FAIL parser.test.ts'))).toEqual([true, false, false, false]);
    expect(inputs.map((i) => i.includes('all passed'))).toEqual([false, false, false, true]);
  });
});
