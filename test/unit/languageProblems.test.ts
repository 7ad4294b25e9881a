import { describe, expect, it } from 'vitest';
import { languageProblems, PROBLEMS_MAX_FILES } from '../../src/task/languageProblems';
import { diagnostic, fakeLanguageService } from '../support/fakeLanguageService';

const SCOPE = 'the files read or edited in this session';

describe('@problems from a language service', () => {
  it('asks the server about the supported files only, then lists what it holds', async () => {
    const language = fakeLanguageService({ diagnostics: async (path) => (path === undefined ? [diagnostic('src/a.ts', 3, 'error', { message: 'bad' })] : []) });
    const text = await languageProblems(language, () => ['README.md', 'src/a.ts', 'notes.xyz', 'src/b.ts'])();
    expect(language.calls.map((c) => c.path)).toEqual(['src/a.ts', 'src/b.ts', undefined]);
    expect(text).toBe(`1 error, 0 warnings in ${SCOPE}:\nsrc/a.ts:3:1: error: bad`);
  });

  it(`checks at most ${PROBLEMS_MAX_FILES} files, the first ones`, async () => {
    const language = fakeLanguageService();
    const files = Array.from({ length: PROBLEMS_MAX_FILES + 5 }, (_, i) => `f${i}.ts`);
    expect(await languageProblems(language, () => ['skip.md', ...files])()).toBe(`No errors or warnings in ${SCOPE}.`);
    expect(language.calls.map((c) => c.path)).toEqual([...files.slice(0, PROBLEMS_MAX_FILES), undefined]);
  });

  it('a file the server fails on does not stop the others or the answer', async () => {
    const language = fakeLanguageService({
      diagnostics: async (path) => {
        if (path === 'src/broken.ts') throw new Error('server crashed on this one');
        return path === undefined ? [diagnostic('src/ok.ts', 1, 'warning', { message: 'unused' })] : [];
      },
    });
    const text = await languageProblems(language, () => ['src/broken.ts', 'src/ok.ts'])();
    expect(language.calls.map((c) => c.path)).toEqual(['src/broken.ts', 'src/ok.ts', undefined]);
    expect(text).toBe(`0 errors, 1 warning in ${SCOPE}:\nsrc/ok.ts:1:1: warning: unused`);
  });

  it('passes the caller signal on, or one of its own that is not aborted', async () => {
    const language = fakeLanguageService();
    const stop = new AbortController();
    await languageProblems(language, () => ['a.ts'])(stop.signal);
    expect(language.calls.map((c) => c.signal)).toEqual([stop.signal, stop.signal]);
    const own = fakeLanguageService();
    await languageProblems(own, () => ['a.ts'])();
    expect(own.calls.map((c) => c.signal.aborted)).toEqual([false, false]);
  });
});
