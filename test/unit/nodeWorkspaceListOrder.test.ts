import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { NodeWorkspace } from '../../src/adapters/nodeWorkspace';
import { useTempDirs } from '../support/tempDirs';

// File systems list a folder in their own order (ext4 by hash, some by creation time); this one
// may list it sorted already. Here node:fs lists it shuffled (a fixed order), so the workspace's own
// sort shows.
vi.mock('node:fs/promises', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs/promises')>();
  /** Every third entry, from each of the three starting points: no sort's identity nor its reverse. */
  const shuffle = <T>(xs: T[]): T[] => [0, 1, 2].flatMap((start) => xs.filter((_, i) => i % 3 === start));
  const readdir = async (...args: Parameters<typeof fs.readdir>) => shuffle([...((await fs.readdir(...args)) as unknown[])]);
  return { ...fs, readdir };
});

const tempDir = useTempDirs('strata-listorder-');

describe('NodeWorkspace.listDir', () => {
  it('sorts entries by name (code units) whatever order the file system lists them in', async () => {
    const root = tempDir();
    const names = ['zeta.txt', 'b.txt', 'B.txt', 'a.txt', '_x', '10', '9', 'é'];
    for (const name of names) writeFileSync(join(root, name), '');
    expect((await new NodeWorkspace(root).listDir('')).map((e) => e.name)).toEqual(['10', '9', 'B.txt', '_x', 'a.txt', 'b.txt', 'zeta.txt', 'é']);
  });
});
