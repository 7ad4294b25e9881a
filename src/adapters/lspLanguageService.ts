import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { extname, isAbsolute, join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  CancellationTokenSource,
  ConfigurationRequest,
  createProtocolConnection,
  DefinitionRequest,
  DidChangeTextDocumentNotification,
  DidCloseTextDocumentNotification,
  DidOpenTextDocumentNotification,
  DocumentSymbolRequest,
  ExitNotification,
  HoverRequest,
  InitializedNotification,
  InitializeRequest,
  PublishDiagnosticsNotification,
  ReferencesRequest,
  RegistrationRequest,
  ShutdownRequest,
  StreamMessageReader,
  StreamMessageWriter,
  UnregistrationRequest,
  WorkDoneProgressCreateRequest,
} from 'vscode-languageserver-protocol/node';
import type { Diagnostic, ProtocolConnection } from 'vscode-languageserver-protocol/node';
import type { Logger } from '../engine/ports';
import { StrataError } from '../shared/strataError';
import type { CodeLocation, DiagnosticInfo, DocumentSymbolInfo, LanguageService } from '../task/languagePort';
import type { LanguageServerSpec } from './languageServerSpec';
import { toCodeLocation, toDiagnosticInfo, toHoverText, toSymbolInfos } from './lspConversions';
import { aborted, describe, exited, killGroup, sleep, withTimeout } from './lspProcess';

export interface LspLanguageServiceOptions {
  /** Absolute workspace root; every path crossing the port is relative to it. */
  root: string;
  server: LanguageServerSpec;
  /** Milliseconds the server may take to start and answer `initialize` (default 30 000). */
  startTimeoutMs?: number;
  /** Milliseconds one request may take (default 30 000: the first one loads the project). */
  requestTimeoutMs?: number;
  /** Milliseconds to wait for a changed file's first diagnostics (default 10 000). */
  diagnosticsWaitMs?: number;
  /** Quiet milliseconds after the last diagnostics before they count as complete (default 500; see `settle`). */
  diagnosticsSettleMs?: number;
  /** Milliseconds `close` waits for a polite shutdown before killing the process group (default 3 000). */
  shutdownTimeoutMs?: number;
  logger?: Logger;
}

interface OpenDocument {
  version: number;
  text: string;
  languageId: string;
}

interface Started {
  child: ChildProcess;
  connection: ProtocolConnection;
}

/**
 * A `LanguageService` over one language server process (stdio, JSON-RPC), started on the first
 * call. Documents are opened on demand with their text read from disk, and every open document
 * is re-read before each request, so the server always sees what the tools last wrote.
 */
export class LspLanguageService implements LanguageService {
  private started: Promise<Started> | undefined;
  private child: ChildProcess | undefined;
  private closed = false;
  private stderrTail = '';
  private readonly realRoot: string;
  private readonly docs = new Map<string, OpenDocument>();
  private readonly published = new Map<string, Diagnostic[]>();
  /** When the last didOpen/didChange went out and the last diagnostics came in (ms since epoch). */
  private lastSyncAt = 0;
  private lastPublishAt = 0;
  private readonly publishListeners = new Set<() => void>();
  /** The latest document sync; the next waits for it (see `syncAll`). */
  private syncing: Promise<unknown> = Promise.resolve();

  constructor(private readonly o: LspLanguageServiceOptions) {
    this.realRoot = realpathSync(o.root);
  }

  /** The server's process id once started (tests check it is gone after `close`). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  supports(path: string): boolean {
    return extname(path).toLowerCase() in this.o.server.languages;
  }

  async definition(path: string, line: number, column: number, signal: AbortSignal): Promise<CodeLocation[]> {
    const uri = await this.prepare(path, signal);
    const result = await this.request((c, token) => c.sendRequest(DefinitionRequest.type, { textDocument: { uri }, position: toPosition(line, column) }, token), signal, 'definition');
    const list = result === null ? [] : Array.isArray(result) ? result : [result];
    return list.map((l) => toCodeLocation(l, (u) => this.toPath(u)));
  }

  async references(path: string, line: number, column: number, signal: AbortSignal): Promise<CodeLocation[]> {
    const uri = await this.prepare(path, signal);
    const params = { textDocument: { uri }, position: toPosition(line, column), context: { includeDeclaration: true } };
    const result = await this.request((c, token) => c.sendRequest(ReferencesRequest.type, params, token), signal, 'references');
    return (result ?? []).map((l) => toCodeLocation(l, (u) => this.toPath(u)));
  }

  async documentSymbols(path: string, signal: AbortSignal): Promise<DocumentSymbolInfo[]> {
    const uri = await this.prepare(path, signal);
    const result = await this.request((c, token) => c.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri } }, token), signal, 'document symbols');
    return toSymbolInfos(result ?? []);
  }

  async hover(path: string, line: number, column: number, signal: AbortSignal): Promise<string | undefined> {
    const uri = await this.prepare(path, signal);
    const result = await this.request((c, token) => c.sendRequest(HoverRequest.type, { textDocument: { uri }, position: toPosition(line, column) }, token), signal, 'hover');
    return result ? toHoverText(result) : undefined;
  }

  async diagnostics(path: string | undefined, signal: AbortSignal): Promise<DiagnosticInfo[]> {
    const target = path === undefined ? undefined : await this.prepare(path, signal);
    if (target === undefined) await this.syncAll(undefined, signal);
    if (target !== undefined) await this.waitForFirstPublish(target, signal);
    await this.settle(signal);
    const uris = target !== undefined ? [target] : [...this.published.keys()];
    const out: DiagnosticInfo[] = [];
    for (const uri of uris) for (const d of this.published.get(uri) ?? []) out.push(toDiagnosticInfo(this.toPath(uri), d));
    return out.sort((a, b) => a.path.localeCompare(b.path) || a.line - b.line || a.column - b.column);
  }

  /** Shuts the server down (`shutdown`, `exit`), then kills its process group if it lingers. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const started = this.started;
    if (!started) return;
    const s = await started.catch(() => undefined);
    const child = this.child;
    if (!child) return;
    const timeout = this.o.shutdownTimeoutMs ?? 3_000;
    if (s && child.exitCode === null && child.signalCode === null) {
      try {
        await withTimeout(s.connection.sendRequest(ShutdownRequest.type), timeout, 'shutdown');
        await s.connection.sendNotification(ExitNotification.type);
      } catch (error) {
        this.o.logger?.warn(`${this.o.server.name} did not shut down politely (${describe(error)}); killing it.`);
      }
      await withTimeout(exited(child), timeout, 'exit').catch(() => undefined);
      s.connection.dispose();
    }
    // The server's own children (tsserver) share its process group: take them down with it.
    killGroup(child);
    await withTimeout(exited(child), timeout, 'kill').catch(() => undefined);
  }

  /** Starts the server if needed, re-syncs open documents from disk and opens `path`; returns its URI. */
  private async prepare(path: string, signal: AbortSignal): Promise<string> {
    if (!this.supports(path)) {
      throw new StrataError(`No language server here handles '${extname(path) || path}' files; ${this.o.server.name} handles ${Object.keys(this.o.server.languages).join(' ')}.`, 'lsp-unsupported');
    }
    const uri = pathToFileURL(join(this.o.root, path)).href;
    await this.syncAll(uri, signal);
    return uri;
  }

  /**
   * Brings every open document (and `extra`) in line with the disk. Calls run one after another,
   * so two concurrent requests never open the same document twice.
   */
  private syncAll(extra: string | undefined, signal: AbortSignal): Promise<void> {
    const run = this.syncing.then(async () => {
      const { connection } = await this.start(signal);
      const uris = new Set(this.docs.keys());
      if (extra !== undefined) uris.add(extra);
      for (const uri of uris) await this.sync(connection, uri);
    });
    this.syncing = run.catch(() => undefined);
    return run;
  }

  /** Sends didOpen, didChange (whole text) or didClose so the server's copy equals the disk. */
  private async sync(connection: ProtocolConnection, uri: string): Promise<void> {
    const text = await readFile(fileURLToPath(uri), 'utf8').catch(() => undefined);
    const doc = this.docs.get(uri);
    if (text === undefined) {
      if (doc) {
        this.docs.delete(uri);
        this.published.delete(uri);
        await connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
        return;
      }
      throw new StrataError(`Cannot read '${this.toPath(uri).path}' for ${this.o.server.name}.`, 'lsp-read');
    }
    if (!doc) {
      const languageId = this.o.server.languages[extname(uri).toLowerCase()] ?? 'plaintext';
      this.docs.set(uri, { version: 1, text, languageId });
      this.published.delete(uri);
      this.lastSyncAt = Date.now();
      await connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId, version: 1, text } });
    } else if (doc.text !== text) {
      doc.version += 1;
      doc.text = text;
      this.lastSyncAt = Date.now();
      await connection.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version: doc.version }, contentChanges: [{ text }] });
    }
  }

  /**
   * Waits until the server has published diagnostics for `uri` once since it opened it (a
   * TypeScript server always publishes for a newly opened file; after a change it publishes only
   * if something changed, so a changed file is left to `settle`).
   */
  private async waitForFirstPublish(uri: string, signal: AbortSignal): Promise<void> {
    await this.waitFor(() => this.published.has(uri), this.o.diagnosticsWaitMs ?? 10_000, signal);
  }

  /**
   * LSP has no "diagnostics complete" signal: a TypeScript server publishes a file's syntax,
   * semantic and suggestion diagnostics in turn (and other files' again after an edit). So the
   * answer waits until no publish has arrived for `diagnosticsSettleMs`, counted from the later
   * of the last sync and the last publish, and at most `diagnosticsWaitMs` in all.
   */
  private async settle(signal: AbortSignal): Promise<void> {
    const quiet = this.o.diagnosticsSettleMs ?? 500;
    const deadline = Date.now() + (this.o.diagnosticsWaitMs ?? 10_000);
    for (;;) {
      // Already quiet needs no sleep, so an abort must be looked at here: a stopped call answers nothing.
      if (signal.aborted) throw aborted();
      const since = Math.max(this.lastSyncAt, this.lastPublishAt);
      const remaining = since + quiet - Date.now();
      if (remaining <= 0 || Date.now() >= deadline) return;
      await sleep(Math.min(remaining, deadline - Date.now()), signal);
    }
  }

  private async waitFor(done: () => boolean, timeoutMs: number, signal: AbortSignal): Promise<void> {
    if (done()) return;
    // An abort that came while the server started or the documents synced: no event will come.
    if (signal.aborted) throw aborted();
    await new Promise<void>((resolve, reject) => {
      const finish = () => {
        clearTimeout(timer);
        this.publishListeners.delete(check);
        signal.removeEventListener('abort', onAbort);
      };
      const check = () => {
        if (done()) {
          finish();
          resolve();
        }
      };
      const onAbort = () => {
        finish();
        reject(aborted());
      };
      const timer = setTimeout(() => {
        finish();
        resolve();
      }, timeoutMs);
      this.publishListeners.add(check);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  private start(signal: AbortSignal): Promise<Started> {
    if (this.closed) return Promise.reject(new StrataError(`${this.o.server.name} was closed with its session.`, 'lsp-closed'));
    if (signal.aborted) return Promise.reject(aborted());
    this.started ??= this.launch();
    this.started.catch(() => (this.started = undefined)); // a failed start is tried again on the next call
    return this.started;
  }

  private async launch(): Promise<Started> {
    const { server } = this.o;
    const child = spawn(server.command, server.args, { cwd: this.o.root, stdio: ['pipe', 'pipe', 'pipe'], detached: process.platform !== 'win32', windowsHide: true });
    this.child = child;
    child.on('error', (error) => this.o.logger?.warn(`${server.name}: ${error.message}`));
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (this.stderrTail = (this.stderrTail + chunk).slice(-2_000)));
    const spawnFailed = new Promise<never>((_, reject) => {
      child.once('error', (error) => reject(new StrataError(`${server.name} could not start (${error.message}). Install it (${server.installHint}) or run without LSP tools.`, 'lsp-missing')));
      child.once('exit', (code, sig) => reject(new StrataError(`${server.name} exited during startup (${sig ?? `code ${code}`}): ${this.stderrTail.trim().slice(-500) || 'no error output'}`, 'lsp-start')));
    });
    const connection = createProtocolConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
    connection.onNotification(PublishDiagnosticsNotification.type, (p) => {
      this.published.set(p.uri, p.diagnostics);
      this.lastPublishAt = Date.now();
      for (const listener of [...this.publishListeners]) listener();
    });
    // Requests a server may send its client: answer them so it never waits on us.
    connection.onRequest(ConfigurationRequest.type, (p) => p.items.map(() => null));
    connection.onRequest(WorkDoneProgressCreateRequest.type, () => undefined);
    connection.onRequest(RegistrationRequest.type, () => undefined);
    connection.onRequest(UnregistrationRequest.type, () => undefined);
    connection.onError(([error]) => this.o.logger?.warn(`${server.name}: ${error.message}`));
    connection.listen();
    child.stdin?.on('error', () => undefined); // a dead server's pipe: the request fails with its own error
    const rootUri = pathToFileURL(this.o.root).href;
    const init = connection.sendRequest(InitializeRequest.type, {
      processId: process.pid,
      rootUri,
      workspaceFolders: [{ uri: rootUri, name: 'workspace' }],
      initializationOptions: server.initializationOptions ?? null,
      capabilities: {
        textDocument: {
          synchronization: { didSave: false, dynamicRegistration: false },
          definition: { linkSupport: true },
          references: {},
          documentSymbol: { hierarchicalDocumentSymbolSupport: true },
          hover: { contentFormat: ['markdown', 'plaintext'] },
          publishDiagnostics: { relatedInformation: false },
        },
        workspace: { workspaceFolders: true, configuration: true },
      },
    });
    try {
      await Promise.race([withTimeout(init, this.o.startTimeoutMs ?? 30_000, `${server.name} initialize`), spawnFailed]);
    } catch (error) {
      connection.dispose();
      killGroup(child);
      throw error instanceof StrataError ? error : new StrataError(`${server.name} did not start: ${describe(error)}. ${this.stderrTail.trim().slice(-300)}`, 'lsp-start');
    }
    spawnFailed.catch(() => undefined);
    await connection.sendNotification(InitializedNotification.type, {});
    child.once('exit', () => {
      // A server that died takes its open documents with it; the next call starts afresh.
      this.started = undefined;
      this.docs.clear();
      this.published.clear();
    });
    return { child, connection };
  }

  private async request<R>(send: (c: ProtocolConnection, token: CancellationTokenSource['token']) => Promise<R>, signal: AbortSignal, what: string): Promise<R> {
    const { connection } = await this.start(signal);
    const source = new CancellationTokenSource();
    let onAbort = (): void => undefined;
    const stopped = new Promise<never>((_, reject) => {
      onAbort = () => {
        source.cancel();
        reject(aborted());
      };
    });
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    try {
      return await Promise.race([withTimeout(send(connection, source.token), this.o.requestTimeoutMs ?? 30_000, `${this.o.server.name} ${what}`), stopped]);
    } finally {
      signal.removeEventListener('abort', onAbort);
      source.dispose();
    }
  }

  /** Workspace-relative POSIX path of a file URI, or its absolute path when outside the workspace. */
  private toPath(uri: string): { path: string; outside: boolean } {
    const file = uri.startsWith('file:') ? fileURLToPath(uri) : uri;
    for (const root of [this.o.root, this.realRoot]) {
      const rel = relative(root, file);
      if (rel !== '' && !rel.startsWith('..') && !isAbsolute(rel)) return { path: rel.split(sep).join('/'), outside: false };
    }
    return { path: file, outside: true };
  }
}

function toPosition(line: number, column: number): { line: number; character: number } {
  return { line: line - 1, character: column - 1 };
}
