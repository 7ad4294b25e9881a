import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { GitignoreMatcher } from '../../src/adapters/gitignoreMatcher';
import { NodeWorkspace } from '../../src/adapters/nodeWorkspace';
import { createTextSearcher } from '../../src/adapters/ripgrepSearcher';
import { ShellCommandRunner } from '../../src/adapters/shellCommandRunner';
import { makeTempDir } from '../../src/adapters/tempFiles';
import { FileContextTracker } from '../../src/task/fileContextTracker';
import type { ApprovalRequest, ToolContext } from '../../src/task/tools/tool';

/** A real temp workspace (plus a sibling "outside" folder) and a ToolContext over the real adapters. */
export interface ToolFixture {
  root: string;
  outside: string;
  ctx: ToolContext;
  approvals: ApprovalRequest[];
  write(rel: string, text: string | Uint8Array): string;
  remove(): void;
}

export function makeToolFixture(options: { rgPath?: string | null; mentioned?: string[]; approve?: boolean } = {}): ToolFixture {
  const temp = makeTempDir('strata-tools-');
  const base = realpathSync(temp.dir);
  const root = join(base, 'ws');
  const outside = join(base, 'outside');
  mkdirSync(root);
  mkdirSync(outside);
  const workspace = new NodeWorkspace(root);
  const ignore = new GitignoreMatcher(workspace);
  const approvals: ApprovalRequest[] = [];
  const ctx: ToolContext = {
    workspace,
    ignore,
    searcher: createTextSearcher(workspace, ignore, { rgPath: options.rgPath === undefined ? null : options.rgPath }),
    commands: new ShellCommandRunner(root, { killGraceMs: 300, pipeSettleMs: 200 }),
    tracker: new FileContextTracker(workspace),
    mentionedPaths: new Set(options.mentioned ?? []),
    approve: async (request) => {
      approvals.push(request);
      return options.approve === false ? { approved: false, feedback: 'not now' } : { approved: true };
    },
    signal: new AbortController().signal,
  };
  return {
    root,
    outside,
    ctx,
    approvals,
    write(rel, text) {
      const path = join(root, rel);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, text);
      return path;
    },
    remove: temp.remove,
  };
}
