import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchUrlText, htmlToText } from '../../src/adapters/httpUrlFetcher';

let server: Server;
let base: string;
/** Resolves when the client has closed the /endless stream. */
let endlessClosed: Promise<void>;
/** 300,000 bytes of numbered lines: more than one chunk of a response body. */
const LARGE = Array.from({ length: 30_000 }, (_, i) => `${i}`.padStart(9, '.')).join('\n') + '\n';

/** Routes with a fixed answer: [content-type or undefined for none, body]. */
const FIXED: Record<string, [string | undefined, string | Buffer]> = {
  '/exact': ['text/plain', 'y'.repeat(100)],
  '/json': ['application/json', '{"a": "<b>&amp;</b>"}'],
  '/xml': ['application/xml; charset=utf-8', '<a>x &amp; y</a>'],
  '/xhtml': ['application/xhtml+xml', '<html><body><p>one</p><p>two &amp; three</p></body></html>'],
  '/plain': ['text/plain', 'keep <b>tags</b> &amp; entities'],
  '/untyped': [undefined, 'no type given'],
  '/accents': ['text/plain; charset=utf-8', 'é'.repeat(100)],
  '/invalid-utf8': ['text/plain', Buffer.from([0x61, 0xff, 0x62])],
  '/large': ['text/plain', LARGE],
  '/pdf': ['application/pdf', '%PDF-1.4'],
  '/mhtml': ['multipart/related; type="text/html"; boundary=b', '--b\r\ncontent-type: text/html\r\n\r\n<p>x</p>\r\n--b--'],
};

function route(req: IncomingMessage, res: ServerResponse): boolean {
  const fixed = FIXED[req.url ?? ''];
  if (fixed) {
    res.writeHead(200, fixed[0] ? { 'content-type': fixed[0] } : {});
    res.end(fixed[1]);
  } else if (req.url === '/accept') {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end(req.headers.accept ?? '(none)');
  } else if (req.url === '/moved') {
    res.writeHead(302, { location: '/page' });
    res.end();
  } else if (req.url === '/empty') {
    res.writeHead(204);
    res.end();
  } else if (req.url === '/endless') {
    res.writeHead(200, { 'content-type': 'text/plain' });
    let resolve = () => {};
    endlessClosed = new Promise((r) => (resolve = r));
    const timer = setInterval(() => res.write('z'.repeat(1024)), 5);
    res.on('close', () => {
      clearInterval(timer);
      resolve();
    });
  } else return false;
  return true;
}

beforeAll(async () => {
  server = createServer((req, res) => {
    if (route(req, res)) return;
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

  it('a body of exactly the cap is whole, not cut', async () => {
    expect(await fetchUrlText(`${base}/exact`, { maxBytes: 100 })).toBe('y'.repeat(100));
    expect(await fetchUrlText(`${base}/exact`, { maxBytes: 99 })).toBe(`${'y'.repeat(99)}\n… (cut at 99 bytes)`);
  });

  it('reads a body of many chunks whole, in order', async () => {
    expect(await fetchUrlText(`${base}/large`)).toBe(LARGE);
    expect(await fetchUrlText(`${base}/large`, { maxBytes: 200_000 })).toBe(`${LARGE.slice(0, 200_000)}\n… (cut at 200000 bytes)`);
  });

  // The fetch's own timeout would also end the stream, so it is set far beyond the test's.
  it('stops downloading at the cap', { timeout: 10_000 }, async () => {
    expect(await fetchUrlText(`${base}/endless`, { maxBytes: 10_000, timeoutMs: 3_600_000 })).toBe(`${'z'.repeat(10_000)}\n… (cut at 10000 bytes)`);
    await endlessClosed;
  });

  it('decodes UTF-8 leniently: a character cut by the cap or a bad byte becomes U+FFFD', async () => {
    expect(await fetchUrlText(`${base}/accents`)).toBe('é'.repeat(100));
    expect(await fetchUrlText(`${base}/accents`, { maxBytes: 101 })).toBe(`${'é'.repeat(50)}\uFFFD\n… (cut at 101 bytes)`);
    expect(await fetchUrlText(`${base}/invalid-utf8`)).toBe('a\uFFFDb');
  });

  it('shows JSON, XML, plain and untyped text as they are, and XHTML as readable text', async () => {
    expect(await fetchUrlText(`${base}/json`)).toBe('{"a": "<b>&amp;</b>"}');
    expect(await fetchUrlText(`${base}/xml`)).toBe('<a>x &amp; y</a>');
    expect(await fetchUrlText(`${base}/plain`)).toBe('keep <b>tags</b> &amp; entities');
    expect(await fetchUrlText(`${base}/untyped`)).toBe('no type given');
    expect(await fetchUrlText(`${base}/xhtml`)).toBe('one\ntwo & three');
  });

  it('says what a non-text answer is instead of showing its bytes', async () => {
    expect(await fetchUrlText(`${base}/pdf`)).toBe(`(${base}/pdf is application/pdf, not text; nothing to show)`);
    const mhtml = 'multipart/related; type="text/html"; boundary=b';
    expect(await fetchUrlText(`${base}/mhtml`)).toBe(`(${base}/mhtml is ${mhtml}, not text; nothing to show)`);
  });

  it('follows redirects, asks for HTML or text first, and reads an empty answer as empty', async () => {
    expect(await fetchUrlText(`${base}/moved`)).toBe('Title\nFish & chips <3');
    expect((await fetchUrlText(`${base}/accept`)).split(',')[0]).toBe('text/html');
    expect(await fetchUrlText(`${base}/empty`)).toBe('');
  });

  it('errors say what failed, with a code per kind', async () => {
    await expect(fetchUrlText('not a url')).rejects.toMatchObject({ message: "'not a url' is not a valid URL.", code: 'url_invalid' });
    await expect(fetchUrlText('ftp://example.com/x')).rejects.toMatchObject({ message: 'Only http and https URLs can be fetched, not ftp:', code: 'url_invalid' });
    await expect(fetchUrlText(`${base}/missing`)).rejects.toMatchObject({ message: `Fetching ${base}/missing answered HTTP 404.`, code: 'url_status' });
    await expect(fetchUrlText(`${base}/slow`, { timeoutMs: 200 })).rejects.toMatchObject({ message: `Could not fetch ${base}/slow: no answer within 200 ms.`, code: 'url_unreachable' });
  });

  it('names the network error when nothing listens, for http and https alike', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    for (const scheme of ['http', 'https']) {
      const url = `${scheme}://127.0.0.1:${port}/`;
      await expect(fetchUrlText(url)).rejects.toMatchObject({ message: `Could not fetch ${url}: connect ECONNREFUSED 127.0.0.1:${port}.`, code: 'url_unreachable' });
    }
  });

  it("stops when the caller aborts, saying so rather than blaming a timeout", async () => {
    const stopped = new AbortController();
    stopped.abort('the user stopped the task');
    await expect(fetchUrlText(`${base}/slow`, {}, stopped.signal)).rejects.toMatchObject({ message: `Could not fetch ${base}/slow: the user stopped the task.`, code: 'url_unreachable' });
    const plain = new AbortController();
    plain.abort();
    await expect(fetchUrlText(`${base}/slow`, {}, plain.signal)).rejects.toMatchObject({ message: `Could not fetch ${base}/slow: This operation was aborted.`, code: 'url_unreachable' });
  });

  it('still times out when the caller passes a signal it does not abort', async () => {
    const open = new AbortController();
    await expect(fetchUrlText(`${base}/slow`, { timeoutMs: 200 }, open.signal)).rejects.toThrow('no answer within 200 ms');
    expect(await fetchUrlText(`${base}/page`, {}, open.signal)).toBe('Title\nFish & chips <3');
  });
});

describe('htmlToText', () => {
  it('drops scripts, styles, noscript and svg with their content, in any case, one element at a time', () => {
    const html = 'a<script type="x">if (x < 1) { go(); }</script>b<STYLE>p { color: red }</STYLE>c<noscript>Enable JS</noscript>d<svg viewBox="0 0 1 1"><text>label</text></svg>e<script>w("</style>");</script>f';
    expect(htmlToText(html)).toBe('abcdef');
  });

  it('turns line breaks and block ends into new lines and removes other tags with their attributes', () => {
    const html = 'a<br>b<br/>c<BR />d<p>e</p>f<div>g</div>h<li>i</li>j<h1>k</h1>l<h6>m</h6>n<tr>o</tr>p<pre>q</pre>r<section>s</section>t<article>u</article>v<a href="https://x.test/?a=1">w</a>x<span class="y">z</span>';
    expect(htmlToText(html)).toBe('a\nb\nc\nde\nfg\nhi\njk\nlm\nno\npq\nrs\ntu\nvwxz');
    expect(htmlToText('<h7>a</h7>b')).toBe('ab');
  });

  it('decodes the common entities once, &amp; last', () => {
    expect(htmlToText('a&nbsp;b &lt;c&gt; &quot;d&quot; &#39;e&#39; f &amp; g &amp;lt;')).toBe('a b <c> "d" \'e\' f & g &lt;');
  });

  it('trims blanks before line ends, keeps at most one empty line, and trims the whole', () => {
    expect(htmlToText('  \n one \t <br> two\n\n\n\n\nthree\n\nfour  ')).toBe('one\n two\n\nthree\n\nfour');
  });
});
