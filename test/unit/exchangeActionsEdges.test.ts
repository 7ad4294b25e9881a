import { describe, expect, it } from 'vitest';
import type { ContentBlock, Message } from '../../src/shared/messages';
import { commandLabel, commandsRun, editedChanges, MAX_BLOCKS, TEXT_HEAD } from '../../src/engine/derive/exchangeActions';

/** Edge cases of exchangeActions: bounds, fences, word cleaning, verbs and symbols, exact outputs. */

const use = (name: string, input: unknown, id = 'x'): ContentBlock => ({ type: 'tool_use', id, name, input });
const answer = (...content: ContentBlock[]): Message => ({ role: 'assistant', content });
const text = (t: string): ContentBlock => ({ type: 'text', text: t });
const bash = (command: string, id = 'x') => use('Bash', { command }, id);

describe('commandsRun: fenced shell blocks of an answer without tool calls', () => {
  it('reads a fence that opens the text, one right after it, and one closed at the very end', () => {
    expect(commandsRun(answer(text('```bash\nls\n```'), text(' ```sh\npwd\n```'), text('a\n```\nmake\n```')))).toEqual(['ls', 'pwd', 'make']);
  });

  it('several fences of one text, in order; text between and after them is no command', () => {
    expect(commandsRun(answer(text('First:\n```bash\nnpm ci\n```\nthen:\n```sh\nnpm test\n```\ndone.')))).toEqual(['npm ci', 'npm test']);
  });

  it('a fence with no newline after it opens nothing: the text before it is no command', () => {
    expect(commandsRun(answer(text('run pwd ```')))).toEqual([]);
    expect(commandsRun(answer(text('```bash\nls\n```\nthen pwd ```')))).toEqual(['ls']);
  });

  it(`reads the first ${TEXT_HEAD * 4} characters of each text: a fence past them, or closed past them, is not read`, () => {
    const fence = '```bash\nls\n```';
    expect(commandsRun(answer(text(`${'x'.repeat(TEXT_HEAD * 2)}\n${fence}`)))).toEqual(['ls']);
    expect(commandsRun(answer(text(`${'x'.repeat(TEXT_HEAD * 4)}\n${fence}`)))).toEqual([]);
    expect(commandsRun(answer(text(`${'x'.repeat(TEXT_HEAD * 4 - 12)}\n${fence}`)))).toEqual([]);
  });

  it(`reads fences of the first ${MAX_BLOCKS} blocks`, () => {
    const blocks = Array.from({ length: MAX_BLOCKS + 3 }, (_, i) => text(`\`\`\`bash\necho ${i}\n\`\`\``));
    const commands = commandsRun(answer(...blocks));
    expect(commands).toHaveLength(MAX_BLOCKS);
    expect(commands.at(-1)).toBe(`echo ${MAX_BLOCKS - 1}`);
  });

  it('thinking blocks hold no commands', () => {
    const thinking: ContentBlock = { type: 'thinking', thinking: '```bash\nrm -rf x\n```', signature: 's' };
    expect(commandsRun(answer(thinking, { type: 'redacted_thinking', data: 'd' }, text('```bash\nls\n```')))).toEqual(['ls']);
  });

  it("a tool call's command loses its leading and trailing whitespace", () => {
    expect(commandsRun(answer(bash('  ls -la\n')))).toEqual(['ls -la']);
  });
});

describe('commandLabel: segments and words', () => {
  it.each([
    ['{ (make) }', 'make'], // runs of ( { before and ) } after a segment dropped
    ['((pytest -x))', 'pytest'],
    ['git  status', 'git status'], // several spaces are one separator
    ['git \t status', 'git status'],
    ['A=1; make check', 'make check'], // a segment of assignments only runs nothing
    ['FOO=1 BAR=2 && ls', 'ls'],
    ['sudo timeout 10s nice pytest -x', 'pytest'], // a chain of wrappers and their durations
    ['time 5 ls', 'ls'],
    ['timeout 2m nohup exec node a.js', 'node a.js'],
    ['7z x', '7z'], // a program whose name starts with digits is no duration
    ['sudo 7z x a.zip', '7z a.zip'],
  ])('%j -> %s', (command, label) => {
    expect(commandLabel(command)).toBe(label);
  });

  it('reads the first 400 characters of a command', () => {
    expect(commandLabel(`cd ${'a'.repeat(400)}; make`)).toBe('shell');
    expect(commandLabel(`cd ${'a'.repeat(380)}; make`)).toBe('make');
  });
});

describe('commandLabel: python programs and file operands', () => {
  it.each([
    ['python3.11 -c "print(1)"', 'python3.11 -c'],
    ['python3.11 run.py', 'python3.11 run.py'],
    ['python -m pytest -q', 'pytest'],
    ['mypython -c x', 'mypython'], // python only as the whole name
    ['pythonw -c x', 'pythonw'],
    ['python3-config --libs', 'python3-config'],
    ['cat "a.ts"', 'cat a.ts'], // quotes around a file operand dropped
    ["cat 'dir/b.py'", 'cat b.py'],
    ['cat "src/it\'s.ts"', 'cat'], // a quote inside a word is no quote around it
    ["wc -l a'b.ts", 'wc'],
  ])('%j -> %s', (command, label) => {
    expect(commandLabel(command)).toBe(label);
  });
});

describe('editedChanges: edits', () => {
  it('an edited file stays edited when it is written later', () => {
    const edit = use('Edit', { file_path: 'notes.md', old_string: 'a', new_string: 'b' }, 'e');
    expect(editedChanges(answer(edit, use('Write', { file_path: 'notes.md', content: 'hello' }, 'w')))).toEqual(['edited notes.md']);
    expect(editedChanges(answer(edit, bash('echo hi > notes.md')))).toEqual(['edited notes.md']);
  });

  it(`reads the first ${MAX_BLOCKS} blocks`, () => {
    const blocks = Array.from({ length: MAX_BLOCKS + 2 }, (_, i) => use('Write', { file_path: `f${i}.ts`, content: 'x' }, `w${i}`));
    const changes = editedChanges(answer(...blocks));
    expect(changes).toHaveLength(MAX_BLOCKS);
    expect(changes.at(-1)).toBe(`wrote f${MAX_BLOCKS - 1}.ts`);
  });

  it('an edit whose path is no string changes nothing', () => {
    expect(editedChanges(answer(use('Edit', { file_path: 7, old_string: 'a', new_string: 'b' })))).toEqual([]);
  });

  it("the text editor's old_str and new_str are both read", () => {
    const replace = use('str_replace_based_edit_tool', { command: 'str_replace', path: 'x/y.py', old_str: 'def alpha():', new_str: 'def beta():' });
    expect(editedChanges(answer(replace))).toEqual(['edited x/y.py (alpha, beta)']);
  });

  it('a MultiEdit edit missing a string is read for the string it has; malformed edits are skipped', () => {
    expect(editedChanges(answer(use('MultiEdit', { file_path: 'a.ts', edits: [{ old_string: 'function gone() {}' }] })))).toEqual(['edited a.ts (gone)']);
    const mixed = use('MultiEdit', { file_path: 'a.ts', edits: [null, 'x', 3, { old_string: 7, new_string: 'function kept() {}' }] });
    expect(editedChanges(answer(mixed))).toEqual(['edited a.ts (kept)']);
  });

  it('symbols of several edits of one file gather, three shown', () => {
    const first = use('Edit', { file_path: 'a.ts', old_string: 'x', new_string: 'function one() {}\nfunction two() {}' }, 'a');
    const second = use('Edit', { file_path: 'a.ts', old_string: 'y', new_string: 'function three() {}\nfunction four() {}' }, 'b');
    expect(editedChanges(answer(first, second))).toEqual(['edited a.ts (one, two, three)']);
  });

  it('a definition keyword may be followed by up to four spaces', () => {
    expect(editedChanges(answer(use('Write', { file_path: 'a.py', content: 'def  main():\n  pass' })))).toEqual(['wrote a.py (main)']);
    expect(editedChanges(answer(use('Write', { file_path: 'a.py', content: 'function    run() {}' })))).toEqual(['wrote a.py (run)']);
  });

  it('a path is shown by its last two segments, empty segments ignored', () => {
    expect(editedChanges(answer(use('Write', { file_path: '/setup.py', content: 'x' })))).toEqual(['wrote setup.py']);
    expect(editedChanges(answer(use('Write', { file_path: 'src/lib//x.ts', content: 'x' })))).toEqual(['wrote lib/x.ts']);
  });
});

describe('editedChanges: shell commands', () => {
  it.each([
    ['> empty.txt', ['wrote empty.txt']], // a redirect that opens the command
    ['echo hi >out.txt', ['wrote out.txt']], // no space after >
    ['echo hi > out.txt; ls', ['wrote out.txt']], // the whole name, when more follows
    ['cat a >> a.txt.bak', ['wrote a.txt.bak']],
    ['echo x > /dev/shm/cache.json', []], // never a device path
    ['ls &> all.log', []],
    ['ls 2> e.txt', []],
    ['sed  -i s/a/b/ x.ts', ['edited x.ts']], // a command is read on one line, single-spaced
  ])('%j -> %j', (command, changes) => {
    expect(editedChanges(answer(bash(command)))).toEqual(changes);
  });

  it('a redirect names what its command defines', () => {
    expect(editedChanges(answer(bash("printf 'function hello() {}' > hello.js")))).toEqual(['wrote hello.js (hello)']);
  });
});
