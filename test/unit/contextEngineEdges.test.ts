import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ContextEngine } from '../../src/engine/contextEngine';
import { effectiveBudget } from '../../src/engine/engineState';
import { ExtractiveSummarizer } from '../../src/engine/extractiveSummarizer';
import type { ArchiveSearchHit } from '../../src/engine/ports';
import { ArchiveError } from '../../src/engine/ports';
import { openSqliteArchive } from '../../src/adapters/sqliteArchiveStore';
import { steppingClock } from '../../src/adapters/systemClock';
import { resolveEngineSettings } from '../../src/shared/engineSettings';
import { assistant, charTokenizer, drive, silentLogger, text, toolResult, toolUse, user } from '../support/engineHarness';
import { engineOver, exchange, lastInput } from '../support/loggedEngine';
import { MemoryArchive } from '../support/memoryArchive';
import { useTempDirs } from '../support/tempDirs';
import { thrown } from '../support/thrown';

const tempDir = useTempDirs('strata-engine-edges-');

describe('ContextEngine refuses misuse with a code and a message that says what to do', () => {
  it('refuses a budget below 2000 tokens at construction, naming the budget and the settings to change', () => {
    const settings = { contextWindow: 2_500, reservedOutputTokens: 1_000 };
    const error = thrown(() => engineOver(new MemoryArchive(), settings));
    expect(error.code).toBe('budget_too_small');
    expect(error.message).toContain(`The prompt budget (${effectiveBudget(resolveEngineSettings(settings))} tokens) is too small`);
    expect(error.message).toContain('Raise strata.contextWindow or lower strata.reservedOutputTokens');
    expect(engineOver(new MemoryArchive(), { contextWindow: 2_500, reservedOutputTokens: 0, promptBudgetPercent: 80 }).engine.settings.contextWindow).toBe(2_500);
  });

  it('refuses an input that is not a user message and an answer that is not an assistant message', async () => {
    const { engine } = engineOver(new MemoryArchive());
    const wrongInput = thrown(() => engine.beginExchange(assistant(text('hello'))));
    expect([wrongInput.code, wrongInput.message]).toEqual(['bad_input', "An exchange starts with a user message, got 'assistant'."]);
    engine.beginExchange(user(text('the task')));
    const wrongAnswer = thrown(() => engine.completeExchange(user(text('answer?'))));
    expect([wrongAnswer.code, wrongAnswer.message]).toEqual(['bad_input', "An answer must be an assistant message, got 'user'."]);
    // nothing was recorded: the exchange still waits for its answer
    expect(thrown(() => engine.beginExchange(user(text('next')))).code).toBe('exchange_open');
    engine.completeExchange(assistant(text('done')));
  });

  it('names the state it is in: no pending exchange, one already open, or a closed session', async () => {
    const { engine } = engineOver(new MemoryArchive());
    await expect(engine.assemble()).rejects.toMatchObject({ code: 'no_pending', message: 'Nothing to assemble: call beginExchange with the next input first.' });
    const noAnswer = thrown(() => engine.completeExchange(assistant(text('answer'))));
    expect([noAnswer.code, noAnswer.message]).toEqual(['no_pending', 'No exchange is waiting for an answer; call beginExchange first.']);

    await exchange(engine, [text('the task')], [text('ok')]);
    engine.beginExchange(user(text('second')), { userMessage: true });
    const open = thrown(() => engine.beginExchange(user(text('third'))));
    expect([open.code, open.message]).toEqual(['exchange_open', 'An exchange is already waiting for its answer; complete it before starting another.']);
    const resend = thrown(() => engine.supersedeFrom(1));
    expect([resend.code, resend.message]).toEqual(['exchange_open', 'An exchange is waiting for its answer; stop or complete it before resending an earlier message.']);
    engine.completeExchange(assistant(text('ok')));

    engine.close();
    for (const run of [() => engine.beginExchange(user(text('more'))), () => engine.supersedeFrom(1)]) {
      const closed = thrown(run);
      expect([closed.code, closed.message]).toEqual(['closed', 'This session is closed; open a new ContextEngine to go on.']);
    }
  });

  it('answers no_pending while condenseNow measures between turns: its stand-in input is not an exchange', async () => {
    let release: () => void = () => undefined;
    const started = new Promise<void>((resolve) => (release = resolve));
    let finish: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (finish = resolve));
    const summarizer = new ExtractiveSummarizer(charTokenizer);
    const slow = {
      summarize: async (...args: Parameters<ExtractiveSummarizer['summarize']>) => {
        release();
        await gate;
        return summarizer.summarize(...args);
      },
    };
    const engine = new ContextEngine({
      sessionId: 's1',
      settings: resolveEngineSettings({ condenseMinSavingTokens: 0 }),
      tokenizer: charTokenizer,
      archive: new MemoryArchive(),
      summarizer: slow,
      clock: steppingClock(0, 1_000),
      logger: silentLogger,
      systemPrompt: 'You are a test agent.',
    });
    for (let i = 0; i < 3; i++) await exchange(engine, [text(`question ${i}: ${'words to condense '.repeat(20)}`)], [text(`answer ${i}`)]);
    const condensing = engine.condenseNow();
    await started;
    expect(thrown(() => engine.completeExchange(assistant(text('an answer to nothing')))).code).toBe('no_pending');
    finish();
    await condensing;
  });
});

describe('ContextEngine.searchArchive', () => {
  it('says when nothing matches, lists hits one a line, and marks superseded ones whether the archive knows yet or not', async () => {
    const archive = openSqliteArchive(join(tempDir(), 'archive.db'));
    const { engine } = engineOver(archive);
    await exchange(engine, [text('Rename the parser module')], [text('Renamed parser.')]);
    await exchange(engine, [text('Now the lexer module please')], [text('Lexer done.')]);
    expect(engine.searchArchive('zebra')).toBe('No archived exchange matches "zebra".');
    const hits = archive.search('s1', 'module', 10);
    expect(hits.length).toBe(2);
    const line = (h: ArchiveSearchHit, mark = '') => `e${h.seq}${mark} ${h.header} — ${h.snippet}`;
    expect(engine.searchArchive('module')).toBe(hits.map((h) => line(h)).join('\n'));

    // superseded: first known only to the engine (the new exchange is not archived yet), then
    // only to the archive (a second engine opened on the same file before the resend)
    const path = archive.path!;
    const other = engineOver(openSqliteArchive(path)).engine;
    engine.supersedeFrom(2);
    const byLexer = (h: ArchiveSearchHit) => line(h, h.seq === 2 ? ' (superseded by e3)' : '');
    expect(engine.searchArchive('module')).toBe(hits.map(byLexer).join('\n'));
    expect(other.searchArchive('module')).toBe(hits.map((h) => line(h)).join('\n'));
    await exchange(engine, [text('Now the tokenizer module please')], [text('Tokenizer done.')]);
    expect(archive.search('s1', 'lexer', 10)[0]?.supersededBy).toBe(3);
    expect(other.searchArchive('lexer')).toBe(archive.search('s1', 'lexer', 10).map(byLexer).join('\n'));
    other.close();
    engine.close();
  });

  it('answers in text when the archive cannot search', () => {
    class BrokenSearch extends MemoryArchive {
      override search(): ArchiveSearchHit[] {
        throw new ArchiveError('The archive database is damaged.', 'archive_corrupt');
      }
    }
    const { engine } = engineOver(new BrokenSearch());
    expect(engine.searchArchive('anything')).toBe('The archive could not be searched: The archive database is damaged.');
  });
});

describe('ContextEngine.close', () => {
  it('logs the writes it loses, and nothing when every write is stored', async () => {
    const archive = new MemoryArchive();
    const { engine, errors } = engineOver(archive);
    archive.failWrites = true;
    await exchange(engine, [text('the task')], [text('ok')]);
    const report = engine.close();
    expect(report.pending.length).toBe(1);
    expect(errors).toEqual([`Closing session s1: ${report.problems[report.problems.length - 1]!}`]);
    expect(errors[0]).toContain('still pending (e1)');

    const stored = engineOver(new MemoryArchive());
    await exchange(stored.engine, [text('the task')], [text('ok')]);
    expect(stored.engine.close().pending).toEqual([]);
    expect(stored.errors).toEqual([]);
  });
});

describe('context requests in an answer', () => {
  it('bring the asked exchanges into the next input, two requests joined by a newline', async () => {
    const { engine } = engineOver(new MemoryArchive());
    await exchange(engine, [text('First: the parser')], [text('Parser fixed.')]);
    await exchange(engine, [text('Second: the lexer')], [text('Lexer fixed.')]);
    const asks = '<context_request>{"ids":["e1"],"format":"full"}</context_request>\n<context_request>{"ids":["e2"],"format":"header"}</context_request>';
    await exchange(engine, [text('Third: look back')], [text('I need both.'), toolUse('t1', 'Read', { file_path: 'a.ts' }), text(asks)]);
    const expected = `${engine.retrieve(['e1'], 'full')}\n${engine.retrieve(['e2'], 'header')}`;
    engine.beginExchange(user(toolResult('t1', 'contents of a.ts')));
    const input = lastInput((await engine.assemble()).request);
    expect(input[input.length - 1]).toMatchObject({ type: 'text', text: expected });
    expect(expected).toContain('First: the parser');
  });
});

describe('what completeExchange tells the caller about the answer', () => {
  it('whether the answer gave valid housekeeping, and how many context requests it made', async () => {
    const { engine } = engineOver(new MemoryArchive());
    const answer = async (t: string) => {
      engine.beginExchange(user(text('go on')), { userMessage: true });
      await engine.assemble();
      return engine.completeExchange(assistant(text(t)));
    };
    expect(await answer('Plain answer.')).toEqual({ problems: [], housekeepingGiven: false, contextRequests: 0 });
    expect(await answer('Done. <housekeeping>{"narrative":{"state":"read"}}</housekeeping>')).toMatchObject({ housekeepingGiven: true, contextRequests: 0 });
    const invalid = await answer('Done. <housekeeping>{"narrative": 7}</housekeeping>');
    expect(invalid.housekeepingGiven).toBe(false);
    expect(invalid.problems.length).toBeGreaterThan(0);
    expect(await answer('<context_request>{"ids":["e1"],"format":"header"}</context_request><context_request>{"ids":["e2"],"format":"full"}</context_request>')).toMatchObject({ housekeepingGiven: false, contextRequests: 2 });
  });
});

describe('what the front end says about an input', () => {
  /** A small budget: a few exchanges of filler pass it, and the step folds the read and the change. */
  const small = { promptBudgetTokens: 2_000, contextWindow: 32_000, lowWatermarkPercent: 50 };

  async function readThenChange(changedFiles: readonly string[] | undefined, readPath = 'src/a.ts', workspaceRoot?: string) {
    const { engine } = engineOver(new MemoryArchive(), small, undefined, workspaceRoot);
    await exchange(engine, [text('  Fix the parser in src/a.ts  ')], [toolUse('r1', 'read_file', { path: readPath })]);
    await exchange(engine, [toolResult('r1', 'export const parserVersion = 1;')], [text('Read it.')], false);
    engine.beginExchange(user(text('I changed src/a.ts myself, go on')), { userMessage: true, ...(changedFiles ? { changedFiles } : {}) });
    await engine.assemble();
    engine.completeExchange(assistant(text('Noted.')));
    for (let i = 4; i < 20; i++) {
      const turn = await exchange(engine, [text(`filler ${i}: ${'some words that take room '.repeat(40)}`)], [text('ok')]);
      if (turn.events.some((e) => e.type === 'relayer')) {
        expect(turn.events.some((e) => e.type === 'relayer' && e.foldedThrough >= 3)).toBe(true);
        return JSON.stringify(turn.request);
      }
    }
    throw new Error('no re-layering step in 20 exchanges');
  }

  it('changedFiles marks earlier reads of those files stale; an empty list is the same as none', async () => {
    const changed = await readThenChange(['src/a.ts']);
    expect(changed).toContain('src/a.ts: changed on disk in e3, after the view in e2');
    expect(changed).not.toContain('parserVersion = 1');
    for (const none of [[], undefined]) {
      const request = await readThenChange(none);
      expect(request).toContain('parserVersion = 1');
      expect(request).not.toContain('changed on disk');
    }
  });

  it('with the workspace root given, a read by absolute path goes stale when the relative path changes on disk', async () => {
    const rooted = await readThenChange(['src/a.ts'], '/ws/src/a.ts', '/ws');
    expect(rooted).toContain('src/a.ts: changed on disk in e3, after the view in e2');
    expect(rooted).not.toContain('parserVersion = 1');
    // without the root the two names are two files: the old text stays
    expect(await readThenChange(['src/a.ts'], '/ws/src/a.ts')).toContain('parserVersion = 1');
  });

  it('the first input, trimmed, is the objective of the narrative', async () => {
    const request = await readThenChange(undefined);
    expect(request).toContain('<strata_narrative>\\nObjective: Fix the parser in src/a.ts\\n');
  });
});

describe('ContextEngine.condenseNow', () => {
  const history = [user(text(`the task: ${'words to condense '.repeat(30)}`)), assistant(text('first answer')), user(text(`more: ${'words to condense '.repeat(30)}`)), assistant(text('second answer'))];

  it('measures between turns as the next prompt would be with a one-character input', async () => {
    const a = engineOver(new MemoryArchive()).engine;
    await drive(a, history);
    const events = await a.condenseNow();
    // condensing succeeds or not, the event says what the prompt was before
    const condensed = events.find((e) => e.type === 'condense_context' || e.type === 'condense_context_error');
    const b = engineOver(new MemoryArchive()).engine;
    await drive(b, history);
    b.beginExchange(user(text('…')));
    const turn = await b.assemble();
    expect(turn.events).toEqual([]);
    expect(condensed).toMatchObject({ tokensBefore: turn.tokens });
  });

  it('leaves a pending exchange as it was', async () => {
    const { engine } = engineOver(new MemoryArchive());
    await drive(engine, history);
    engine.beginExchange(user(text('the pending question')));
    expect(await engine.condenseNow()).toHaveLength(1);
    expect(lastInput((await engine.assemble()).request)).toMatchObject([{ type: 'text', text: 'the pending question' }]);
  });
});
