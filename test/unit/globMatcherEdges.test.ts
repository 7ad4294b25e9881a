import { describe, expect, it } from 'vitest';
import { StrataError } from '../../src/shared/strataError';
import { compileGlob } from '../../src/task/tools/globMatcher';

// Edges of the file_pattern glob found by mutation testing (task-tools): escapes, brackets
// that are not a class, trailing stars, and what a glob must not match.

const matches = (glob: string, path: string) => compileGlob(glob).test(path);

describe('compileGlob edges', () => {
  it('an escaped brace is a literal, inside braces and outside them', () => {
    expect(matches('{a\\},b}.txt', 'a}.txt')).toBe(true);
    expect(matches('{a\\},b}.txt', 'b.txt')).toBe(true);
    expect(matches('\\{a,b}', '{a,b}')).toBe(true);
    expect(matches('\\{a,b}', 'a')).toBe(false);
  });

  it('a [ with no ] after it is a literal, and a backslash at the end is one too', () => {
    expect(matches('a[bc', 'a[bc')).toBe(true);
    expect(matches('x]y[z', 'x]y[z')).toBe(true);
    expect(matches('x][ab]', 'x]a')).toBe(true);
    expect(matches('a\\', 'a\\')).toBe(true);
  });

  it('inside a class, ! after the first place and a backslash are literals', () => {
    expect(matches('[a!]', '!')).toBe(true);
    expect(matches('[!a]', '!')).toBe(true);
    expect(matches('[!a]', 'a')).toBe(false);
    expect(matches('[\\]', '\\')).toBe(true);
  });

  it('a trailing star matches nothing too; a glob without a star matches the whole name only', () => {
    expect(matches('a*', 'a')).toBe(true);
    expect(matches('a**', 'd/a')).toBe(true);
    expect(matches('b', 'ab')).toBe(false);
    expect(matches('src/a', 'src/a/b')).toBe(false);
    expect(matches('**/x', 'a')).toBe(false);
    expect(matches('**/x', 'a/b/x')).toBe(true);
  });

  it('a bad class and too many alternatives are the model\'s to fix (code search-pattern)', () => {
    for (const glob of ['[z-a]', '{a,b}{c,d}{e,f}{g,h}{i,j}{k,l}{m,n}{o,p}{q,r}']) {
      const error = (() => {
        try {
          compileGlob(glob);
        } catch (e) {
          return e;
        }
        return undefined;
      })();
      expect(error).toBeInstanceOf(StrataError);
      expect((error as StrataError).code).toBe('search-pattern');
    }
  });
});
