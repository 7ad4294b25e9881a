import { createHash } from 'node:crypto';
import { join } from 'node:path';

/**
 * Where the chat's per-workspace state (the last session and its running-turn marker) lives:
 * under the extension's global storage, in a folder named by a hash of the workspace's identity
 * (its .code-workspace file, else its folders). Not `context.storageUri`: while an old extension
 * host still holds the workspace storage's `vscode.lock` (code-server keeps a host alive after a
 * reload, for its reconnection grace time), VS Code gives the new host another folder
 * (`<id>-1`), and the chat state written a second before the reload is not found there.
 * `undefined` when no folder is open (the caller keeps workspaceState).
 */
export function chatStatePath(globalStorageDir: string, workspace: { file?: string; folders: readonly string[] }): string | undefined {
  const identity = workspace.file ?? (workspace.folders.length > 0 ? workspace.folders.join('\n') : undefined);
  if (identity === undefined) return undefined;
  const digest = createHash('sha256').update(identity).digest('hex').slice(0, 16);
  return join(globalStorageDir, 'workspaces', digest, 'chat-state.json');
}
