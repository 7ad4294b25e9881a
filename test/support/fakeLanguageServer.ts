import { readFileSync } from 'node:fs';
import type { LanguageServerSpec } from '../../src/adapters/languageServerSpec';

/** What the stand-in server does; every message it receives is logged to `log` as a JSON line. */
export interface FakeServerScript {
  log: string;
  /** Result per request method; a method not listed is never answered. */
  results?: Record<string, unknown>;
  /** Diagnostics published when a document is opened or changed, by the file's base name. */
  diagnostics?: Record<string, unknown[]>;
  /** Milliseconds before `initialize` is answered. */
  initializeDelayMs?: number;
  /** Exit during startup with this code, after writing `stderr`, unless the file `startOnceFlag` exists (it is created). */
  failStart?: { code: number; stderr: string; startOnceFlag?: string };
}

/**
 * Script text (for `node -e`) that reads JSON-RPC messages with Content-Length framing from stdin
 * and runs `handler` (script text) on each, with the message as `msg`.
 */
export function onLspMessages(handler: string): string {
  return `
    let buf = Buffer.alloc(0);
    process.stdin.on('data', (d) => {
      buf = Buffer.concat([buf, d]);
      for (;;) {
        const h = buf.indexOf('\\r\\n\\r\\n');
        if (h < 0) return;
        const len = Number(/Content-Length: (\\d+)/i.exec(buf.subarray(0, h).toString())[1]);
        if (buf.length < h + 4 + len) return;
        const msg = JSON.parse(buf.subarray(h + 4, h + 4 + len).toString());
        buf = buf.subarray(h + 4 + len);
        ${handler}
      }
    });`;
}

/**
 * A small language server over stdio (JSON-RPC with Content-Length framing) whose answers a test
 * sets: fast and exact where the real TypeScript server is slow and its answers are its own.
 * `shutdown` is answered and `exit` ends it.
 */
export function fakeServer(script: FakeServerScript, languages: Record<string, string> = { '.ts': 'typescript', '.tsx': 'typescriptreact' }): LanguageServerSpec {
  const code = `
    const fs = require('fs');
    const s = JSON.parse(process.argv[1]);
    if (s.failStart && !(s.failStart.startOnceFlag && fs.existsSync(s.failStart.startOnceFlag))) {
      if (s.failStart.startOnceFlag) fs.writeFileSync(s.failStart.startOnceFlag, '');
      process.stderr.write(s.failStart.stderr);
      setTimeout(() => process.exit(s.failStart.code), 20);
    } else serve();
    function serve() {
    const send = (m) => { const b = JSON.stringify({ jsonrpc: '2.0', ...m }); process.stdout.write('Content-Length: ' + Buffer.byteLength(b) + '\\r\\n\\r\\n' + b); };
    const publish = (uri) => {
      const name = uri.slice(uri.lastIndexOf('/') + 1);
      const list = (s.diagnostics || {})[name];
      if (list) send({ method: 'textDocument/publishDiagnostics', params: { uri, diagnostics: list } });
    };
    ${onLspMessages(`
        fs.appendFileSync(s.log, JSON.stringify(msg) + '\\n');
        if (msg.method === 'initialize') setTimeout(() => send({ id: msg.id, result: { capabilities: {} } }), s.initializeDelayMs || 0);
        else if (msg.method === 'shutdown') send({ id: msg.id, result: null });
        else if (msg.method === 'exit') process.exit(0);
        else if (msg.method === 'textDocument/didOpen' || msg.method === 'textDocument/didChange') publish(msg.params.textDocument.uri);
        else if (msg.id !== undefined && msg.method && s.results && msg.method in s.results) send({ id: msg.id, result: s.results[msg.method] });
    `)}
    }`;
  return { name: 'fake', command: process.execPath, args: ['-e', code, JSON.stringify(script)], languages, installHint: 'nothing to install' };
}

/** The messages the fake server received, in order. */
export function received(log: string): Array<{ id?: number; method?: string; params?: Record<string, unknown> }> {
  try {
    return readFileSync(log, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as { id?: number; method?: string; params?: Record<string, unknown> });
  } catch {
    return [];
  }
}
