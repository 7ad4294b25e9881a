import { existsSync, mkdirSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeTempDir } from '../../src/adapters/tempFiles';

describe('makeTempDir', () => {
  it('makes a fresh private folder under the OS temp dir, named with the prefix', () => {
    const a = makeTempDir('strata-temp-test-');
    const b = makeTempDir('strata-temp-test-');
    try {
      expect(a.dir).not.toBe(b.dir);
      expect(realpathSync(dirname(a.dir))).toBe(realpathSync(tmpdir()));
      expect(basename(a.dir).startsWith('strata-temp-test-')).toBe(true);
      expect(statSync(a.dir).isDirectory()).toBe(true);
      expect(statSync(a.dir).mode & 0o077).toBe(0);
    } finally {
      a.remove();
      b.remove();
    }
  });

  it('removes the folder with everything in it, and removing it twice is no error', () => {
    const t = makeTempDir('strata-temp-test-');
    mkdirSync(join(t.dir, 'sub/deeper'), { recursive: true });
    writeFileSync(join(t.dir, 'sub/deeper/f.txt'), 'x');
    t.remove();
    expect(existsSync(t.dir)).toBe(false);
    expect(() => t.remove()).not.toThrow();
  });
});
