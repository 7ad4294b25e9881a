import { afterEach } from 'vitest';
import { makeTempDir } from '../../src/adapters/tempFiles';

/**
 * A fresh temporary folder per call, all removed after each test of the calling file.
 * Call at the top level of a test file (it registers an afterEach hook).
 */
export function useTempDirs(prefix: string): () => string {
  const temps: Array<{ remove: () => void }> = [];
  afterEach(() => temps.splice(0).forEach((t) => t.remove()));
  return () => {
    const t = makeTempDir(prefix);
    temps.push(t);
    return t.dir;
  };
}
