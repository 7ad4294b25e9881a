import { describe, expect, it } from 'vitest';
import type { ContentBlock, Message } from '../../src/shared/messages';
import { basename, commandLabel, commandsRun, editedChanges, MAX_BLOCKS } from '../../src/engine/derive/exchangeActions';

const use = (name: string, input: unknown, id = 'x'): ContentBlock => ({ type: 'tool_use', id, name, input });
const answer = (...content: ContentBlock[]): Message => ({ role: 'assistant', content });
const text = (t: string): ContentBlock => ({ type: 'text', text: t });

describe('commandLabel: the program that matters in a command line', () => {
  it.each([
    ['sudo nice npm test', 'npm test'], // wrappers dropped, a subcommand program keeps its subcommand
    ['timeout 30s make build', 'make build'], // a duration after a wrapper is no program
    ['env FOO=1 go test ./...', 'go test'],
    ['A=1 B=2 node script.js', 'node script.js'], // assignments dropped, a file argument named
    ['npx vitest run x', 'vitest'], // a runner runs the program after it
    ['npx -y vitest run', 'vitest'], // flags after a runner or wrapper are no program
    ['sudo -E npm ci', 'npm ci'],
    ['uv run pytest -q', 'pytest'],
    ['poetry run python manage.py test', 'python manage.py'],
    ['python -c "print(1)"', 'python -c'],
    ['python3.11 -m pip install x', 'pip'],
    ['python3 -m', 'python3'],
    ['python -v', 'python'],
    ['cd src; ls -la', 'ls'], // setup segments skipped, flags are no argument
    ['export A=1 && cargo build --release', 'cargo build'],
    ['(cd x && make)', 'make'],
    ['{ git status; }', 'git status'],
    ['cat "src/a.ts"', 'cat a.ts'], // quotes around a file argument dropped
    ['/usr/bin/grep foo', 'grep'], // a program path named by its base name
    ['echo hi | tee out.txt', 'echo'], // the first stage that runs something
    ['ls\npwd', 'ls'],
    ['git', 'git'], // no subcommand to add
    ['git -c core.pager=cat log -3', 'git log'], // an option's value is no subcommand
    ['git -C ../repo status', 'git status'],
    ['make -C build -j4 test', 'make test'],
    ['git --no-pager diff', 'git diff'],
    ['npm --prefix=web test', 'npm test'],
    ['docker ./x', 'docker'], // a path is no subcommand
    ['node -e x.js', 'node x.js'],
    ['pushd a || popd', 'shell'], // only setup: nothing that matters ran
    ['npx', 'shell'],
    ['', 'shell'],
  ])('%j -> %s', (command, label) => {
    expect(commandLabel(command)).toBe(label);
  });
});

describe('commandLabel: every program of its tables', () => {
  it.each(['cd src', 'source .venv/bin/activate', '. ./env.sh', 'export A=1', 'set -e', 'pushd src', 'popd', 'ulimit -n 4096', 'unset A'])('%s only sets up the shell', (setup) => {
    expect(commandLabel(`${setup}; make check`)).toBe('make check');
  });
  it.each(['sudo', 'time', 'env', 'timeout 30', 'nohup', 'exec', 'nice'])('%s only wraps the program', (wrapper) => {
    expect(commandLabel(`${wrapper} ls -la`)).toBe('ls');
  });
  it.each(['git', 'npm', 'yarn', 'pnpm', 'bun', 'cargo', 'go', 'docker', 'kubectl', 'gh', 'pip', 'pip3', 'make'])('%s keeps its subcommand', (program) => {
    expect(commandLabel(`${program} build --x`)).toBe(`${program} build`);
  });
  it.each(['npx', 'uv', 'poetry', 'pipenv', 'hatch', 'pdm'])('%s runs the program after it', (runner) => {
    expect(commandLabel(`${runner} run pytest -q`)).toBe('pytest');
    expect(commandLabel(`${runner} pytest -q`)).toBe('pytest');
  });
});

describe('commandsRun', () => {
  it('takes shell commands from tool calls, on one line; other calls and non-string commands add none', () => {
    const run = answer(use('Bash', { command: 'echo  a\n  b' }), use('Read', { file_path: 'a.ts' }), use('Bash', { command: 7 }), use('Bash', { command: 'ls' }));
    expect(commandsRun(run)).toEqual(['echo a b', 'ls']);
  });

  it("a text editor tool's command names its operation, not a shell command", () => {
    expect(commandsRun(answer(use('str_replace_based_edit_tool', { command: 'str_replace', path: 'x/y.py', old_str: 'a', new_str: 'b' })))).toEqual([]);
    expect(commandsRun(answer(use('str_replace_editor', { command: 'view', path: 'x/y.py' })))).toEqual([]);
  });

  it('reads fenced bash, sh, console and bare blocks when the answer calls no tool; never other languages or empty blocks', () => {
    const fenced = 'Run:\n```bash\nls   -la\n```\nthen\n```python\nprint(1)\n```\n```sh\n\n```\n```console\nmake\n```\n```\npwd\n```\n```bash\nunclosed';
    expect(commandsRun(answer(text(fenced)))).toEqual(['ls -la', 'make', 'pwd']);
    expect(commandsRun(answer(text('```bash\nls\n```'), use('Read', { file_path: 'a.ts' })))).toEqual([]);
  });

  it(`reads at most ${MAX_BLOCKS} blocks and 400 characters of a command`, () => {
    const many = answer(...Array.from({ length: MAX_BLOCKS + 6 }, (_, i) => use('Bash', { command: `echo ${i}` }, `b${i}`)));
    const commands = commandsRun(many);
    expect(commands).toHaveLength(MAX_BLOCKS);
    expect(commands.at(-1)).toBe(`echo ${MAX_BLOCKS - 1}`);
    expect(commandsRun(answer(use('Bash', { command: `echo ${'y'.repeat(1_000)}` })))[0]).toHaveLength(400);
  });
});

describe('editedChanges: files changed, with the symbols the edit defines or touches', () => {
  it('an edit names the symbols it added or removed, a path by its last two segments', () => {
    expect(editedChanges(answer(use('Edit', { file_path: '/repo/src/parser.ts', old_string: 'const a = parseLine(x);', new_string: 'const a = parseLines(x);' })))).toEqual(['edited src/parser.ts (parseLines, parseLine)']);
    expect(editedChanges(answer(use('Edit', { file_path: '/repo/src/p.ts', old_string: 'foo(userName)', new_string: 'foo(userName, otherThing)' })))).toEqual(['edited src/p.ts (otherThing)']);
  });

  it('an edit that changes no symbol names those it touched; one that touches none names only the file', () => {
    expect(editedChanges(answer(use('Edit', { file_path: 'p.ts', old_string: 'limit = maxCount', new_string: 'limit = maxCount + 1' })))).toEqual(['edited p.ts (maxCount)']);
    expect(editedChanges(answer(use('Edit', { file_path: '/repo/src/p.ts', old_string: 'x = 1', new_string: 'x = 2' })))).toEqual(['edited src/p.ts']);
  });

  it('a written file names what it defines; definitions win over touched symbols', () => {
    expect(editedChanges(answer(use('Write', { file_path: '/repo/src/new.py', content: 'def main():\n  pass\nclass Foo:\n  pass' })))).toEqual(['wrote src/new.py (main, Foo)']);
    expect(editedChanges(answer(use('str_replace_based_edit_tool', { command: 'create', path: 'x/z.py', file_text: 'class Zed:\n  pass' })))).toEqual(['wrote x/z.py (Zed)']);
  });

  it('MultiEdit reads every edit, keeps three symbols; a later edit of a written file makes it edited', () => {
    const multi = use('MultiEdit', { file_path: 'a/b/c.ts', edits: [{ old_string: 'function alpha() {', new_string: 'function beta() {' }, { old_string: 'x', new_string: 'function gamma() {}\nfunction delta() {}' }] });
    expect(editedChanges(answer(multi))).toEqual(['edited b/c.ts (alpha, beta, gamma)']);
    expect(editedChanges(answer(use('Write', { file_path: 'notes.md', content: 'hello' }, 'w'), use('Edit', { file_path: 'notes.md', old_string: 'a', new_string: 'b' }, 'e')))).toEqual(['edited notes.md']);
  });

  it('notebook edits count; reads, and a text editor view, do not', () => {
    expect(editedChanges(answer(use('NotebookEdit', { notebook_path: 'n.ipynb', old_string: 'a', new_string: 'b' })))).toEqual(['edited n.ipynb']);
    expect(editedChanges(answer(use('Read', { file_path: 'r.ts' })))).toEqual([]);
    expect(editedChanges(answer(use('str_replace_based_edit_tool', { command: 'view', path: 'x/y.py' })))).toEqual([]);
  });

  it('sed -i edits every file it names; a redirect writes its target, never /dev/...', () => {
    expect(editedChanges(answer(use('Bash', { command: "sed -i 's/a/b/' src/one.ts src/two.ts" })))).toEqual(['edited src/one.ts', 'edited src/two.ts']);
    expect(editedChanges(answer(use('Bash', { command: 'echo hi > out/log.txt' })))).toEqual(['wrote out/log.txt']);
    expect(editedChanges(answer(use('Bash', { command: 'make >> build.log' })))).toEqual(['wrote build.log']);
    expect(editedChanges(answer(use('Bash', { command: 'make > /dev/null' })))).toEqual([]);
    expect(editedChanges(answer(use('Bash', { command: 'ls 2> err.txt; echo 1>&2 x' })))).toEqual([]);
  });
});

describe('basename', () => {
  it('the last segment, trailing slashes ignored', () => {
    expect(['a/b/', 'x', 'a//b.ts//', '/', ''].map(basename)).toEqual(['b', 'x', 'b.ts', '', '']);
  });
});
