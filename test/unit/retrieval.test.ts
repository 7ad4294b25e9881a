import { describe, expect, it } from 'vitest';
import type { ArchivedExchange } from '../../src/engine/ports';
import { exchangeId, parseExchangeId } from '../../src/engine/exchange';
import { fullText, retrieveExchanges } from '../../src/engine/retrieval';
import { charTokenizer } from '../support/engineHarness';
import { MemoryArchive } from '../support/memoryArchive';

const count = (s: string) => charTokenizer.count(s);

function archived(seq: number, body = `body of e${seq}`): ArchivedExchange {
  return {
    sessionId: 's',
    seq,
    createdAt: 1_000 * seq,
    header: `header ${seq}`,
    summary: `summary ${seq}`,
    full: [
      { role: 'user', content: [{ type: 'text', text: `question ${seq}` }] },
      { role: 'assistant', content: [{ type: 'text', text: body }, { type: 'tool_use', id: `t${seq}`, name: 'Read', input: { file_path: 'a.ts' } }] },
    ],
    tokens: 10,
  };
}

function archiveOf(...exchanges: ArchivedExchange[]): MemoryArchive {
  const archive = new MemoryArchive();
  for (const e of exchanges) archive.put(e);
  return archive;
}

describe('parseExchangeId: the ids a model writes', () => {
  it('reads e12, 12 and padded forms, up to nine digits', () => {
    expect(['e12', '12', ' e12 ', '\te7\n', 'e123456789'].map(parseExchangeId)).toEqual([12, 12, 12, 7, 123_456_789]);
    expect(parseExchangeId(exchangeId(4_321))).toBe(4_321);
  });

  it('refuses anything else: trailing text, ten digits, other prefixes, signs, inner spaces', () => {
    for (const id of ['e12x', 'e12 e13', 'e1234567890', 'ee12', 'x12', 'e', '', 'e-1', 'e1.5', 'e 12']) expect(parseExchangeId(id), id).toBeUndefined();
  });

  it('is what retrieval asks the archive for', () => {
    const asked: number[] = [];
    const archive = { lastSeq: () => 2, get: (_session: string, seq: number) => (asked.push(seq), seq === 2 ? archived(2) : undefined) };
    retrieveExchanges(archive, 's', [' e2 ', '2', 'e2x', 'e20000000001'], 'header', 1_000, count);
    expect(asked).toEqual([2, 2]);
  });
});

describe('retrieveExchanges: archived exchanges by id, in the asked format, within a quota', () => {
  it('gives the full text as the model re-reads it: role lines, then each block', () => {
    expect(fullText(archived(1))).toBe('user:\nquestion 1\nassistant:\nbody of e1\nRead {"file_path":"a.ts"}');
  });

  it('renders each format exactly and counts the tokens of what it returned', () => {
    const archive = archiveOf(archived(1), archived(2));
    const header = retrieveExchanges(archive, 's', ['e1', '2'], 'header', 1_000, count);
    expect(header.text).toBe('<retrieved format="header">\ne1 header 1\n\ne2 header 2\n</retrieved>');
    expect(header.tokens).toBe(count('e1 header 1') + count('e2 header 2'));
    const summary = retrieveExchanges(archive, 's', ['e1'], 'summary', 1_000, count);
    expect(summary.text).toBe('<retrieved format="summary">\ne1 header 1\nsummary 1\n</retrieved>');
    expect(summary.tokens).toBe(count('e1 header 1\nsummary 1'));
    const full = retrieveExchanges(archive, 's', ['e1'], 'full', 1_000, count);
    expect(full.text).toBe(`<retrieved format="full">\ne1 header 1\n${fullText(archived(1))}\n</retrieved>`);
    // mixed: the full text while it fits
    expect(retrieveExchanges(archive, 's', ['e1'], 'mixed', 1_000, count).text).toBe(full.text.replace('format="full"', 'format="mixed"'));
  });

  it('mixed falls back to the summary when the full text does not fit; full is cut instead', () => {
    const long = archived(1, 'word '.repeat(400));
    const archive = archiveOf(long);
    const quota = 60;
    const mixed = retrieveExchanges(archive, 's', ['e1'], 'mixed', quota, count);
    expect(mixed.text).toBe('<retrieved format="mixed">\ne1 header 1\nsummary 1\n</retrieved>');
    const full = retrieveExchanges(archive, 's', ['e1'], 'full', quota, count);
    // whole lines while they fit, then the ellipsis: the 2,000-character answer line does not
    expect(full.text).toBe('<retrieved format="full">\ne1 header 1\nuser:\nquestion 1\nassistant: …\n</retrieved>');
    expect(full.tokens).toBe(count('e1 header 1\nuser:\nquestion 1\nassistant: …'));
  });

  it('says which ids do not exist, with the range that does, and never throws', () => {
    const archive = archiveOf(archived(1), archived(2), archived(3));
    const result = retrieveExchanges(archive, 's', ['e9', 'x1', 'e2'], 'header', 1_000, count);
    expect(result.text).toBe(
      '<retrieved format="header">\ne9: no such exchange (this session has e1-e3).\n\nx1: no such exchange (this session has e1-e3).\n\ne2 header 2\n</retrieved>',
    );
    expect(result.tokens).toBe(count('e2 header 2'));
    expect(retrieveExchanges(new MemoryArchive(), 's', ['e1'], 'full', 1_000, count).text).toBe(
      '<retrieved format="full">\ne1: no such exchange (this session has none yet).\n</retrieved>',
    );
  });

  it('stops at the quota: an id with 20 tokens or fewer left is named as not retrieved, to ask again', () => {
    const archive = archiveOf(archived(1), archived(2), archived(3));
    const first = count('e1 header 1\nsummary 1');
    // exactly 20 tokens left after e1: e2 is refused
    const at20 = retrieveExchanges(archive, 's', ['e1', 'e2'], 'summary', first + 20, count);
    expect(at20.text).toBe(
      `<retrieved format="summary">\ne1 header 1\nsummary 1\n\ne2: not retrieved, this turn's retrieval quota (${first + 20} tokens) is used up; ask again next turn.\n</retrieved>`,
    );
    expect(at20.tokens).toBe(first);
    // 21 left: e2 is given, cut to what is left
    const at21 = retrieveExchanges(archive, 's', ['e1', 'e2'], 'summary', first + 21, count);
    expect(at21.text).toBe('<retrieved format="summary">\ne1 header 1\nsummary 1\n\ne2 header 2\nsummary 2\n</retrieved>');
    expect(at21.tokens).toBe(2 * first);
  });

  it('reads only the asked session', () => {
    const archive = archiveOf(archived(1), { ...archived(1), sessionId: 'other', header: 'elsewhere' });
    expect(retrieveExchanges(archive, 'other', ['e1'], 'header', 100, count).text).toBe('<retrieved format="header">\ne1 elsewhere\n</retrieved>');
  });

  it('mixed sends the full text when it fits exactly', () => {
    const long = archived(1, 'a longer answer '.repeat(10));
    const archive = archiveOf(long);
    const full = `e1 header 1\n${fullText(long)}`;
    const exact = retrieveExchanges(archive, 's', ['e1'], 'mixed', count(full), count);
    expect(exact.text).toBe(`<retrieved format="mixed">\n${full}\n</retrieved>`);
    expect(retrieveExchanges(archive, 's', ['e1'], 'mixed', count(full) - 1, count).text).toBe('<retrieved format="mixed">\ne1 header 1\nsummary 1\n</retrieved>');
  });

  it('never asks the archive for an id that does not parse', () => {
    const asked: number[] = [];
    const archive = { lastSeq: () => 2, get: (_session: string, seq: number) => (asked.push(seq), seq === 2 ? archived(2) : undefined) };
    const result = retrieveExchanges(archive, 's', ['x1', 'e', 'e2'], 'header', 100, count);
    expect(asked).toEqual([2]);
    expect(result.text).toBe('<retrieved format="header">\nx1: no such exchange (this session has e1-e2).\n\ne: no such exchange (this session has e1-e2).\n\ne2 header 2\n</retrieved>');
  });

  it('names the exchange that superseded a stored one, and fits its text in what the note leaves', () => {
    const old = { ...archived(1), supersededBy: 3 };
    const note = '[e1 is superseded by e3 (an edited, resent message); shown for reference only]';
    const archive = archiveOf(old);
    expect(retrieveExchanges(archive, 's', ['e1'], 'summary', 1_000, count).text).toBe(`<retrieved format="summary">\n${note}\ne1 header 1\nsummary 1\n</retrieved>`);
    // mixed: the full text only if it fits beside the note
    const full = `e1 header 1\n${fullText(old)}`;
    const tight = retrieveExchanges(archive, 's', ['e1'], 'mixed', count(note) + count(full) - 1, count).text;
    expect(tight).toContain(`${note}\ne1 header 1\nsummary 1`);
    expect(tight).not.toContain('question 1');
    const roomy = retrieveExchanges(archive, 's', ['e1'], 'mixed', count(note) + count(full) + 2, count).text;
    expect(roomy).toContain(`${note}\n${full}`);
  });
});
