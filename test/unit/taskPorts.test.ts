import { describe, expect, it } from 'vitest';
import type { AssembledTurn } from '../../src/engine/contextEngine';
import type { SummarizeRequest } from '../../src/engine/ports';
import { StrataError } from '../../src/shared/strataError';
import { findMentions, mentionedPath, MENTION_MAX_CHARS, resolveMentions } from '../../src/task/mentions';
import type { ModelCall, ModelClient, ModelResult } from '../../src/task/modelClient';
import { ModelError, promptTokens } from '../../src/task/modelClient';
import { ModelSummarizer } from '../../src/task/modelSummarizer';
import { recallTool } from '../../src/task/recallTool';
import { turnReport } from '../../src/task/turnReport';
import { workspaceMentionSources } from '../../src/task/workspaceMentionSources';
import type { CommandRequest, CommandResult } from '../../src/task/workspacePort';
import { makeToolFixture } from '../support/toolWorkspace';

// The small adapters the Task session is built from, tested on their own (found by mutation
// testing, task-rest: before, only whole sessions reached them).

const usage = { inputTokens: 100, cacheWriteTokens: 20, cacheReadTokens: 380, outputTokens: 7 };

describe('recall tool', () => {
  const engine = {
    retrieve: (ids: readonly string[], format: string) => `retrieved ${ids.join('+')} as ${format}`,
    searchArchive: (query: string, limit?: number) => (query === 'broken' ? 'The archive could not be searched: locked.' : `hits for ${query} (at most ${limit})`),
  };
  const tool = recallTool(engine);
  const run = async (input: unknown) => {
    const prepared = tool.prepare(input);
    if (!prepared.ok) return { invalid: prepared.issues.map((i) => i.message) };
    return { summary: prepared.summary, result: await prepared.run({} as never) };
  };

  it('by ids, in the asked format (full by default), or by topic with at most 10 hits; a failed search is an error', async () => {
    expect(await run({ ids: ['e1', 'e22'] })).toEqual({ summary: 'recall e1, e22 (full)', result: { isError: false, text: 'retrieved e1+e22 as full' } });
    expect(await run({ ids: ['e3'], format: 'header' })).toEqual({ summary: 'recall e3 (header)', result: { isError: false, text: 'retrieved e3 as header' } });
    expect(await run({ query: 'tokenizer bug' })).toEqual({ summary: 'search the archive for "tokenizer bug"', result: { isError: false, text: 'hits for tokenizer bug (at most 10)' } });
    expect(await run({ query: 'broken' })).toEqual({ summary: 'search the archive for "broken"', result: { isError: true, text: 'The archive could not be searched: locked.' } });
  });

  it('refuses both, neither, a malformed id and a one-letter query; takes every format', async () => {
    expect(await run({ ids: ['e1'], query: 'xy' })).toEqual({ invalid: ['give either ids or query, not both and not neither'] });
    expect(await run({ ids: ['xe12'] })).toEqual({ invalid: ['ids look like "e12"'] });
    expect(await run({ ids: ['e12x'] })).toEqual({ invalid: ['ids look like "e12"'] });
    for (const format of ['header', 'summary', 'full', 'mixed']) expect((await run({ ids: ['e1'], format })).summary).toBe(`recall e1 (${format})`);
    expect(await run({})).toEqual({ invalid: ['give either ids or query, not both and not neither'] });
    expect(await run({ ids: ['12'] })).toEqual({ invalid: ['ids look like "e12"'] });
    expect((await run({ query: 'x' })).invalid).toHaveLength(1);
    expect(tool.needsApproval).toBe(false);
    expect(tool.name).toBe('recall');
  });
});

describe('ModelSummarizer', () => {
  const result = (over: Partial<ModelResult>): ModelResult => ({ message: { role: 'assistant', content: [] }, stopReason: 'end_turn', usage, model: 'm', ...over });
  const client = (r: ModelResult, calls: ModelCall[]): ModelClient => ({
    stream: async (call) => {
      calls.push(call);
      return r;
    },
    listModels: async () => [],
  });
  const request = { request: { model: 'x', max_tokens: 1, messages: [] }, maxOutputTokens: 321 } as unknown as SummarizeRequest;

  it('makes one call with the condensing model and the cap, and returns the text blocks joined and trimmed', async () => {
    const calls: ModelCall[] = [];
    const summarizer = new ModelSummarizer(client(result({ message: { role: 'assistant', content: [{ type: 'text', text: '  Summary ' }, { type: 'tool_use', id: 't', name: 'x', input: {} }, { type: 'text', text: 'end.\n' }] } }), calls), 'cheap-model');
    const signal = new AbortController().signal;
    expect(await summarizer.summarize(request, signal)).toEqual({ text: 'Summary end.', inputTokens: 500, outputTokens: 7 });
    expect(calls).toEqual([{ request: request.request, model: 'cheap-model', maxTokens: 321, signal }]);
    await summarizer.summarize(request);
    expect(calls[1]).not.toHaveProperty('signal');
  });

  it('a cancelled call is an error, not an empty summary', async () => {
    const summarizer = new ModelSummarizer(client(result({ stopReason: 'aborted' }), []), 'm');
    const error = await summarizer.summarize(request).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StrataError);
    expect(error).toMatchObject({ code: 'cancelled', message: 'Condensing was cancelled; the context is unchanged.' });
  });
});

describe('turnReport and the model-client helpers', () => {
  it('reports the turn with its cache hit rate over the whole prompt (0 with no prompt)', () => {
    const turn = { turn: 4, mode: 'layered', tokens: 480, budget: 1000, usage: { system: 1 } } as unknown as AssembledTurn;
    const cost = { usd: 0.5 } as never;
    expect(turnReport(turn, usage, cost, 12, 340)).toEqual({ turn: 4, mode: 'layered', promptTokens: 480, budget: 1000, layers: { system: 1 }, usage, cost, cacheHitRate: 0.76, engineMs: 12, modelMs: 340 });
    expect(turnReport(turn, { inputTokens: 0, cacheWriteTokens: 0, cacheReadTokens: 0, outputTokens: 3 }, cost, 0, 0).cacheHitRate).toBe(0);
    expect(promptTokens({ inputTokens: 1, cacheWriteTokens: 10, cacheReadTokens: 100, outputTokens: 1000 })).toBe(111);
  });

  it('a ModelError is named as one', () => {
    expect(new ModelError('x', 'model_auth', {} as ModelResult, false).name).toBe('ModelError');
  });
});

describe('mentions: paths and the sources over the workspace tools', () => {
  it('the path a mention lifts ignore rules for', () => {
    expect(mentionedPath('docs/')).toBe('docs');
    expect(mentionedPath('a/b.ts')).toBe('a/b.ts');
    expect(mentionedPath('/')).toBe('.');
    expect(mentionedPath('')).toBe('.');
    expect(findMentions('see @/src/ and @http://x.org/a, then @/a.ts). and @/docs/http://x')).toEqual([
      { kind: 'folder', ref: '@/src/', path: 'src/' },
      { kind: 'url', ref: '@http://x.org/a', url: 'http://x.org/a' },
      { kind: 'file', ref: '@/a.ts', path: 'a.ts' },
      { kind: 'file', ref: '@/docs/http://x', path: 'docs/http://x' },
    ]);
  });

  it('each missing source is named; empty problems and changes say so; a body of exactly the cap is not cut', async () => {
    const texts = async (query: string, sources: Parameters<typeof resolveMentions>[1]) => (await resolveMentions(query, sources)).map((b) => b.text);
    expect(await texts('@/a.ts @/d/ @problems @https://x.org', {})).toEqual([
      '<mention ref="@/a.ts">\n(@/a.ts: this front end cannot provide files)\n</mention>',
      '<mention ref="@/d/">\n(@/d/: this front end cannot provide folder listings)\n</mention>',
      '<mention ref="@problems">\n(@problems: this front end cannot provide diagnostics)\n</mention>',
      '<mention ref="@https://x.org">\n(@https://x.org: this front end cannot provide web pages)\n</mention>',
    ]);
    expect(await texts('@problems @git-changes @/d/ @https://x.org', { problems: async () => '', gitChanges: async () => '', listFolder: async (p) => `listing of ${p}`, fetchUrl: async (u) => `page ${u}` })).toEqual([
      '<mention ref="@problems">\n(no problems reported)\n</mention>',
      '<mention ref="@git-changes">\n(no uncommitted changes)\n</mention>',
      '<mention ref="@/d/">\nlisting of d/\n</mention>',
      '<mention ref="@https://x.org">\npage https://x.org\n</mention>',
    ]);
    expect(await resolveMentions('@/a.ts', { readFile: async () => 'A' })).toEqual([{ type: 'text', text: '<mention ref="@/a.ts">\nA\n</mention>' }]);
    const exact = 'x'.repeat(MENTION_MAX_CHARS);
    expect(await texts('@/e.txt', { readFile: async () => exact })).toEqual([`<mention ref="@/e.txt">\n${exact}\n</mention>`]);
    expect(await texts('@/f.txt', { readFile: async () => `${exact}YZ` })).toEqual([`<mention ref="@/f.txt">\n${exact}\n… (cut at ${MENTION_MAX_CHARS} characters of ${MENTION_MAX_CHARS + 2})\n</mention>`]);
  });

  it('files and folders are read through the tools, with the mentioned path allowed though ignored; git changes through the shell', async () => {
    const fx = makeToolFixture();
    try {
      fx.write('.gitignore', 'secret/\n');
      fx.write('secret/k.txt', 'key\n');
      const runs: CommandRequest[] = [];
      const answer: CommandResult = { output: ' M a.ts\n', exitCode: 0, timedOut: false, aborted: false, truncated: false, omittedBytes: 0 };
      let next = answer;
      const commands = { shell: '/bin/sh', run: async (r: CommandRequest) => (runs.push(r), next) };
      const seen: Array<ReadonlySet<string>> = [];
      const sources = workspaceMentionSources((signal, mentioned) => {
        seen.push(mentioned);
        return { ...fx.ctx, signal, mentionedPaths: mentioned };
      }, commands);
      expect(await sources.readFile!('secret/k.txt')).toBe('secret/k.txt (lines 1-1 of 1)\n1 | key');
      expect(await sources.listFolder!('secret/')).toBe('secret/k.txt');
      expect(seen.map((s) => [...s])).toEqual([['secret/k.txt'], ['secret']]);
      await expect(sources.readFile!('nope.txt')).rejects.toThrow("No file at 'nope.txt'. Use list_files to see what exists.");
      expect(await sources.gitChanges!()).toBe(' M a.ts\n');
      expect(runs[0]).toEqual({ command: 'git status --short && git diff', cwd: '.', timeoutMs: 15_000 });
      next = { ...answer, exitCode: 128, output: `  fatal: not a git repository${' x'.repeat(300)}\n` };
      await expect(sources.gitChanges!()).rejects.toThrow(new Error(`git exited with 128: fatal: not a git repository${' x'.repeat(300)}`.slice(0, 'git exited with 128: '.length + 300)));
      next = { ...answer, exitCode: null, startError: 'spawn git ENOENT' };
      await expect(sources.gitChanges!()).rejects.toThrow('spawn git ENOENT');
      const signal = new AbortController().signal;
      next = answer;
      await sources.gitChanges!(signal);
      expect(runs.at(-1)?.signal).toBe(signal);
    } finally {
      fx.remove();
    }
  });
});
