import { join } from 'node:path';
import type { TaskSession, TaskSessionOptions } from '../../src/host/openTaskSession';
import { openTaskSession } from '../../src/host/openTaskSession';
import type { Message, MessagesRequest } from '../../src/shared/messages';
import type { TaskEvent } from '../../src/task/taskEvents';
import type { MessagesApiServer } from './messagesApiServer';

/** The model the Task tests ask the local Messages API server for. */
export const LIVE_TASK_MODEL = 'claude-sonnet-5-5';

/**
 * A Task session as the CLI and the extension open it (real SDK over HTTP to `server`, a real
 * SQLite archive), on `dir`/ws with `dir`/archive.sqlite; every event goes to `onEvent`.
 * Approves every call unless `options` says otherwise.
 */
export async function openLiveTask(server: MessagesApiServer, dir: string, onEvent: (event: TaskEvent) => void, options: Partial<TaskSessionOptions> = {}): Promise<TaskSession> {
  const session = await openTaskSession({
    workspaceRoot: join(dir, 'ws'),
    archivePath: join(dir, 'archive.sqlite'),
    apiKey: `sk-ant-test-${Date.now()}`,
    baseURL: server.url,
    model: LIVE_TASK_MODEL,
    frontEnd: 'test',
    approve: async () => ({ approved: true }),
    logger: { info: () => {}, warn: () => {}, error: () => {} },
    ...options,
  });
  session.task.onEvent(onEvent);
  return session;
}

/** The bodies of the POST /v1/messages requests `server` received, in order. */
export function requestBodies(server: MessagesApiServer): MessagesRequest[] {
  return server.messageRequests.map((r) => r.body as MessagesRequest);
}

/** The last message of a request: the input of the turn it carried. */
export function lastUser(body: MessagesRequest): Message {
  return body.messages[body.messages.length - 1]!;
}
