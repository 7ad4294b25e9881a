import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchUrlText, htmlToText } from '../../src/adapters/httpUrlFetcher';

let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/page') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<html><head><style>p{}</style><script>alert(1)</script></head><body><h1>Title</h1><p>Fish &amp; chips &lt;3</p></body></html>');
    } else if (req.url === '/big') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('x'.repeat(10_000));
    } else if (req.url === '/image') {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(Buffer.from([137, 80, 78, 71]));
    } else if (req.url === '/slow') {
      setTimeout(() => res.end('late'), 2_000);
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

describe('@url fetching', () => {
  it('reduces an HTML page to its readable text', async () => {
    expect(await fetchUrlText(`${base}/page`)).toBe('Title\nFish & chips <3');
  });

  it('caps the download and says so', async () => {
    const text = await fetchUrlText(`${base}/big`, { maxBytes: 100 });
    expect(text).toBe(`${'x'.repeat(100)}\n… (cut at 100 bytes)`);
  });

  it('answers clearly for non-text, HTTP errors, timeouts and other schemes', async () => {
    expect(await fetchUrlText(`${base}/image`)).toContain('image/png, not text');
    await expect(fetchUrlText(`${base}/missing`)).rejects.toThrow('answered HTTP 404');
    await expect(fetchUrlText(`${base}/slow`, { timeoutMs: 200 })).rejects.toThrow('no answer within 200 ms');
    await expect(fetchUrlText('file:///etc/passwd')).rejects.toThrow('Only http and https');
  });

  it('keeps line structure of block elements', () => {
    expect(htmlToText('<ul><li>a</li><li>b</li></ul>')).toBe('a\nb');
  });
});
