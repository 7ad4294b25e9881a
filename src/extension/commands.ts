import * as vscode from 'vscode';
import type { ApiKeyStore } from './apiKeyStore';
import { COMMAND_IDS, type CommandId } from './commandIds';
import type { ChatController } from './chatController';
import type { DisposableStore } from './disposableStore';


/** Says plainly that a command's backing work is not in this build, instead of pretending. */
function notYet(what: string): () => void {
  return () => void vscode.window.showInformationMessage(`Strata: ${what} is not available yet in this build.`);
}

export function registerCommands(store: DisposableStore, deps: { chat: ChatController; apiKeys: ApiKeyStore; extensionId: string }): void {
  const handlers: Record<CommandId, () => unknown> = {
    'strata.newSession': async () => {
      deps.chat.newSession();
      await vscode.commands.executeCommand('strata.chat.focus');
    },
    'strata.condenseNow': notYet('Condense Now (it needs the Task loop, which is not wired in yet)'),
    'strata.setApiKey': () => deps.apiKeys.promptAndStore(),
    'strata.showLastRequest': notYet('Show Last Request (no request is sent until the Task loop is wired in)'),
    'strata.openSettings': () => vscode.commands.executeCommand('workbench.action.openSettings', `@ext:${deps.extensionId}`),
    'strata.importSession': notYet('Import Session (Claude Code and Cline transcripts)'),
  };
  for (const id of COMMAND_IDS) store.add(vscode.commands.registerCommand(id, handlers[id]));
}
