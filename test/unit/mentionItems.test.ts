import { describe, expect, it } from 'vitest';
import { applyMention, mentionAtCaret, mentionItems } from '../../src/shared/mentionItems';
import { findMentions } from '../../src/task/mentions';

const FILES = ['src/help/index.ts', 'hello.ts', 'docs/shell.md', 'src/othello.ts', 'README.md'];

describe('mentionItems', () => {
  it('ranks name-prefix matches first, then names containing the query, then paths; shorter first', () => {
    const items = mentionItems('hel', FILES);
    expect(items.map((i) => i.label)).toEqual(['hello.ts', 'src/help/', 'docs/shell.md', 'src/othello.ts', 'src/help/index.ts']);
    expect(items.find((i) => i.label === 'hello.ts')).toEqual({ kind: 'file', label: 'hello.ts', detail: 'file', insert: '@/hello.ts' });
  });

  it('lists folders once, as @/dir/ (the form the Task loop reads as a listing)', () => {
    const items = mentionItems('src', FILES);
    expect(items.filter((i) => i.kind === 'folder').map((i) => i.insert)).toEqual(['@/src/', '@/src/help/']);
    // Every insert is a mention the Task loop understands, of the right kind.
    for (const item of mentionItems('', FILES, 100)) {
      const found = findMentions(`see ${item.insert === '@https://' ? '@https://example.com' : item.insert} now`);
      expect(found.map((m) => m.kind)).toEqual([item.kind]);
    }
  });

  it('offers @problems and @git-changes by prefix, the URL hint once an h is typed, case-insensitively', () => {
    expect(mentionItems('', []).map((i) => i.insert)).toEqual(['@problems', '@git-changes']);
    expect(mentionItems('pro', []).map((i) => i.insert)).toEqual(['@problems']);
    expect(mentionItems('htt', []).map((i) => i.insert)).toEqual(['@https://']);
    expect(mentionItems('READ', FILES).map((i) => i.label)).toEqual(['README.md']);
    expect(mentionItems('zzz', FILES)).toEqual([]);
  });

  it('caps the list', () => {
    const many = Array.from({ length: 100 }, (_, i) => `f${i}.ts`);
    expect(mentionItems('f', many, 10)).toHaveLength(10);
    expect(mentionItems('f', many)).toHaveLength(30);
  });
});

describe('mentionAtCaret / applyMention', () => {
  it('finds the @ word at the caret only when @ starts a word', () => {
    expect(mentionAtCaret('look at @hel', 12)).toEqual({ start: 8, query: 'hel' });
    expect(mentionAtCaret('@', 1)).toEqual({ start: 0, query: '' });
    expect(mentionAtCaret('mail me@host', 12)).toBeUndefined();
    expect(mentionAtCaret('look at @hel now', 16)).toBeUndefined();
    expect(mentionAtCaret('look at @hel now', 12)).toEqual({ start: 8, query: 'hel' });
    expect(mentionAtCaret('@hel', -1)).toBeUndefined();
  });

  it('replaces the typed mention with the pick plus a space, keeping the rest', () => {
    expect(applyMention('look at @hel', 8, 12, '@/hello.ts')).toEqual({ text: 'look at @/hello.ts ', caret: 19 });
    expect(applyMention('see @he and more', 4, 7, '@/hello.ts')).toEqual({ text: 'see @/hello.ts and more', caret: 15 });
    expect(applyMention('@ht', 0, 3, '@https://')).toEqual({ text: '@https://', caret: 9 });
  });
});
