import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { makeTempDir } from '../../src/adapters/tempFiles';
import type { TaskSession, TaskSessionOptions } from '../../src/host/openTaskSession';
import type { Message, MessagesRequest, ToolResultBlock } from '../../src/shared/messages';
import type { TaskEvent } from '../../src/task/taskEvents';
import { MessagesApiServer } from './messagesApiServer';
import { LIVE_TASK_MODEL, openLiveTask, requestBodies } from './liveTask';

/** Per test: a local Messages API server, a temp workspace and the live Task session a test opens, with every event it emitted. */
export interface LiveTaskHarness {
  readonly server: MessagesApiServer;
  /** The session the test opened last (closed after the test). */
  readonly session: TaskSession;
  /** The temp folder: the workspace is `dir`/ws, the archive `dir`/archive.sqlite. */
  readonly dir: string;
  /** Events since the session opened; a test may reset it. */
  events: TaskEvent[];
  open(options?: Partial<TaskSessionOptions>): Promise<TaskSession>;
  bodies(): MessagesRequest[];
  ofType<T extends TaskEvent['type']>(type: T): Array<Extract<TaskEvent, { type: T }>>;
}

/**
 * Registers the hooks of a test file whose tests each open a live Task session (see `openLiveTask`)
 * over a fresh server and workspace holding `files` (workspace-relative path -> text).
 * Call at the top level of the file.
 */
export function useLiveTask(prefix: string, files: Record<string, string>): LiveTaskHarness {
  let server: MessagesApiServer | undefined;
  let temp: { dir: string; remove: () => void } | undefined;
  let session: TaskSession | undefined;
  const live: LiveTaskHarness = {
    get server() {
      if (!server) throw new Error('useLiveTask: no server outside a test');
      return server;
    },
    get session() {
      if (!session) throw new Error('useLiveTask: the test opened no session');
      return session;
    },
    get dir() {
      if (!temp) throw new Error('useLiveTask: no folder outside a test');
      return temp.dir;
    },
    events: [],
    async open(options = {}) {
      session = await openLiveTask(live.server, live.dir, (e) => live.events.push(e), options);
      return session;
    },
    bodies: () => requestBodies(live.server),
    ofType: <T extends TaskEvent['type']>(type: T) => live.events.filter((e): e is Extract<TaskEvent, { type: T }> => e.type === type),
  };
  beforeEach(async () => {
    server = await MessagesApiServer.start({ models: [{ id: LIVE_TASK_MODEL, max_input_tokens: 200_000, max_tokens: 64_000 }] });
    temp = makeTempDir(prefix);
    mkdirSync(join(temp.dir, 'ws'));
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(temp.dir, 'ws', path)), { recursive: true });
      writeFileSync(join(temp.dir, 'ws', path), text);
    }
    live.events = [];
  });
  afterEach(async () => {
    await session?.close();
    session = undefined;
    await server?.close();
    temp?.remove();
  });
  return live;
}

/** The tool results of a message, in order. */
export function toolResults(message: Message): ToolResultBlock[] {
  return message.content.filter((b): b is ToolResultBlock => b.type === 'tool_result');
}
