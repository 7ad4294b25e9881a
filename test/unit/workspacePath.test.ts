import { describe, expect, it } from 'vitest';
import { protectedReason } from '../../src/task/tools/protectedPaths';
import { displayPath, isWithin, joinRel, parentOf, resolveWorkspacePath } from '../../src/task/tools/workspacePath';

// The pure half of confinement (the tools' tests drive it through real files): each case is one
// way a path could slip out of the workspace, or one path that must still resolve.

describe('resolveWorkspacePath on a POSIX root', () => {
  it.each([
    ['a.txt', 'a.txt'],
    ['  a.txt\t', 'a.txt'],
    ['./a//b/./c', 'a/b/c'],
    ['a/b/../c', 'a/c'],
    ['a/..', ''],
    ['', ''],
    ['.', ''],
    ['/ws', ''],
    ['/ws/', ''],
    ['//ws/a', 'a'],
    ['/ws/./a/../b', 'b'],
    ['a\\b', 'a\\b'],
    ['~a', '~a'],
    ['a/~/b', 'a/~/b'],
  ])('%j -> %j', (input, rel) => {
    expect(resolveWorkspacePath('/ws', input)).toEqual({ ok: true, rel });
  });

  it('refuses each escape with the reason the model is given', () => {
    expect(resolveWorkspacePath('/ws', 'a\0b')).toEqual({ ok: false, reason: 'the path contains a NUL byte' });
    for (const home of ['~', '~/x', '~\\x', ' ~/x ']) {
      expect(resolveWorkspacePath('/ws', home)).toEqual({ ok: false, reason: "'~' (the home folder) is outside the workspace /ws; use a path relative to the workspace root" });
    }
    expect(resolveWorkspacePath('/ws', '..')).toEqual({ ok: false, reason: "'..' climbs out of the workspace /ws through '..'; use a path inside it" });
    expect(resolveWorkspacePath('/ws', 'a/../../ws/b')).toEqual({ ok: false, reason: "'a/../../ws/b' climbs out of the workspace /ws through '..'; use a path inside it" });
    for (const outside of ['/', '/w', '/ws2/a', '/WS/a', '/other/ws/a', '/ws/../etc/passwd', '/../ws/a/../../x']) {
      expect(resolveWorkspacePath('/ws', outside)).toEqual({ ok: false, reason: `'${outside}' is outside the workspace /ws; use a path inside it (relative to its root)` });
    }
  });

  it('compares a POSIX root case-sensitively and takes a Windows-looking path as relative', () => {
    expect(resolveWorkspacePath('/Work/ws', '/work/ws/a').ok).toBe(false);
    expect(resolveWorkspacePath('/ws', 'C:/x')).toEqual({ ok: true, rel: 'C:/x' });
    expect(resolveWorkspacePath('/a/b', '/a/b/c')).toEqual({ ok: true, rel: 'c' });
    expect(resolveWorkspacePath('/a/b', '/a/c/b').ok).toBe(false);
  });
});

describe('resolveWorkspacePath on a Windows root', () => {
  it('takes either separator and any case, for drive roots written either way', () => {
    for (const root of ['C:\\Work\\ws', 'c:/work/ws', 'C:\\Work\\ws\\']) {
      expect(resolveWorkspacePath(root, 'c:/WORK/ws/src\\a.ts')).toEqual({ ok: true, rel: 'src/a.ts' });
      expect(resolveWorkspacePath(root, 'C:\\Work\\ws')).toEqual({ ok: true, rel: '' });
      expect(resolveWorkspacePath(root, 'src\\..\\lib\\b.ts')).toEqual({ ok: true, rel: 'lib/b.ts' });
      expect(resolveWorkspacePath(root, 'D:\\Work\\ws\\a').ok).toBe(false);
      expect(resolveWorkspacePath(root, 'C:\\Work\\other').ok).toBe(false);
      expect(resolveWorkspacePath(root, 'src\\..\\..\\x').ok).toBe(false);
      expect(resolveWorkspacePath(root, '~\\x').ok).toBe(false);
    }
  });

  it('a path shorter than the root, a drive letter mid-path, and a root that climbs are not inside', () => {
    expect(resolveWorkspacePath('C:\\ws', 'C:\\').ok).toBe(false);
    expect(resolveWorkspacePath('C:\\ws', 'src\\x:\\y')).toEqual({ ok: true, rel: 'src/x:/y' });
    expect(resolveWorkspacePath('/../ws', '/ws/a').ok).toBe(false);
  });

  it('a UNC root (\\\\server\\share) is a Windows root too', () => {
    const root = '\\\\server\\share\\ws';
    expect(resolveWorkspacePath(root, '\\\\SERVER\\share\\ws\\a.txt')).toEqual({ ok: true, rel: 'a.txt' });
    expect(resolveWorkspacePath(root, 'sub\\a.txt')).toEqual({ ok: true, rel: 'sub/a.txt' });
    expect(resolveWorkspacePath(root, '\\\\server\\other\\a.txt').ok).toBe(false);
  });

  it('a root that only contains a drive letter later is not a Windows root', () => {
    expect(resolveWorkspacePath('/mnt/C:/ws', 'a\\b')).toEqual({ ok: true, rel: 'a\\b' });
    expect(resolveWorkspacePath('xC:\\ws', 'a\\b')).toEqual({ ok: true, rel: 'a\\b' });
    expect(resolveWorkspacePath('/ws', 'c:/ws/a')).toEqual({ ok: true, rel: 'c:/ws/a' });
  });
});

describe('relative path helpers', () => {
  it('parentOf, joinRel, isWithin, displayPath', () => {
    expect(parentOf('a/b/c')).toBe('a/b');
    expect(parentOf('a')).toBe('');
    expect(parentOf('abc')).toBe('');
    expect(parentOf('')).toBe('');
    expect(joinRel('', 'x')).toBe('x');
    expect(joinRel('a/b', 'x')).toBe('a/b/x');
    expect(isWithin('a/b', '')).toBe(true);
    expect(isWithin('', '')).toBe(true);
    expect(isWithin('a', 'a')).toBe(true);
    expect(isWithin('a/b', 'a')).toBe(true);
    expect(isWithin('ab', 'a')).toBe(false);
    expect(isWithin('a', 'a/b')).toBe(false);
    expect(isWithin('', 'a')).toBe(false);
    expect(displayPath('')).toBe('.');
    expect(displayPath('a/b')).toBe('a/b');
  });
});

describe('protectedReason: the reason the user is shown', () => {
  it.each([
    ['sub/.git/config', 'it is inside a .git folder: git runs its hooks and the commands its config names (core.fsmonitor, core.hooksPath, aliases)'],
    ['sub/.git', 'it is a .git folder: git runs its hooks and the commands its config names (core.fsmonitor, core.hooksPath, aliases)'],
    ['.vscode/tasks.json', 'it is inside a .vscode folder: VS Code runs its tasks, launch configurations and settings such as terminal profiles'],
    ['.devcontainer/x', 'it is inside a .devcontainer folder: the editor runs its commands when the folder is reopened in a container'],
    ['.husky/pre-push', 'it is inside a .husky folder: its git hooks run on commit and push'],
    ['a/.githooks/pre-commit', 'it is inside a .githooks folder: git hooks kept in the repository, run on commit and push'],
    ['.ENVRC', 'it is .envrc: direnv runs it in the shell on entering the folder'],
    ['a/.github/workflows/x/ci.yml', "it is a GitHub Actions workflow: it runs in CI with the repository's secrets on the next push"],
    ['.github/workflows/ci.yml', "it is a GitHub Actions workflow: it runs in CI with the repository's secrets on the next push"],
    ['x/Team.Code-Workspace', 'it is a VS Code workspace file: its settings and tasks run like those of .vscode/'],
  ])('%s', (rel, reason) => {
    expect(protectedReason(rel)).toBe(reason);
  });

  it('only a folder above the file counts, and .github/workflows only as folders', () => {
    expect(protectedReason('.github/workflows')).toBeUndefined();
    expect(protectedReason('workflows/.github/ci.yml')).toBeUndefined();
    expect(protectedReason('.github/x/workflows/ci.yml')).toBeUndefined();
    expect(protectedReason('.envrc/notes.md')).toBeUndefined();
    expect(protectedReason('a.code-workspace/b.txt')).toBeUndefined();
    expect(protectedReason('/.git//config')).toBe(protectedReason('.git/config'));
    // A trailing slash names the folder itself, not something inside it.
    expect(protectedReason('sub/.git/')).toBe(protectedReason('sub/.git'));
    expect(protectedReason('')).toBeUndefined();
  });
});
