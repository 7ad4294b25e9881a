import type { ToolContext } from './tool';
import { protectedReason } from './protectedPaths';
import { displayPath, isWithin, resolveWorkspacePath } from './workspacePath';

/** What the path is used for: reads, listings and searches honour ignore rules; writes do not. */
export type PathPurpose = 'read' | 'write' | 'cwd';

export type ConfinedPath = { ok: true; rel: string; realRel: string } | { ok: false; message: string };

/** True when the user mentioned `rel` or a folder above it, which lifts ignore rules for it. */
export function isMentioned(rel: string, mentioned: ReadonlySet<string>): boolean {
  for (const m of mentioned) if (isWithin(rel, m)) return true;
  return false;
}

/**
 * Resolves a model-supplied path against the workspace and refuses, with a message the model
 * can act on: `..` escapes, absolute paths outside the root, symbolic links (at any depth, also
 * dangling ones a write would follow) whose real target is outside, writes into `.git/`, and,
 * for reads, files excluded by `.gitignore` / `.strataignore` that the user did not mention.
 */
export async function confinePath(ctx: ToolContext, input: string, purpose: PathPurpose): Promise<ConfinedPath> {
  const { workspace } = ctx;
  const lexical = resolveWorkspacePath(workspace.root, input);
  if (!lexical.ok) return { ok: false, message: `Refused: ${lexical.reason}.` };
  const rel = lexical.rel;

  const realRoot = await workspace.realpath('');
  const real = resolveWorkspacePath(realRoot, await workspace.realpath(rel));
  if (!real.ok) {
    return {
      ok: false,
      message: `Refused: '${input}' goes through a symbolic link to a place outside the workspace ${workspace.root}; only files inside it can be used.`,
    };
  }
  const realRel = real.rel;

  if (purpose === 'write' && [rel, realRel].some((p) => isWithin(p.toLowerCase(), '.git'))) {
    return { ok: false, message: `Refused: '${input}' is inside .git/, which the tools never write; use git commands instead.` };
  }
  if (purpose === 'read' && !isMentioned(rel, ctx.mentionedPaths)) {
    const stat = await workspace.stat(rel);
    const isDirectory = stat?.kind === 'directory';
    for (const p of new Set([rel, realRel])) {
      if (p !== '' && (await ctx.ignore.isIgnored(p, isDirectory))) {
        return {
          ok: false,
          message: `Refused: '${displayPath(p)}' is excluded by .gitignore or .strataignore. It can be used only when the user mentions it (e.g. @/${p}); ask the user if you need it.`,
        };
      }
    }
  }
  return { ok: true, rel, realRel };
}

/**
 * Why a write to `input` can run code: its path or, through links, its real path is protected
 * (`protectedReason`). `undefined` when it is not, or when `confinePath` refuses it anyway.
 */
export async function writeProtection(ctx: ToolContext, input: string): Promise<string | undefined> {
  const where = await confinePath(ctx, input, 'write');
  if (!where.ok) return undefined;
  const direct = protectedReason(where.rel);
  if (direct) return direct;
  const real = protectedReason(where.realRel);
  return real ? `its real path ${where.realRel} is protected: ${real}` : undefined;
}
