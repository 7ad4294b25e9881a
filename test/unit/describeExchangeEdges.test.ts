import { describe, expect, it } from 'vitest';
import type { ContentBlock } from '../../src/shared/messages';
import type { Exchange } from '../../src/engine/exchange';
import { deriveHeader, deriveSummary, outcomeOf } from '../../src/engine/derive/describeExchange';

// The edges of describeExchange that the golden tests (describeExchange.test.ts) leave open: each
// test pins what a reader of the header or summary sees at one bound, branch or pattern.

/** Four characters a token, as in describeExchange.test.ts. */
const count = (s: string) => Math.ceil(s.length / 4);

const exchange = (input: ContentBlock[], output: ContentBlock[], seq = 7): Exchange => ({
  seq,
  createdAt: Date.UTC(2025, 0, 1, 9, 0),
  input: { role: 'user', content: input },
  output: { role: 'assistant', content: output },
});
const text = (t: string): ContentBlock => ({ type: 'text', text: t });
const call = (name: string, input: unknown, id = 'u1'): ContentBlock => ({ type: 'tool_use', id, name, input });
const result = (content: string | string[], isError?: boolean): ContentBlock => ({
  type: 'tool_result',
  tool_use_id: 'u1',
  content: typeof content === 'string' ? content : content.map((t) => ({ type: 'text' as const, text: t })),
  ...(isError === undefined ? {} : { is_error: isError }),
});
const go = [text('Go.')];
/** The header of one tool call, wide enough for everything. */
const headerOf = (name: string, input: unknown) => deriveHeader(exchange(go, [call(name, input)]), count, 40);
/** The summary's `Results:` part for these tool results. */
const resultsOf = (...blocks: ContentBlock[]) => /(Results: .*) Said: Looked\./.exec(deriveSummary(exchange(blocks, [text('Looked.')]), count, 400))?.[1];

describe('header: what a call is named by', () => {
  it('a search by its query, a listing by its path, a notebook by its file', () => {
    expect(headerOf('WebSearch', { query: 'vitest fake timers' })).toBe('e7 09:00 WebSearch vitest fake timers → ok');
    expect(headerOf('LS', { path: '/repo/src/' })).toBe('e7 09:00 LS src → ok');
    expect(headerOf('NotebookRead', { notebook_path: '/nb/analysis.ipynb' })).toBe('e7 09:00 NotebookRead analysis.ipynb → ok');
    expect(headerOf('Grep', { pattern: 'parseLine', path: '' })).toBe('e7 09:00 Grep parseLine → ok');
  });

  it('an empty path, a missing input or an empty url leave the bare tool name', () => {
    expect(headerOf('Read', { file_path: '' })).toBe('e7 09:00 Read → ok');
    expect(headerOf('Ping', null)).toBe('e7 09:00 Ping → ok');
    expect(headerOf('Ping', 'not an object')).toBe('e7 09:00 Ping → ok');
    expect(headerOf('WebFetch', { url: '' })).toBe('e7 09:00 WebFetch → ok');
    expect(headerOf('Note', { text: '   ' })).toBe('e7 09:00 Note → ok');
  });

  it('a fetch by its host only', () => {
    expect(headerOf('WebFetch', { url: 'https://docs.python.org/3/library/re.html' })).toBe('e7 09:00 WebFetch docs.python.org → ok');
    expect(headerOf('WebFetch', { url: 'example.com/a/b' })).toBe('e7 09:00 WebFetch example.com → ok');
  });

  it('a description or first argument by its first three words, at most 30 characters', () => {
    expect(headerOf('Task', { prompt: 'Long instructions here', description: '  Find   flaky tests now please' })).toBe('e7 09:00 Task Find flaky tests → ok');
    expect(headerOf('Task', { description: 'abcdefghijklmnopqrstuvwxyz1234' })).toBe('e7 09:00 Task abcdefghijklmnopqrstuvwxyz1234 → ok');
    expect(headerOf('Task', { description: 'abcdefghijklmnopqrstuvwxyz12345' })).toBe('e7 09:00 Task abcdefghijklmnopqrstuvwxyz123… → ok');
    expect(headerOf('Task', { description: 'abcdefghijklmnopqrstuvwxyz12 4' })).toBe('e7 09:00 Task abcdefghijklmnopqrstuvwxyz12 4 → ok');
    // the clip drops a space it would end on
    expect(headerOf('Task', { description: 'abcdefghijklmnopqrstuvwxyz12 45' })).toBe('e7 09:00 Task abcdefghijklmnopqrstuvwxyz12… → ok');
  });

  it('the first string argument skips non-strings, lists of strings and a leading markdown heading', () => {
    expect(headerOf('Plan', { steps: 3, ids: ['a1', 'b2'], empty: [], nulls: [null], note: '## Ship it' })).toBe('e7 09:00 Plan Ship it → ok');
    expect(headerOf('Ask', { questions: [{ n: 1, question: 'Which one?' }] })).toBe('e7 09:00 Ask Which one? → ok');
    expect(headerOf('Ask', { questions: [{ n: 1 }], then: 'Fallback' })).toBe('e7 09:00 Ask Fallback → ok');
  });

  it('a todo list by the item in progress, else the next pending one, and the count done', () => {
    const todos = (...items: unknown[]) => headerOf('TodoWrite', { todos: items });
    expect(todos({ content: 'A', status: 'completed' }, { content: 'B', status: 'pending' }, { content: 'C', status: 'pending' })).toBe('e7 09:00 todo 1/3: B → ok');
    expect(todos({ content: 'A', status: 'pending' }, { content: 'B', status: 'in_progress' })).toBe('e7 09:00 todo 0/2: B → ok');
    expect(todos({ content: 'A', status: 'completed' }, { content: 'B', status: 'completed' })).toBe('e7 09:00 todo 2/2 → ok');
    expect(todos('junk', null, { status: 'pending' }, { content: 'Real', status: 'pending' })).toBe('e7 09:00 todo 0/1: Real → ok');
    const long = 'Write the migration guide for version two';
    expect(todos({ content: long, status: 'in_progress' })).toBe(`e7 09:00 todo 0/1: ${long.slice(0, 39)}… → ok`);
  });

  it('the main call is the edit, then the command, then the rest, with the count of the others', () => {
    const read = call('Read', { file_path: '/r/notes.md' }, 'a');
    const edit = call('Edit', { file_path: '/r/src/app.ts', old_string: 'x', new_string: 'y' }, 'b');
    const bash = call('Bash', { command: 'pytest -q' }, 'c');
    expect(deriveHeader(exchange(go, [read, bash]), count, 40)).toMatch(/^e7 09:00 pytest \+1 .*→ ok$/);
    expect(deriveHeader(exchange(go, [read, bash, edit]), count, 40)).toMatch(/^e7 09:00 Edit app\.ts \+2 .*→ ok$/);
    expect(deriveHeader(exchange(go, [bash, read]), count, 40)).toMatch(/^e7 09:00 pytest \+1 .*→ ok$/);
  });

  it('a plain answer that opens with a heading is named by the heading words', () => {
    expect(deriveHeader(exchange(go, [text('## Summary of the fix\nDone.')]), count, 40)).toBe('e7 09:00 Summary of the fix → done');
  });

  it('a plain answer by its first sentence, markup dropped, at most six words', () => {
    const header = deriveHeader(exchange(go, [text('**Fixed** the `parser` bug in [main] > and more words here. Next.')]), count, 40);
    expect(header).toBe('e7 09:00 Fixed the parser bug in main → done');
  });
});

describe('header: entities and the 12-token limit', () => {
  const edit = (path: string, body: string) => call('Edit', { file_path: path, old_string: 'a', new_string: body });

  it('a line of exactly the limit is kept whole', () => {
    const e = exchange(go, [call('Read', { file_path: '/r/a.py' })]);
    const line = 'e7 09:00 Read a.py → ok';
    expect(deriveHeader(e, count, count(line))).toBe(line);
  });

  it('at most two entities, of the answer only, dropped from the last', () => {
    const e = exchange([text('See config.ts and loadAll first.')], [edit('/r/src/app.ts', 'parseLine(a);\nloadConfig(b);\nsaveState(c);')]);
    const wide = deriveHeader(e, count, 60);
    expect(wide).toBe('e7 09:00 Edit app.ts [parseLine, loadConfig] → ok');
    expect(deriveHeader(e, count, count(wide) - 1)).toBe('e7 09:00 Edit app.ts [parseLine] → ok');
    expect(deriveHeader(e, count, count('e7 09:00 Edit app.ts [parseLine] → ok') - 1)).toBe('e7 09:00 Edit app.ts → ok');
  });

  it('a shell-script run loses the shell name before its script is clipped', () => {
    const e = exchange(go, [call('Bash', { command: 'bash scripts/deploy.sh' })]);
    expect(deriveHeader(e, count, 12)).toBe('e7 09:00 bash deploy.sh → ok');
    expect(deriveHeader(e, count, count('e7 09:00 deploy.sh → ok'))).toBe('e7 09:00 deploy.sh → ok');
    const sh = exchange(go, [call('Bash', { command: 'sh run.sh' })]);
    expect(deriveHeader(sh, count, count('e7 09:00 run.sh → ok'))).toBe('e7 09:00 run.sh → ok');
  });

  it('a tight line keeps the longest prefix of the target that fits, with the time while it can, and drops a target that cannot keep four characters', () => {
    const e = exchange(go, [call('Read', { file_path: '/r/src/configuration.ts' })]);
    expect(deriveHeader(e, count, 6)).toBe('e7 09:00 Read conf… → ok');
    expect(deriveHeader(e, count, 5)).toBe('e7 Read config… → ok');
    expect(deriveHeader(e, count, 4)).toBe('e7 Read → ok');
  });

  it('the target keeps four characters with the time before it loses the time', () => {
    const e = exchange(go, [call('Read', { file_path: '/r/src/configuration.ts' })], 70);
    expect(deriveHeader(e, count, 6)).toBe('e70 09:00 Read con… → ok');
  });

  it('only a leading shell name is dropped, not "sh " inside a search', () => {
    const e = exchange(go, [call('Grep', { pattern: 'fresh start' })]);
    expect(deriveHeader(e, count, 7)).toBe('e7 09:00 Grep fresh st… → ok');
  });

  it('where an ellipsis costs more than the time, the time stays and the target goes', () => {
    // BPE tokenizers often spend several tokens on `…`; this count charges three.
    const costly = (s: string) => Math.ceil(s.replace(/…/g, '').length / 4) + 3 * (s.split('…').length - 1);
    const e = exchange(go, [call('Read', { file_path: '/r/src/configuration.ts' })]);
    expect(deriveHeader(e, costly, 5)).toBe('e7 09:00 Read → ok');
  });

  it('a one-word topic keeps the time, then the word, then only the outcome', () => {
    const e = exchange(go, [call('Bash', { command: 'pytest' })]);
    expect(deriveHeader(e, count, 5)).toBe('e7 09:00 pytest → ok');
    expect(deriveHeader(e, count, 4)).toBe('e7 pytest → ok');
    expect(deriveHeader(e, count, 3)).toBe('e7 → ok');
    expect(deriveHeader(e, count, 1)).toBe('e7 …');
  });

  it('a target too short to clip is dropped whole', () => {
    const e = exchange(go, [call('Read', { file_path: '/r/ab.c' })]);
    expect(deriveHeader(e, count, 4)).toBe('e7 Read → ok');
  });
});

describe('outcomes', () => {
  const asked = [text('Shall I also update the docs?')];

  it('one failed result among fine ones is an error', () => {
    expect(outcomeOf(exchange([result('all good'), result('boom', true), result('fine')], [text('Hm.')]))).toBe('error');
    expect(outcomeOf(exchange([result('all good'), result('fine', false)], [text('Hm.')]))).toBe('ok');
  });

  it('a question with a tool call is not asking the user', () => {
    expect(outcomeOf(exchange(go, [...asked, call('Read', { file_path: '/r/a.ts' })]))).toBe('ok');
    expect(outcomeOf(exchange(go, [...asked, text('  \n')]))).toBe('asked');
    expect(outcomeOf(exchange(go, [text('Is it done? Yes, done.')]))).toBe('done');
  });

  it('a plain answer to tool results is ok; to the user, done', () => {
    expect(outcomeOf(exchange([result('output')], [text('Noted.')]))).toBe('ok');
    expect(outcomeOf(exchange(go, [text('Noted.')]))).toBe('done');
  });

  it('only the first 4,000 characters of the answer are read for a question', () => {
    expect(outcomeOf(exchange(go, [text(`${'word '.repeat(900)}and more?`)]))).toBe('done');
    expect(outcomeOf(exchange(go, [text('word '.repeat(600)), text(`${'word '.repeat(400)}and more?`)]))).toBe('done');
    expect(outcomeOf(exchange(go, [text('word '.repeat(600)), text('And more?')]))).toBe('asked');
  });

  it('exit codes: non-zero fails, zero does not, only at a line start or in <returncode>', () => {
    expect(outcomeOf(exchange([result('done\nExit code 2')], [text('Hm.')]))).toBe('error');
    expect(outcomeOf(exchange([result('Exit code 0\nok')], [text('Hm.')]))).toBe('ok');
    expect(outcomeOf(exchange([result('last run: Exit code 2')], [text('Hm.')]))).toBe('ok');
    expect(outcomeOf(exchange([text('<returncode>-1</returncode>\nkilled')], [text('Hm.')]))).toBe('error');
    // a user's words quoting a failure are no tool output
    expect(outcomeOf(exchange([text('Why do I get\nExit code 2\nTraceback (most recent call last):')], [text('Hm.')]))).toBe('done');
  });

  it.each([
    ['Traceback (most recent call last):\n  File "a.py"'],
    ['FAILED tests/a.py::test_x'],
    ['ERROR collecting tests/a.py'],
    ['npm ERR! code ELIFECYCLE'],
    ['error[E0432]: unresolved import'],
    ['error TS2345: Argument of type'],
    ['error TS12345: Argument of type'],
    ['fatal: not a git repository'],
    ['panic: runtime error'],
    ['ValueError: bad value'],
    ['requests.exceptions.ConnectionError: refused'],
    ['KeyboardInterrupt\nCustomException'],
    ['ok\nIndexError'],
  ])('a failure line fails the result: %s', (output) => {
    expect(outcomeOf(exchange([result(output)], [text('Hm.')]))).toBe('error');
  });

  it.each([
    ['see FAILED tests/a.py::test_x'],
    ['  ValueError: indented, inside a listing'],
    ['error: no code'],
    ['error[E12]: short code'],
    ['error TS12: short code'],
    ['Error: a bare Error'],
    ['ValueErrors were counted'],
    ['valueError: lower case'],
    ['FAILEDx'],
    ['fatal:no space'],
  ])('no failure line, no failure: %s', (output) => {
    expect(outcomeOf(exchange([result(output)], [text('Hm.')]))).toBe('ok');
  });

  it('text blocks as results and failures deep inside a huge output', () => {
    expect(outcomeOf(exchange([result(['fine', 'FAILED tests/a.py::t'])], [text('Hm.')]))).toBe('error');
    const buried = `${'line\n'.repeat(2_000)}FAILED tests/a.py::t\n${'line\n'.repeat(2_000)}`;
    expect(outcomeOf(exchange([result(buried)], [text('Hm.')]))).toBe('ok');
    expect(outcomeOf(exchange([result([buried])], [text('Hm.')]))).toBe('ok');
    // each text block is cut to its head and tail, then all of them together
    const endsFailed = `${'line\n'.repeat(3_000)}FAILED tests/a.py::t\n`;
    expect(outcomeOf(exchange([result([endsFailed])], [text('Hm.')]))).toBe('error');
    expect(outcomeOf(exchange([result([endsFailed, 'line\n'.repeat(3_000)])], [text('Hm.')]))).toBe('ok');
    expect(outcomeOf(exchange([result(`${'line\n'.repeat(1_000)}FAILED tests/a.py::t\n${'line\n'.repeat(3_000)}`)], [text('Hm.')]))).toBe('error');
  });

  it('only the first 64 input blocks are read', () => {
    const fine = Array.from({ length: 64 }, () => result('fine'));
    expect(outcomeOf(exchange([...fine, result('boom', true)], [text('Hm.')]))).toBe('ok');
    expect(outcomeOf(exchange([...fine.slice(1), result('boom', true)], [text('Hm.')]))).toBe('error');
  });
});

describe('summary: results', () => {
  it('counts ok and failed, and shows the failures details only', () => {
    expect(resultsOf(result('3 passed in 1.5s'), result('Exit code 2', true))).toBe('Results: 1 ok, 1 failed (exit 2).');
    expect(resultsOf(result('3 passed in 1.5s'), result('2 errors in 0.3s'))).toBe('Results: 2 ok (3 passed in 1.5s; 2 errors in 0.3s).');
    expect(resultsOf(result('Exit code 1', true), result('Exit code 1', true))).toBe('Results: 2 failed (exit 1).');
    expect(resultsOf(result('nothing to see'))).toBe('Results: 1 ok.');
  });

  it('test tallies: counts, extra kinds, a time; only in the last 8,000 characters', () => {
    expect(resultsOf(result('== 1 failed, 2 passed, 1 skipped, 3 warnings in 12.25s =='))).toBe('Results: 1 ok (1 failed, 2 passed, 1 skipped, 3 warnings in 12.25s).');
    expect(resultsOf(result('1 passed in 3s'))).toBe('Results: 1 ok (1 passed in 3s).');
    expect(resultsOf(result('1 error in 0.5s'))).toBe('Results: 1 ok (1 error in 0.5s).');
    expect(resultsOf(result('11 passed in 3sx'))).toBe('Results: 1 ok.');
    expect(resultsOf(result(`1 passed in 3s\n${'line\n'.repeat(1_700)}`))).toBe('Results: 1 ok.');
  });

  it('error signatures only for a failed result, at most three of one result', () => {
    expect(resultsOf(result('handled: ValueError: bad'))).toBe('Results: 1 ok.');
    // a bare error name is left out when the same error is shown with its message
    expect(resultsOf(result('raised KeyError\nKeyError: missing', true))).toBe('Results: 1 failed (KeyError: missing).');
    const four = 'KeyError: a\nout\nTypeError: b\nout\nNameError: c\nout\nOSError: d';
    expect(resultsOf(result(four, true))).toBe('Results: 1 failed (KeyError: a; TypeError: b; NameError: c).');
  });

  it('a long error message is clipped at 80 characters, 60 when compact', () => {
    const message = `ValueError: ${'m'.repeat(90)}`;
    const summary = deriveSummary(exchange([result(message, true)], [text('Hm.')]), count, 400);
    expect(summary).toContain(`(${message.slice(0, 79)}…)`);
    const compact = deriveSummary(exchange([result(message, true)], [text(`${'long '.repeat(60)}words.`)]), count, 60);
    expect(compact).toBe(`Results: 1 failed (${message.slice(0, 59)}…). retrievable: e7`);
  });
});

describe('summary: parts, lists and shrinking', () => {
  it('the user request: local-command noise, tags and one-character blocks skipped', () => {
    const e = exchange(
      [
        text('Caveat: The messages below were generated by the user while running local commands.'),
        text('<command-name>/clear</command-name>'),
        text('  <local-command-stdout>Cleared the screen.</local-command-stdout>'),
        text('<returncode>0</returncode>'),
        text('x'),
        result('fine'),
        text('Please <b>fix</b> the parser. Then rerun it. Then push.'),
      ],
      [text('Done.')],
    );
    expect(deriveSummary(e, count, 400)).toMatch(/^User: Please fix the parser\. Then rerun it\. Results: 2 ok\. Said: Done\. retrievable: e7$/);
  });

  it('a request that only mentions a tag mid-text is still the request', () => {
    const e = exchange([text('Why does Caveat: <system-reminder> show up?')], [text('Because.')]);
    expect(deriveSummary(e, count, 400)).toBe('User: Why does Caveat: show up? Said: Because. retrievable: e7');
  });

  it('said: fenced code and bare file paths dropped, split at sentence ends and lines', () => {
    const e = exchange(go, [text('Run this:\n```ts\nfoo.bar()\n```\nsrc/app.ts\nThen done! Ok')]);
    expect(deriveSummary(e, count, 400)).toBe('User: Go. Said: Run this: Then done! retrievable: e7');
    const lines = exchange(go, [text('Intro line\n   indented line.')]);
    expect(deriveSummary(lines, count, 400)).toBe('User: Go. Said: Intro line indented line. retrievable: e7');
    const two = exchange(go, [text('One:\n```ts\na()\n```\nKept between.\n```ts\nb()\n```\nEnd.')]);
    expect(deriveSummary(two, count, 400)).toBe('User: Go. Said: One: Kept between. retrievable: e7');
    const open = exchange(go, [text('Start.\n```python\nx = 1\nnever closed')]);
    expect(deriveSummary(open, count, 400)).toBe('User: Go. Said: Start. retrievable: e7');
  });

  it('lists: up to four items, then "+n more"', () => {
    const reads = (n: number) => Array.from({ length: n }, (_, i) => call('Read', { file_path: `/r/f${i}.ts` }, `r${i}`));
    expect(deriveSummary(exchange(go, reads(4)), count, 400)).toContain('Used: Read f0.ts; Read f1.ts; Read f2.ts; Read f3.ts.');
    expect(deriveSummary(exchange(go, reads(5)), count, 400)).toContain('Used: Read f0.ts; Read f1.ts; Read f2.ts; Read f3.ts; +1 more.');
  });

  it('only the first 64 answer blocks are listed', () => {
    const reads = Array.from({ length: 70 }, (_, i) => call('Read', { file_path: `/r/f${i}.ts` }, `r${i}`));
    expect(deriveSummary(exchange(go, reads), count, 400)).toContain('Used: Read f0.ts; Read f1.ts; Read f2.ts; Read f3.ts; +60 more.');
  });

  it('changes: six files listed, three when compact; commands: four, two when compact', () => {
    const edits = Array.from({ length: 7 }, (_, i) => call('Write', { file_path: `/r/m${i}.py`, content: '' }, `w${i}`));
    const wide = deriveSummary(exchange(go, edits), count, 400);
    expect(wide).toContain('Changed: wrote r/m0.py; wrote r/m1.py; wrote r/m2.py; wrote r/m3.py; wrote r/m4.py; wrote r/m5.py; +1 more.');
    const tight = deriveSummary(exchange(go, edits), count, 30);
    expect(tight).toContain('Changed: wrote r/m0.py; wrote r/m1.py; wrote r/m2.py; +4 more.');
    const runs = Array.from({ length: 5 }, (_, i) => call('Bash', { command: `make step${i}` }, `b${i}`));
    expect(deriveSummary(exchange(go, runs), count, 400)).toBe('User: Go. Ran: make step0; make step1; make step2; make step3; +1 more. retrievable: e7');
    expect(deriveSummary(exchange(go, runs), count, 20)).toBe('User: Go. Ran: make step0; make step1; +3 more. retrievable: e7');
  });

  it('what was said and asked: two sentences up to 320 characters, compact one up to 160', () => {
    const sentence = `${'said '.repeat(70)}end.`;
    const question = `${'asks '.repeat(70)}end?`;
    const e = exchange([result('fine')], [text(`${sentence} ${sentence} ${question} ${question}`)]);
    const both = (s: string) => `${s} ${s}`;
    expect(deriveSummary(e, count, 400)).toBe(
      `Results: 1 ok. Said: ${both(sentence).slice(0, 319).trimEnd()}… Open: ${both(question).slice(0, 319).trimEnd()}… retrievable: e7`,
    );
    expect(deriveSummary(e, count, 120)).toBe(`Results: 1 ok. Said: ${sentence.slice(0, 159).trimEnd()}… Open: ${question.slice(0, 159).trimEnd()}… retrievable: e7`);
  });

  it('commands: clipped at 80 characters, 40 when compact', () => {
    const command = `echo ${'a'.repeat(100)}`;
    const e = exchange(go, [call('Bash', { command })]);
    expect(deriveSummary(e, count, 400)).toBe(`User: Go. Ran: ${command.slice(0, 79)}…. retrievable: e7`);
    expect(deriveSummary(e, count, 20)).toBe(`User: Go. Ran: ${command.slice(0, 39)}…. retrievable: e7`);
  });

  it('a long request: two sentences up to 280 characters, compact one up to 120', () => {
    const sentence = `${'word '.repeat(59)}end.`;
    const e = exchange([text(`${sentence} ${sentence}`)], [text('Ok.')]);
    const wide = deriveSummary(e, count, 400);
    expect(wide).toBe(`User: ${`${sentence} ${sentence}`.slice(0, 279).trimEnd()}… Said: Ok. retrievable: e7`);
    const compact = deriveSummary(e, count, 40);
    expect(compact).toBe(`User: ${sentence.slice(0, 119).trimEnd()}… Said: Ok. retrievable: e7`);
  });

  it('shrinking drops the least important part first: open question, user, used, said', () => {
    const e = exchange(
      [text('Tidy the module up please.'), result('1 passed in 2s')],
      [text('I tidied the module. Should I also rename it?'), call('Read', { file_path: '/r/mod.py' })],
    );
    const full = 'User: Tidy the module up please. Results: 1 ok (1 passed in 2s). Said: I tidied the module. Used: Read mod.py. Open: Should I also rename it? retrievable: e7';
    expect(deriveSummary(e, count, count(full))).toBe(full);
    const noOpen = 'User: Tidy the module up please. Results: 1 ok (1 passed in 2s). Said: I tidied the module. Used: Read mod.py. retrievable: e7';
    expect(deriveSummary(e, count, count(noOpen))).toBe(noOpen);
    const noUser = 'Results: 1 ok (1 passed in 2s). Said: I tidied the module. Used: Read mod.py. retrievable: e7';
    expect(deriveSummary(e, count, count(noUser))).toBe(noUser);
    const noUsed = 'Results: 1 ok (1 passed in 2s). Said: I tidied the module. retrievable: e7';
    expect(deriveSummary(e, count, count(noUsed))).toBe(noUsed);
    expect(deriveSummary(e, count, count(noUsed) - 1)).toBe('Results: 1 ok (1 passed in 2s). retrievable: e7');
  });

  it('a question the user is asked outlives everything but the changes', () => {
    const e = exchange([text('Tidy the module up please.')], [text('I tidied the module. Should I also rename it?')]);
    expect(deriveSummary(e, count, count('Open: Should I also rename it? retrievable: e7'))).toBe('Open: Should I also rename it? retrievable: e7');
  });

  it('the last part left is trimmed to fit, or only the suffix remains', () => {
    const e = exchange([text('Tidy the module up please.')], [text('Fine, I tidied up the whole module and all of its tests as you asked.')]);
    expect(deriveSummary(e, count, 9)).toBe('Said: Fine, I t… retrievable: e7');
    // a 16-character suffix makes the trimmed line fill the budget exactly
    const e70 = exchange([text('Tidy the module up please.')], [text('Fine, I tidied up the whole module and all of its tests as you asked.')], 70);
    expect(deriveSummary(e70, count, 9)).toBe('Said: Fine, I t… retrievable: e70');
    expect(deriveSummary(e, count, count('retrievable: e7'))).toBe('retrievable: e7');
    expect(deriveSummary(e, count, 2)).toMatch(/^retr.*…$/);
  });
});
