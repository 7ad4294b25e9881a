import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GitignoreMatcher } from '../../src/adapters/gitignoreMatcher';
import { JsTextSearcher } from '../../src/adapters/jsTextSearcher';
import { NodeWorkspace } from '../../src/adapters/nodeWorkspace';
import type { DirEntry, TextSearchQuery } from '../../src/task/workspacePort';
import { useTempDirs } from '../support/tempDirs';

// The fallback text search's edges, on real files (toolsSearch.test.ts checks it against ripgrep
// on a common tree): explicit files, line ends, the cap, aborts, files that vanish, binaries and
// the size limit.

const tempDir = useTempDirs('strata-jssearch-');

function fixture(files: Record<string, string | Uint8Array>, workspaceOf = (root: string) => new NodeWorkspace(root)) {
  const root = tempDir();
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
  const ws = workspaceOf(root);
  return { root, searcher: new JsTextSearcher(ws, new GitignoreMatcher(ws)) };
}

const query = (q: Partial<TextSearchQuery>): TextSearchQuery => ({ pattern: 'needle', path: '', maxMatches: 100, includeIgnored: false, ...q });
const lines = (r: { matches: Array<{ path: string; line: number; text: string }> }) => r.matches.map((m) => `${m.path}:${m.line}:${m.text}`);

describe('JsTextSearcher', () => {
  it('searches a file named as the path even when the glob would not pick it', async () => {
    const { searcher } = fixture({ 'notes.md': 'a needle\n', 'src/a.ts': 'needle\n' });
    expect(lines(await searcher.search(query({ path: 'notes.md', glob: '*.ts' })))).toEqual(['notes.md:1:a needle']);
    expect(lines(await searcher.search(query({ glob: '*.ts' })))).toEqual(['src/a.ts:1:needle']);
  });

  it('searches files only: folders are entered, symbolic links not followed', async () => {
    const { root, searcher } = fixture({ 'a.txt': 'needle\n', 'sub/b.txt': 'needle\n' });
    symlinkSync('a.txt', join(root, 'link.txt'));
    symlinkSync('sub', join(root, 'linkdir'));
    expect(lines(await searcher.search(query({})))).toEqual(['a.txt:1:needle', 'sub/b.txt:1:needle']);
  });

  it('reads CRLF files line by line without the CR, so $ anchors at the line end', async () => {
    const { searcher } = fixture({ 'w.txt': 'first\r\nthe needle\r\nx\ry needle\r\n' });
    expect(lines(await searcher.search(query({ pattern: 'needle$' })))).toEqual(['w.txt:2:the needle', 'w.txt:3:x\ry needle']);
  });

  it('is truncated only when a match beyond the cap exists, and says which engine answered', async () => {
    const { searcher } = fixture({ 'a.txt': 'needle 1\nneedle 2\n' });
    expect(await searcher.search(query({ maxMatches: 2 }))).toEqual({
      matches: [
        { path: 'a.txt', line: 1, text: 'needle 1' },
        { path: 'a.txt', line: 2, text: 'needle 2' },
      ],
      truncated: false,
      engine: 'javascript',
    });
    expect(await searcher.search(query({ maxMatches: 1 }))).toEqual({ matches: [{ path: 'a.txt', line: 1, text: 'needle 1' }], truncated: true, engine: 'javascript' });
  });

  it('finds nothing once aborted, in a folder or in a single file', async () => {
    const { searcher } = fixture({ 'a.txt': 'needle\n', 'sub/b.txt': 'needle\n' });
    const signal = AbortSignal.abort();
    expect(await searcher.search(query({ signal }))).toEqual({ matches: [], truncated: false, engine: 'javascript' });
    expect((await searcher.search(query({ path: 'a.txt', signal }))).matches).toEqual([]);
  });

  it('skips a file that vanishes between the listing and the read', async () => {
    /** Deletes `gone.txt` right after listing the root, as an editor saving or a build cleaning would. */
    class VanishingWorkspace extends NodeWorkspace {
      override async listDir(rel: string): Promise<DirEntry[]> {
        const entries = await super.listDir(rel);
        if (rel === '') rmSync(join(this.root, 'gone.txt'));
        return entries;
      }
    }
    const { searcher } = fixture({ 'a.txt': 'needle\n', 'gone.txt': 'needle\n', 'z.txt': 'needle\n' }, (root) => new VanishingWorkspace(root));
    expect(lines(await searcher.search(query({})))).toEqual(['a.txt:1:needle', 'z.txt:1:needle']);
  });

  it('takes a file as binary when a NUL is in its first 8,000 bytes, as git does', async () => {
    const nulAt = (at: number) => {
      const bytes = new Uint8Array(at + 20).fill(0x20);
      bytes.set(new TextEncoder().encode('needle'), at + 10);
      bytes[at] = 0;
      return bytes;
    };
    const { searcher } = fixture({ 'early.bin': nulAt(7_999), 'late.bin': nulAt(8_000) });
    expect((await searcher.search(query({}))).matches.map((m) => m.path)).toEqual(['late.bin']);
  });

  it('searches files up to 16 MiB and skips larger ones', async () => {
    const limit = 16 * 1024 * 1024;
    /** `size` bytes of text lines, the needle on the last one. */
    const textOf = (size: number) => {
      const last = 'needle\n';
      const line = `${'.'.repeat(1_023)}\n`;
      const body = line.repeat(Math.floor((size - last.length) / line.length));
      return body + ' '.repeat(size - last.length - body.length) + last;
    };
    const { searcher } = fixture({ 'at-limit.txt': textOf(limit), 'over-limit.txt': textOf(limit + 1) });
    expect((await searcher.search(query({ pattern: '^ *needle' }))).matches.map((m) => m.path)).toEqual(['at-limit.txt']);
  });
});
