import { describe, expect, it } from 'vitest';
import { matchDocument, queryPhrases } from '../../src/adapters/wordSearch';

// The plain-file archive's word search (what FTS5 does for the SQLite archive): which documents
// match, how they rank, and the snippet the archive browser shows.

/** `w0 w1 … w{n-1}`: a document whose words say where they stand. */
const numbered = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(' ');
const search = (fields: string[], query: string) => matchDocument(fields, queryPhrases(query));

describe('queryPhrases', () => {
  it('splits on white space, folds case and diacritics, and keeps punctuated terms as phrases', () => {
    expect(queryPhrases('Foo  RÉSUMÉ\tfoo-bar.baz')).toEqual([['foo'], ['resume'], ['foo', 'bar', 'baz']]);
  });

  it('reads query syntax as plain words and drops terms with no word at all', () => {
    expect(queryPhrases('"foo bar" OR baz* NEAR(x)')).toEqual([['foo'], ['bar'], ['or'], ['baz'], ['near', 'x']]);
    expect(queryPhrases('  -- * "" ( ) ')).toEqual([]);
    expect(queryPhrases('')).toEqual([]);
  });

  it('counts letters of any script and digits as word characters', () => {
    expect(queryPhrases('E1234 дом.ts 東京')).toEqual([['e1234'], ['дом', 'ts'], ['東京']]);
  });
});

describe('matchDocument', () => {
  it('matches without case or diacritics, and marks the matched words in the snippet', () => {
    expect(search(['Café RÉSUMÉ naïve'], 'cafe resume')).toEqual({ score: 2, snippet: '[Café] [RÉSUMÉ] naïve' });
    expect(search(['Café RÉSUMÉ naïve'], 'NAÏVE')?.snippet).toBe('Café RÉSUMÉ [naïve]');
  });

  it('folds as FTS5 unicode61 does: ß is its own letter, not "ss"', () => {
    expect(search(['Straße'], 'strasse')).toBeUndefined();
    expect(search(['Straße'], 'STRAßE')?.snippet).toBe('[Straße]');
  });

  it('needs every query word somewhere in the document', () => {
    expect(search(['alpha beta', 'gamma'], 'alpha gamma')?.score).toBe(2);
    expect(search(['alpha beta', 'gamma'], 'alpha delta')).toBeUndefined();
    expect(search(['alphabet'], 'alpha')).toBeUndefined();
  });

  it('finds a word at the very start and at the very end of a field', () => {
    expect(search(['alpha beta'], 'alpha')?.snippet).toBe('[alpha] beta');
    expect(search(['alpha beta'], 'beta')?.snippet).toBe('alpha [beta]');
  });

  it('matches a punctuated term only as a phrase, keeping the text between words in the snippet', () => {
    const doc = 'The foo-bar fix; foo then bar.';
    expect(search([doc], 'foo-bar')).toEqual({ score: 1, snippet: 'The [foo]-[bar] fix; foo then bar' });
    expect(search(['foo baz bar'], 'foo-bar')).toBeUndefined();
  });

  it('scores by the occurrences of every phrase in every field', () => {
    expect(search(['a b a'], 'a b')?.score).toBe(3);
    expect(search(['needle a', 'needle b needle'], 'needle')?.score).toBe(3);
  });

  it('takes the snippet from the first field that matches', () => {
    expect(search(['header only', 'the summary has a needle'], 'needle')?.snippet).toBe('the summary has a [needle]');
    expect(search(['needle a', 'needle b'], 'needle')?.snippet).toBe('[needle] a');
  });

  it('matches nothing for a query without words', () => {
    expect(search(['anything at all'], '** ""')).toBeUndefined();
    expect(matchDocument(['anything at all'], [])).toBeUndefined();
  });

  it('shows twelve words around the first match, with … where words are left out', () => {
    const doc = numbered(30);
    expect(search([doc], 'w10')?.snippet).toBe('…w7 w8 w9 [w10] w11 w12 w13 w14 w15 w16 w17 w18…');
    expect(search([doc], 'w20 w5')?.snippet).toBe('…w2 w3 w4 [w5] w6 w7 w8 w9 w10 w11 w12 w13…');
  });

  it('keeps the snippet window inside the field near its start and its end', () => {
    const doc = numbered(30);
    expect(search([doc], 'w1')?.snippet).toBe('w0 [w1] w2 w3 w4 w5 w6 w7 w8 w9 w10 w11…');
    expect(search([doc], 'w28')?.snippet).toBe('…w18 w19 w20 w21 w22 w23 w24 w25 w26 w27 [w28] w29');
    expect(search([numbered(12)], 'w11')?.snippet).toBe('w0 w1 w2 w3 w4 w5 w6 w7 w8 w9 w10 [w11]');
    expect(search(['alpha beta gamma'], 'beta')?.snippet).toBe('alpha [beta] gamma');
  });
});
