import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openJsonlArchive } from '../../src/adapters/jsonlArchiveStore';
import { makeTempDir } from '../../src/adapters/tempFiles';
import { openTaskSession } from '../../src/host/openTaskSession';
import { betterSqliteDriver } from '../../src/adapters/betterSqliteDriver';
import { nodeSqliteDriver } from '../../src/adapters/nodeSqliteDriver';
import type { SqliteDriver } from '../../src/adapters/sqliteDriver';
import { DRIVERS, rawDriver } from '../support/sqliteDrivers';
import { archiveAdvice, archivePathIn, fallbackArchivePathIn, isNativeModuleError, openArchive, openArchiveBrowser, type ArchiveOpenResult } from '../../src/extension/archiveStatus';
import { MessagesApiServer } from '../support/messagesApiServer';
import { textAnswer } from '../support/messagesApiEvents';

/** What desktop VS Code's Electron says when the driver was built for Node's ABI. */
const ABI_ERROR =
  "The module '/ext/node_modules/better-sqlite3/build/Release/better_sqlite3.node'\nwas compiled against a different Node.js version using\nNODE_MODULE_VERSION 115. This version of Node.js requires\nNODE_MODULE_VERSION 128. Please try re-compiling or re-installing\nthe module (for instance, using `npm rebuild` or `npm install`).";

/** `base` failing at its first open with `message`, as a driver that does not load here does. */
function failing(base: SqliteDriver, message: string): SqliteDriver {
  return {
    ...base,
    open: () => {
      throw new Error(message);
    },
  };
}
/** A driver that works (the first of this Node's), under another driver's name. */
function working(as: SqliteDriver): SqliteDriver {
  return { ...rawDriver(), id: as.id, label: as.label };
}
/** `base` on a SQLite built without FTS5: the archive's search index cannot be created. */
function withoutFts5(base: SqliteDriver): SqliteDriver {
  return {
    ...base,
    open: (path, options) => {
      const db = base.open(path, options);
      return {
        ...db,
        exec: (sql) => {
          if (/using fts5/i.test(sql)) throw new Error('no such module: fts5');
          db.exec(sql);
        },
      };
    },
  };
}
/** The extension host of VS Code 1.100 desktop: Node 20 (no node:sqlite) on Electron's ABI. */
const oldElectron = { drivers: [failing(nodeSqliteDriver, `node:sqlite needs Node 22.13 or later; this is Node ${process.versions.node}.`), failing(betterSqliteDriver, ABI_ERROR)] };

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

describe('openArchive: SQLite on the driver the editor has, or the plain-file fallback when none works', () => {
  it("uses this Node's SQLite, node:sqlite first, with no fallback and no warning; the label names the driver", async () => {
    const storage = join(temp.dir, 'storage');
    const result = await openArchive(storage, logger);
    if (!result.ok) throw new Error(result.message);
    const expected = DRIVERS.some((d) => d.name === 'node:sqlite') ? 'node:sqlite' : 'better-sqlite3';
    expect(result.backend).toMatchObject({ kind: 'sqlite', label: `SQLite (${expected})` });
    expect(result.message).toBe(`Archive: SQLite (${expected}), ${archivePathIn(storage)}`);
    expect(result.fallback).toBeUndefined();
    expect(existsSync(archivePathIn(storage))).toBe(true);
    expect(log.filter((l) => l.level !== 'info')).toEqual([]);
  });

  it('the editor prefers node:sqlite when both work; better-sqlite3 when node:sqlite does not load, or its SQLite lacks FTS5', async () => {
    const label = async (drivers: SqliteDriver[]) => {
      const result = await openArchive(join(temp.dir, `s${log.length}-${drivers.length}-${Math.random()}`), logger, { drivers });
      return result.ok ? result.backend.label : result.message;
    };
    expect(await label([working(betterSqliteDriver), working(nodeSqliteDriver)])).toBe('SQLite (node:sqlite)');
    expect(await label([oldElectron.drivers[0]!, working(betterSqliteDriver)])).toBe('SQLite (better-sqlite3)');
    expect(await label([withoutFts5(working(nodeSqliteDriver)), working(betterSqliteDriver)])).toBe('SQLite (better-sqlite3)');
    expect(log.some((l) => l.message.includes('archive: node:sqlite not used: its SQLite has no FTS5'))).toBe(true);
  });

  it('a driver named in strata.archive.driver that does not work: auto chooses, and the notice says so', async () => {
    const result = await openArchive(join(temp.dir, 'storage'), logger, { driver: 'better-sqlite3', drivers: [working(nodeSqliteDriver), failing(betterSqliteDriver, ABI_ERROR)] });
    if (!result.ok) throw new Error(result.message);
    expect(result.backend.label).toBe('SQLite (node:sqlite)');
    expect(result.notice).toMatch(/^The SQLite driver better-sqlite3 does not work in Node .*NODE_MODULE_VERSION 115.* Strata chose a driver itself \(strata\.archive\.driver: auto\) instead\.$/);
    const named = await openArchive(join(temp.dir, 'named'), logger, { driver: 'better-sqlite3', drivers: [working(nodeSqliteDriver), working(betterSqliteDriver)] });
    expect(named.ok && named.backend.label).toBe('SQLite (better-sqlite3)');
  });

  it('no driver works (Node 20 on Electron): the JSON Lines store, and the message says why, where, and what to do', async () => {
    const storage = join(temp.dir, 'storage');
    const result = await openArchive(storage, logger, oldElectron);
    if (!result.ok) throw new Error(`expected the fallback, got: ${result.message}`);
    expect(result.fallback).toBe(true);
    expect(result.backend).toMatchObject({ kind: 'jsonl', label: 'plain file', path: fallbackArchivePathIn(storage) });
    expect(result.message).toContain("SQLite does not work in this editor's runtime");
    expect(result.message).toContain('node:sqlite: node:sqlite needs Node 22.13 or later');
    expect(result.message).toContain('better-sqlite3: The module');
    expect(result.message).toContain('NODE_MODULE_VERSION 115');
    expect(result.message).toContain(fallbackArchivePathIn(storage));
    expect(result.message).toMatch(/update the editor: a VS Code whose extension host runs Node 22\.13 or later has SQLite built in/);
    expect(log.some((l) => l.level === 'warn' && l.message === result.message)).toBe(true);
    expect(log.filter((l) => l.level === 'error')).toEqual([]);
  });

  it('a SQLite without FTS5 in every driver also falls back to the plain file, whose search needs none', async () => {
    const result = await openArchive(join(temp.dir, 'storage'), logger, { drivers: [withoutFts5(working(nodeSqliteDriver)), withoutFts5(working(betterSqliteDriver))] });
    expect(result.ok && result.backend.kind).toBe('jsonl');
    expect(result.message).toContain("its SQLite has no FTS5, which the archive's search needs (no such module: fts5)");
  });

  it('a driver whose binary is missing (the bindings module cannot find it) also falls back', async () => {
    const missing = failing(betterSqliteDriver, 'Could not locate the bindings file. Tried:\n → /ext/node_modules/better-sqlite3/build/better_sqlite3.node');
    const result = await openArchive(join(temp.dir, 'storage'), logger, { drivers: [oldElectron.drivers[0]!, missing] });
    expect(result.ok && result.backend.kind).toBe('jsonl');
  });

  it('the browser opens on SQLite and on the fallback alike; with no archive it says why', async () => {
    const sqlite = await openArchive(join(temp.dir, 'sqlite'), logger);
    const fallback = await openArchive(join(temp.dir, 'fallback'), logger, oldElectron);
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
      const result = await openArchive(storage, logger, oldElectron);
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

/** A driver that passes the probe (an in-memory database) and then fails on the archive file with `error`. */
function failingOnFile(as: SqliteDriver, error: unknown): SqliteDriver {
  const raw = rawDriver();
  return {
    ...raw,
    id: as.id,
    label: as.label,
    open: (path, options) => {
      if (path === ':memory:') return raw.open(path, options);
      throw error;
    },
  };
}

describe('openArchive: what each failure says, and where the log has it', () => {
  it('SQLite that loads but cannot open the file: the error on one line, cut at 300 characters, with the advice for a native module', async () => {
    const storage = join(temp.dir, 'storage');
    const file = archivePathIn(storage);
    // openSqliteArchive names the file in its error; the message quotes that on one line, at most 300 characters.
    const failed = (error: string) => `The archive ${file} failed: ${error}.`;
    const abi = await openArchive(storage, logger, { drivers: [failingOnFile(nodeSqliteDriver, new Error(ABI_ERROR))] });
    const expected = `The archive at ${file} could not be opened (${failed(ABI_ERROR.replace(/\n/g, ' ')).slice(0, 300)}…). The chat cannot start without it. The native SQLite module does not load in this editor's runtime: set strata.archive.driver to auto, or update the editor: a VS Code whose extension host runs Node 22.13 or later has SQLite built in (Output > Strata has the details).`;
    expect(abi).toEqual({ ok: false, message: expected });
    expect(log.at(-1)).toEqual({ level: 'error', message: expected });

    const spaced = await openArchive(storage, logger, { drivers: [failingOnFile(nodeSqliteDriver, new Error('disk  \n\n  full  '))] });
    expect(spaced.message).toBe(
      `The archive at ${file} could not be opened (${failed('disk full ')}). The chat cannot start without it. Check that the folder is writable and the file is not damaged (Output > Strata has the details).`,
    );
    const fits = 'x'.repeat(300 - failed('').length);
    const exact = await openArchive(storage, logger, { drivers: [failingOnFile(nodeSqliteDriver, new Error(fits))] });
    expect(exact.message).toContain(`(${failed(fits)}).`);
    const over = await openArchive(storage, logger, { drivers: [failingOnFile(nodeSqliteDriver, new Error(`${fits}y`))] });
    expect(over.message).toContain(`(${failed(`${fits}y`).slice(0, 300)}…).`);
  });

  it('opens the archive with the driver it chose, logs it, and makes the folder with its parents', async () => {
    const opened: string[] = [];
    const raw = rawDriver();
    const counting: SqliteDriver = { ...raw, id: 'better-sqlite3', label: 'better-sqlite3', open: (path, options) => (opened.push(path), raw.open(path, options)) };
    const storage = join(temp.dir, 'deep', 'er', 'storage');
    const result = await openArchive(storage, logger, { drivers: [counting] });
    if (!result.ok) throw new Error(result.message);
    expect(opened).toEqual([':memory:', archivePathIn(storage)]);
    result.backend.open(result.backend.path).close();
    expect(opened.at(-1)).toBe(archivePathIn(storage));
    expect(log).toEqual([{ level: 'info', message: `archive: SQLite (better-sqlite3), ${archivePathIn(storage)}` }]);
  });

  it('the fallback makes the folder with its parents; with auto, no notice is logged', async () => {
    const storage = join(temp.dir, 'a', 'b', 'storage');
    const result = await openArchive(storage, logger, oldElectron);
    if (!result.ok) throw new Error(result.message);
    expect(result).not.toHaveProperty('notice');
    const abi = ABI_ERROR.replace(/\n/g, ' ');
    const why = `No SQLite driver works in Node ${process.versions.node}: node:sqlite: node:sqlite needs Node 22.13 or later; this is Node ${process.versions.node}.; better-sqlite3: ${abi.slice(0, 300)}….`;
    expect(log.map((l) => l.level)).toEqual(['warn', 'warn']);
    expect(log[0]!.message).toBe(`SQLite does not work in this editor: ${why}`);
    expect(log[1]!.message).toBe(result.message);
  });

  it('when the plain-file archive fails too, it says both, with the advice', async () => {
    const storage = join(temp.dir, 'not-a-folder');
    writeFileSync(storage, 'a file where the folder should be');
    const result = await openArchive(storage, logger, oldElectron);
    expect(result.ok).toBe(false);
    expect(result.message).toMatch(
      new RegExp(
        `^The archive cannot be opened: SQLite does not work in this editor \\(No SQLite driver works in Node .*\\), and the plain-file archive at ${fallbackArchivePathIn(storage).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} failed too \\((EEXIST|ENOTDIR)[^)]*\\)\\. Check that the folder is writable and the file is not damaged \\(Output > Strata has the details\\)\\.$`,
      ),
    );
    expect(log.at(-1)).toEqual({ level: 'error', message: result.message });
  });
});

describe('openArchiveBrowser: a store that cannot be browsed, or opened', () => {
  const backend = (open: () => object): ArchiveOpenResult => ({ ok: true, message: '', backend: { kind: 'sqlite', label: 'x', path: '/archive.x', open: open as never } });
  const methods = { sessions: () => [], exchanges: () => [], searchAll: () => [], deleteSession: () => {} };

  it('refuses a store lacking any browsing method, closing it', () => {
    for (const missing of Object.keys(methods)) {
      let closed = 0;
      const store = { ...methods, [missing]: 'not a function', close: () => (closed += 1) };
      expect(openArchiveBrowser(backend(() => store), logger)).toEqual({ ok: false, message: 'This archive store cannot be browsed.' });
      expect(closed).toBe(1);
    }
    const full = { ...methods, close: () => {} };
    expect(openArchiveBrowser(backend(() => full), logger)).toEqual({ ok: true, browser: full });
  });

  it('says where and why the browser could not open, and logs it', () => {
    const failing = (thrown: unknown) =>
      openArchiveBrowser(
        backend(() => {
          throw thrown;
        }),
        logger,
      );
    expect(failing(new Error('locked'))).toEqual({ ok: false, message: 'The archive at /archive.x could not be opened for browsing: locked' });
    expect(failing('gone')).toEqual({ ok: false, message: 'The archive at /archive.x could not be opened for browsing: gone' });
    expect(log).toEqual([
      { level: 'error', message: 'The archive at /archive.x could not be opened for browsing: locked' },
      { level: 'error', message: 'The archive at /archive.x could not be opened for browsing: gone' },
    ]);
  });
});

describe('isNativeModuleError and archiveAdvice', () => {
  it('know the native module by any of its loader messages, in any case', () => {
    for (const text of [ABI_ERROR, 'Cannot find module better_sqlite3', 'BETTER-SQLITE3 failed', 'Could not locate the bindings file', 'invalid ELF header', 'it was compiled against another Node']) {
      expect(isNativeModuleError(new Error(text)), text).toBe(true);
      expect(archiveAdvice(text)).toBe(
        "The native SQLite module does not load in this editor's runtime: set strata.archive.driver to auto, or update the editor: a VS Code whose extension host runs Node 22.13 or later has SQLite built in (Output > Strata has the details).",
      );
    }
    expect(isNativeModuleError(new Error('SQLITE_CORRUPT: database disk image is malformed'))).toBe(false);
    expect(archiveAdvice(new Error('EACCES: permission denied'))).toBe('Check that the folder is writable and the file is not damaged (Output > Strata has the details).');
  });
});

