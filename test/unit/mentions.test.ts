import { describe, expect, it } from 'vitest';
import { findMentions, MENTION_MAX_CHARS, resolveMentions } from '../../src/task/mentions';

describe('@-mentions', () => {
  it('finds files, folders, problems, git changes and urls, each once, without sentence punctuation', () => {
    const mentions = findMentions('Look at @/src/a.ts, @/docs/ and @problems. Also @git-changes and @https://example.test/x?y=1. Again @/src/a.ts');
    expect(mentions).toEqual([
      { kind: 'file', ref: '@/src/a.ts', path: 'src/a.ts' },
      { kind: 'folder', ref: '@/docs/', path: 'docs/' },
      { kind: 'problems', ref: '@problems' },
      { kind: 'git-changes', ref: '@git-changes' },
      { kind: 'url', ref: '@https://example.test/x?y=1', url: 'https://example.test/x?y=1' },
    ]);
  });

  it('ignores e-mail addresses and @ inside words', () => {
    expect(findMentions('mail me at me@example.com or a@/b')).toEqual([]);
  });

  it('resolves each mention into a tagged block, in order', async () => {
    const blocks = await resolveMentions('fix @/a.ts using @problems', {
      readFile: async (p) => `contents of ${p}`,
      problems: async () => 'a.ts:1 error TS2322',
    });
    expect(blocks.map((b) => b.text)).toEqual([
      '<mention ref="@/a.ts">\ncontents of a.ts\n</mention>',
      '<mention ref="@problems">\na.ts:1 error TS2322\n</mention>',
    ]);
  });

  it('says what failed or is missing instead of throwing', async () => {
    const blocks = await resolveMentions('@/gone.ts @git-changes', {
      readFile: async () => {
        throw new Error('no such file');
      },
    });
    expect(blocks[0]?.text).toContain('could not resolve @/gone.ts: no such file');
    expect(blocks[1]?.text).toContain('cannot provide git changes');
  });

  it('caps a huge mention and says so', async () => {
    const blocks = await resolveMentions('@/big.txt', { readFile: async () => 'x'.repeat(MENTION_MAX_CHARS + 10) });
    expect(blocks[0]!.text.length).toBeLessThan(MENTION_MAX_CHARS + 200);
    expect(blocks[0]!.text).toContain(`cut at ${MENTION_MAX_CHARS} characters of ${MENTION_MAX_CHARS + 10}`);
  });
});
