import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GitignoreMatcher } from '../../src/adapters/gitignoreMatcher';
import { NodeWorkspace } from '../../src/adapters/nodeWorkspace';
import { useTempDirs } from '../support/tempDirs';

// The ignore rules the Task's tools honour, over real files: which rule files are read, how
// nested ones combine, and that a changed rule file is seen.

const tempDir = useTempDirs('strata-ignore-');

/** A NodeWorkspace that counts the rule files it reads. */
class CountingWorkspace extends NodeWorkspace {
  reads: string[] = [];
  override async readText(rel: string): Promise<string> {
    this.reads.push(rel);
    return super.readText(rel);
  }
}

function fixture(files: Record<string, string>) {
  const root = tempDir();
  const write = (rel: string, text: string) => {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  };
  for (const [rel, text] of Object.entries(files)) write(rel, text);
  const workspace = new CountingWorkspace(root);
  return { root, write, workspace, matcher: new GitignoreMatcher(workspace) };
}

/** The paths of `paths` the matcher ignores (a trailing `/` marks a folder). */
async function ignoredOf(matcher: GitignoreMatcher, paths: string[], parentsClear = false): Promise<string[]> {
  const out: string[] = [];
  for (const p of paths) {
    const dir = p.endsWith('/');
    if (await matcher.isIgnored(dir ? p.slice(0, -1) : p, dir, parentsClear)) out.push(p);
  }
  return out;
}

describe('GitignoreMatcher', () => {
  it('never ignores the root, and always ignores .git/ even without rule files', async () => {
    const { matcher } = fixture({ 'a.txt': 'x' });
    expect(await matcher.isIgnored('', true)).toBe(false);
    expect(await ignoredOf(matcher, ['.git/', '.git/config', 'sub/.git/', 'a.txt', '.gitx/'])).toEqual(['.git/', '.git/config', 'sub/.git/']);
  });

  it('applies the root .gitignore, with negation and folder-only rules', async () => {
    const { matcher } = fixture({ '.gitignore': '*.log\n!keep.log\nbuild/\n' });
    expect(await ignoredOf(matcher, ['a.log', 'keep.log', 'src/b.log', 'build/', 'build/out.js', 'build', 'src/build/', 'a.txt'])).toEqual(['a.log', 'src/b.log', 'build/', 'build/out.js', 'src/build/']);
  });

  it('applies a nested .gitignore relative to its folder, after the rules above it', async () => {
    const { matcher } = fixture({
      '.gitignore': '*.log\n/top.txt\n',
      'src/.gitignore': '!keep.log\ngen/\nlocal.txt\n',
      'src/deep/a.ts': 'x',
    });
    const paths = ['top.txt', 'src/top.txt', 'src/x.log', 'src/keep.log', 'keep.log', 'src/gen/', 'src/gen/a.ts', 'gen/', 'src/local.txt', 'local.txt', 'src/deep/a.ts', 'src/deep/b.log', 'src/', 'src/deep/'];
    expect(await ignoredOf(matcher, paths)).toEqual(['top.txt', 'src/x.log', 'keep.log', 'src/gen/', 'src/gen/a.ts', 'src/local.txt', 'src/deep/b.log']);
  });

  it('applies rule files at any depth, and rules with an inner slash relative to their own folder', async () => {
    const { matcher } = fixture({ '.gitignore': 'docs/*.md\n', 'a/b/.gitignore': 'x.txt\nc/*.tmp\n' });
    const paths = ['docs/a.md', 'docs/sub/a.md', 'a/docs/a.md', 'a/b/x.txt', 'a/b/deep/x.txt', 'a/x.txt', 'a/b/c/y.tmp', 'a/b/d/c/y.tmp', 'a/c/y.tmp'];
    expect(await ignoredOf(matcher, paths)).toEqual(['docs/a.md', 'a/b/x.txt', 'a/b/deep/x.txt', 'a/b/c/y.tmp']);
  });

  it('keeps an earlier verdict when a deeper .gitignore says nothing about the path', async () => {
    const { matcher } = fixture({ '.gitignore': '*.log\n', 'src/.gitignore': 'unrelated.txt\n' });
    expect(await ignoredOf(matcher, ['src/x.log', 'src/unrelated.txt', 'src/y.ts'])).toEqual(['src/x.log', 'src/unrelated.txt']);
  });

  it('reads .strataignore at the root only, after .gitignore so it may re-include', async () => {
    const { matcher } = fixture({
      '.gitignore': '*.env\n',
      '.strataignore': '!example.env\nsecrets/\n',
      'sub/.strataignore': 'hidden.txt\n',
    });
    expect(await ignoredOf(matcher, ['prod.env', 'example.env', 'secrets/', 'secrets/a.txt', 'sub/hidden.txt', 'hidden.txt'])).toEqual(['prod.env', 'secrets/', 'secrets/a.txt']);
  });

  it('does not re-include a file whose folder is excluded, even by a rule file inside that folder', async () => {
    const { matcher } = fixture({ '.gitignore': 'dist/\n', 'dist/.gitignore': '!keep.js\n', 'dist/keep.js': 'x' });
    expect(await matcher.isIgnored('dist/keep.js', false)).toBe(true);
    expect(await matcher.isIgnored('dist', true)).toBe(true);
  });

  it('checks the parent folders as folders, so a folder-only rule excludes what is inside', async () => {
    const { matcher } = fixture({ '.gitignore': 'out/\n', 'out/.gitignore': '!x.js\n', 'out/x.js': 'x' });
    expect(await matcher.isIgnored('out/x.js', false)).toBe(true);
  });

  it('tests a folder that holds its own .gitignore against the rules above it only', async () => {
    const { matcher } = fixture({ 'src/.gitignore': '*.tmp\n', 'src/a.tmp': 'x' });
    expect(await matcher.isIgnored('src', true)).toBe(false);
    expect(await matcher.isIgnored('src', true, true)).toBe(false);
    expect(await matcher.isIgnored('src/a.tmp', false, true)).toBe(true);
  });

  it('with parentsClear (a walk that already checked the folders) still applies every rule file to the path', async () => {
    const { matcher } = fixture({ '.gitignore': '*.log\n', 'src/.gitignore': '!keep.log\n' });
    expect(await ignoredOf(matcher, ['src/a.log', 'src/keep.log', 'src/a.ts'], true)).toEqual(['src/a.log']);
  });

  it('ignores a folder named .gitignore instead of reading it', async () => {
    const { matcher } = fixture({ '.gitignore/readme': 'not rules', 'a.log': 'x' });
    expect(await ignoredOf(matcher, ['a.log', '.gitignore/readme'])).toEqual([]);
  });

  it('sees a rule file created, changed or removed after the first question', async () => {
    const { matcher, write, root } = fixture({ 'a.txt': 'x' });
    expect(await matcher.isIgnored('a.txt', false)).toBe(false);
    write('.gitignore', 'a.txt\n');
    expect(await matcher.isIgnored('a.txt', false)).toBe(true);
    write('.gitignore', 'bb.txt\n');
    expect(await ignoredOf(matcher, ['a.txt', 'bb.txt'])).toEqual(['bb.txt']);
    write('sub/.gitignore', 'c.txt\n');
    expect(await matcher.isIgnored('sub/c.txt', false)).toBe(true);
    const { rmSync } = await import('node:fs');
    rmSync(join(root, 'sub/.gitignore'));
    expect(await matcher.isIgnored('sub/c.txt', false)).toBe(false);
  });

  it('reads each rule file once while it is unchanged', async () => {
    const { matcher, workspace } = fixture({ '.gitignore': '*.log\n', '.strataignore': 'x\n', 'src/.gitignore': 'gen/\n' });
    for (let i = 0; i < 3; i++) await ignoredOf(matcher, ['src/a.log', 'src/gen/b.ts', 'c.ts']);
    expect(workspace.reads.sort()).toEqual(['.gitignore', '.strataignore', 'src/.gitignore']);
  });
});
