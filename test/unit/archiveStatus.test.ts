import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openJsonlArchive } from '../../src/adapters/jsonlArchiveStore';
import { makeTempDir } from '../../src/adapters/tempFiles';
import { openTaskSession } from '../../src/host/openTaskSession';
import type { SqliteLoader } from '../../src/extension/archiveStatus';
import { archivePathIn, fallbackArchivePathIn, openArchive, openArchiveBrowser } from '../../src/extension/archiveStatus';
import { MessagesApiServer } from '../support/messagesApiServer';
import { textAnswer } from '../support/messagesApiEvents';

/** What desktop VS Code's Electron says when the driver was built for Node's ABI. */
const ABI_ERROR =
  "The module '/ext/node_modules/better-sqlite3/build/Release/better_sqlite3.node'\nwas compiled against a different Node.js version using\nNODE_MODULE_VERSION 115. This version of Node.js requires\nNODE_MODULE_VERSION 128. Please try re-compiling or re-installing\nthe module (for instance, using `npm rebuild` or `npm install`).";

/** A loader whose driver fails the way Electron's ABI check does, at the first open. */
const electronSqlite: SqliteLoader = async () => () => {
  throw new Error(ABI_ERROR);
};

let temp: { dir: string; remove: () => void };
let log: Array<{ level: string; message: string }>;
const logger = {
  info: (message: string) => log.push({ level: 'info', message }),
  warn: (message: string) => log.push({ level: 'warn', message }),
  error: (message: string) => log.push({ level: 'error', message }),
};

beforeEach(() => {
  temp = makeTempDir('strata-archive-status-');
  log = [];
});
afterEach(() => temp.remove());

describe('openArchive: SQLite, or the plain-file fallback when the native module does not load', () => {
  it('uses SQLite where it loads (here, Node), with no fallback and no warning', async () => {
    const storage = join(temp.dir, 'storage');
    const result = await openArchive(storage, logger);
    expect(result.ok && result.backend.kind).toBe('sqlite');
    expect(result.ok && result.fallback).toBeFalsy();
    expect(existsSync(archivePathIn(storage))).toBe(true);
    expect(log.filter((l) => l.level !== 'info')).toEqual([]);
  });

  it('a driver built for another ABI selects the JSON Lines store and says why, where, and what to do', async () => {
    const storage = join(temp.dir, 'storage');
    const result = await openArchive(storage, logger, electronSqlite);
    if (!result.ok) throw new Error(`expected the fallback, got: ${result.message}`);
    expect(result.fallback).toBe(true);
    expect(result.backend.kind).toBe('jsonl');
    expect(result.backend.path).toBe(fallbackArchivePathIn(storage));
    expect(result.message).toContain("native SQLite module does not load in this editor's runtime");
    expect(result.message).toContain('NODE_MODULE_VERSION 115');
    expect(result.message).toContain(fallbackArchivePathIn(storage));
    expect(result.message).toMatch(/install the \.vsix built for your editor/);
    // The Output channel gets the whole loader error (all its lines) and the message.
    expect(log.some((l) => l.level === 'warn' && l.message.includes('re-installing\nthe module'))).toBe(true);
    expect(log.some((l) => l.level === 'warn' && l.message === result.message)).toBe(true);
    expect(log.filter((l) => l.level === 'error')).toEqual([]);
  });

  it('a driver whose binary is missing (the bindings module cannot find it) also falls back', async () => {
    const missing: SqliteLoader = async () => {
      throw new Error('Could not locate the bindings file. Tried:\n → /ext/node_modules/better-sqlite3/build/better_sqlite3.node');
    };
    const result = await openArchive(join(temp.dir, 'storage'), logger, missing);
    expect(result.ok && result.backend.kind).toBe('jsonl');
  });

  it('the browser opens on SQLite and on the fallback alike; with no archive it says why', async () => {
    const sqlite = await openArchive(join(temp.dir, 'sqlite'), logger);
    const fallback = await openArchive(join(temp.dir, 'fallback'), logger, electronSqlite);
    for (const result of [sqlite, fallback]) {
      const browsing = openArchiveBrowser(result, logger);
      if (!browsing.ok) throw new Error(browsing.message);
      expect(browsing.browser.path).toBe(result.ok ? result.backend.path : '');
      expect(browsing.browser.sessions()).toEqual([]);
      browsing.browser.close();
    }
    expect(openArchiveBrowser({ ok: false, message: 'The archive at /x could not be opened.' }, logger)).toEqual({ ok: false, message: 'The archive at /x could not be opened.' });
  });

  it('a damaged SQLite file is not hidden behind the fallback: no archive, and the message says where and what to do', async () => {
    const storage = join(temp.dir, 'storage');
    mkdirSync(storage, { recursive: true });
    writeFileSync(archivePathIn(storage), 'not a database\n'.repeat(300));
    const result = await openArchive(storage, logger);
    expect(result.ok).toBe(false);
    expect(result.message).toContain(archivePathIn(storage));
    expect(result.message).toMatch(/Move it away/);
    expect(existsSync(fallbackArchivePathIn(storage))).toBe(false);
  });

  it('the chat keeps working on the fallback: a turn over the local Messages API is archived in the JSON Lines file, and the browser opened before it shows it', async () => {
    const server = await MessagesApiServer.start({ models: [{ id: 'claude-sonnet-4-5', max_input_tokens: 200_000, max_tokens: 64_000 }] });
    try {
      const storage = join(temp.dir, 'storage');
      const ws = join(temp.dir, 'ws');
      mkdirSync(ws, { recursive: true });
      const result = await openArchive(storage, logger, electronSqlite);
      if (!result.ok) throw new Error(result.message);
      // As at activation: the browser's own connection opens before any chat session writes.
      const browsing = openArchiveBrowser(result, logger);
      if (!browsing.ok) throw new Error(`expected a browser on the fallback, got: ${browsing.message}`);
      server.enqueue(textAnswer('The answer, archived without SQLite.'));
      const session = await openTaskSession({
        workspaceRoot: ws,
        archivePath: result.backend.path,
        openArchive: result.backend.open,
        sessionId: 's-fallback',
        apiKey: 'sk-ant-test-key-0000',
        baseURL: server.url,
        model: 'claude-sonnet-4-5',
        frontEnd: 'test',
        approve: async () => ({ approved: true }),
        logger,
      });
      await session.task.send('Say something worth keeping.');
      await session.close();
      expect(existsSync(archivePathIn(storage))).toBe(false);
      expect(readFileSync(result.backend.path, 'utf8')).toContain('The answer, archived without SQLite.');
      const reopened = openJsonlArchive(result.backend.path);
      expect(reopened.listSessions()).toEqual(['s-fallback']);
      expect(JSON.stringify(reopened.get('s-fallback', 1)?.full)).toContain('Say something worth keeping.');
      reopened.close();
      expect(browsing.browser.sessions()).toMatchObject([{ id: 's-fallback', title: 'Say something worth keeping.', exchanges: 1 }]);
      expect(browsing.browser.searchAll('archived without SQLite', 5).map((h) => h.sessionId)).toEqual(['s-fallback']);
      browsing.browser.close();
    } finally {
      await server.close();
    }
  });
});
