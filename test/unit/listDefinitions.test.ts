import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { READ_FILE_MAX_BYTES } from '../../src/task/tools/readFile';
import { runToolCall } from '../../src/task/tools/runToolCall';
import { makeToolFixture } from '../support/toolWorkspace';
import type { ToolFixture } from '../support/toolWorkspace';

let fx: ToolFixture;
beforeAll(() => {
  fx = makeToolFixture();
});
afterAll(() => fx.remove());
const list = (path: string) => runToolCall({ name: 'list_definitions', input: { path } }, fx.ctx);
const SUPPORTED = '.ts .tsx .mts .cts .js .jsx .mjs .cjs .py .pyi';

/** Whether list_definitions lists `line`, alone in a file of type `ext`. */
async function listsLine(ext: string, line: string): Promise<boolean> {
  fx.write(`case.${ext}`, `${line}\n`);
  const r = await list(`case.${ext}`);
  if (r.text === `No top-level definitions found in case.${ext}.`) return false;
  expect(r).toEqual({ isError: false, text: `case.${ext}\n  1 | ${line}` });
  return true;
}

// One row per form each pattern knows (and the spacing it allows), and the lines it must not take.
describe('list_definitions: the TS/JS definition patterns', () => {
  it.each([
    ['function plain() {}', true],
    ['export  function twoSpaces() {}', true],
    ['export default function main() {}', true],
    ['export default  function twoSpaces() {}', true],
    ['declare function declared(): void;', true],
    ['declare  function twoSpaces(): void;', true],
    ['async function load() {}', true],
    ['async  function twoSpaces() {}', true],
    ['function* gen() {}', true],
    ['function *gen() {}', true],
    ['export async function* stream() {}', true],
    ['  function nested() {}', false],
    ['function () {}', false], // no name
    ['functionsReady();', false], // a call whose name starts with "function"
    ['class Plain {}', true],
    ['export  class TwoSpaces {}', true],
    ['export default class Main {}', true],
    ['export default  class TwoSpaces {}', true],
    ['declare class Declared {}', true],
    ['declare  class TwoSpaces {}', true],
    ['abstract class Shape {}', true],
    ['abstract  class TwoSpaces {}', true],
    ['class  TwoSpaces {}', true],
    ['export declare abstract class Base {}', true],
    ['  class Inner {}', false],
    ['interface Plain {}', true],
    ['export interface Exported {}', true],
    ['export  interface TwoSpaces {}', true],
    ['declare interface Declared {}', true],
    ['declare  interface TwoSpaces {}', true],
    ['interface  TwoSpaces {}', true],
    ['  interface Inner {}', false],
    ['type Id = string;', true],
    ['export  type TwoSpaces = 1;', true],
    ['declare type Declared = 1;', true],
    ['declare  type TwoSpaces = 1;', true],
    ['type  TwoSpaces = 1;', true],
    ['type Tight= string;', true],
    ['type Box<T> = T[];', true],
    ['type Pair<A, B> = [A, B];', true],
    ['type Spaced <T> = T[];', true],
    ['  type Inner = 1;', false],
    ['enum Color { Red }', true],
    ['const enum Flag { A }', true],
    ['export  enum TwoSpaces {}', true],
    ['declare enum Declared {}', true],
    ['declare  enum TwoSpaces {}', true],
    ['const  enum TwoSpaces {}', true],
    ['enum  TwoSpaces {}', true],
    ['export declare const enum All {}', true],
    ['  enum Inner {}', false],
    ['namespace Plain {}', true],
    ['export namespace Exported {}', true],
    ['export  namespace TwoSpaces {}', true],
    ['declare namespace Declared {}', true],
    ['declare  namespace TwoSpaces {}', true],
    ['namespace  TwoSpaces {}', true],
    ['namespace A.B.C {}', true],
    ['  namespace Inner {}', false],
    ['const arrow = () => 1;', true],
    ['export  const twoSpaces = () => 1;', true],
    ['let  twoSpaces = () => 1;', true],
    ['var old = function () {};', true],
    ['const tight= (a: number) => a;', true],
    ['const typed: Fn = () => 1;', true],
    ['const noSpace =() => 1;', true],
    ['const later = async () => 1;', true],
    ['const twoSpaces = async  () => 1;', true],
    ['const typedReturn = (): number => 1;', true],
    ['const double = value => value * 2;', true],
    ['const inc = n=> n + 1;', true],
    ['  const inner = () => 1;', false],
    ['const value = 3;', false],
    ['const sum = (a) + b;', false],
  ])('%j listed: %s', async (line, listed) => {
    expect(await listsLine('ts', line)).toBe(listed);
  });
});

describe('list_definitions: the Python patterns', () => {
  it.each([
    ['def f(x):', true],
    ['async def fetch():', true],
    ['async  def twoSpaces():', true],
    ['def  twoSpaces():', true],
    ['class C:', true],
    ['class  TwoSpaces:', true],
    ['    def method(self):', false],
    ['    class Inner:', false],
    ['function notPython() {}', false],
  ])('%j listed: %s', async (line, listed) => {
    expect(await listsLine('py', line)).toBe(listed);
  });
});

describe('list_definitions: one file', () => {
  it.each([
    ['nope.ts', "No file or folder at 'nope.ts'."],
    ['Makefile', `'Makefile' is not a supported source file (supported: ${SUPPORTED}).`],
    ['notes.ts.md', `'notes.ts.md' is not a supported source file (supported: ${SUPPORTED}).`],
    ['secret.ts', "Refused: 'secret.ts' is excluded by .gitignore or .strataignore. It can be used only when the user mentions it (e.g. @/secret.ts); ask the user if you need it."],
  ])('refuses %s', async (path, message) => {
    fx.write('.gitignore', 'secret.ts\n');
    for (const file of ['Makefile', 'notes.ts.md', 'secret.ts']) fx.write(file, 'function f() {}\n');
    expect(await list(path)).toEqual({ isError: true, text: message });
  });

  it.each([
    ['types.d.ts', 'export declare function f(): void;\n', 'types.d.ts\n  1 | export declare function f(): void;'],
    ['crlf.ts', 'function a() {}\r\n\r\nfunction b() {}   \r\n', 'crlf.ts\n  1 | function a() {}\n  3 | function b() {}'],
    ['long.ts', `function long${'x'.repeat(200)}() {}\n`, `long.ts\n  1 | function long${'x'.repeat(160 - 13)}`],
    ['none.ts', 'const x = 1;\n', 'No top-level definitions found in none.ts.'],
    ['binary.ts', 'function a() {}\n\0\n', 'No top-level definitions found in binary.ts.'],
  ])('%s', async (path, text, expected) => {
    fx.write(path, text);
    expect(await list(path)).toEqual({ isError: false, text: expected });
  });

  it('reads files up to the size limit, and none above it', async () => {
    const first = 'function big() {}\n';
    fx.write('at-limit.ts', first + 'x'.repeat(READ_FILE_MAX_BYTES - first.length));
    fx.write('over-limit.ts', first + 'x'.repeat(READ_FILE_MAX_BYTES + 1 - first.length));
    expect((await list('at-limit.ts')).text).toBe(`at-limit.ts\n  1 | ${first.trim()}`);
    expect((await list('over-limit.ts')).text).toBe('No top-level definitions found in over-limit.ts.');
  });
});

describe('list_definitions: a folder', () => {
  beforeAll(() => {
    fx.write('.gitignore', 'lib/gen.ts\n');
    fx.write('lib/a.ts', 'export function a() {}\n');
    fx.write('lib/b.py', 'def b():\n    pass\n');
    fx.write('lib/empty.ts', 'const x = 1;\n');
    fx.write('lib/notes.md', 'function inNotes() {}\n');
    fx.write('lib/Makefile', 'all:\n');
    fx.write('lib/gen.ts', 'export function generated() {}\n');
    fx.write('lib/sub/deep.ts', 'export function deep() {}\n');
    fx.write('lib/vendor.js/x.js', 'function vendored() {}\n');
    fx.write('docs/readme.md', 'function inDocs() {}\n');
    fx.write('quiet/one.ts', 'const x = 1;\n');
    fx.write('quiet/two.py', 'x = 1\n');
    mkdirSync(join(fx.root, 'many'));
    for (let i = 10; i < 61; i++) fx.write(`many/f${i}.ts`, `function f${i}() {}\n`);
  });
  const A_AND_B = 'lib/a.ts\n  1 | export function a() {}\n\nlib/b.py\n  1 | def b():';

  it('maps the source files directly in it: not sub-folders, other files or ignored ones', async () => {
    expect(await list('lib')).toEqual({ isError: false, text: A_AND_B });
  });

  it('includes ignored files when the user mentioned the folder', async () => {
    const mentioned = fx.ctx.mentionedPaths;
    fx.ctx.mentionedPaths = new Set(['lib']);
    try {
      expect((await list('lib')).text).toBe(`${A_AND_B}\n\nlib/gen.ts\n  1 | export function generated() {}`);
    } finally {
      fx.ctx.mentionedPaths = mentioned;
    }
  });

  it.each([
    ['docs', `No supported source files directly in docs (supported: ${SUPPORTED}); try a sub-folder.`],
    ['quiet', 'No top-level definitions found in the 2 source files of quiet.'],
  ])('%s', async (path, expected) => {
    expect(await list(path)).toEqual({ isError: false, text: expected });
  });

  it('stops after 50 files', async () => {
    const sections = Array.from({ length: 50 }, (_, i) => `many/f${i + 10}.ts\n  1 | function f${i + 10}() {}`);
    expect((await list('many')).text).toBe([...sections, '[stopped after 50 files: ask for a sub-folder or a single file]'].join('\n\n'));
    rmSync(join(fx.root, 'many/f60.ts'));
    expect((await list('many')).text).toBe(sections.join('\n\n'));
  });
});
