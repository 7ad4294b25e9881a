// Runs inside desktop VS Code (Electron): activation must succeed even if the native SQLite
// module was built for Node rather than Electron, and every command must be registered.
const assert = require('node:assert');
const vscode = require('vscode');

exports.run = async function run() {
  const extension = vscode.extensions.all.find((e) => e.packageJSON.name === 'strata');
  assert.ok(extension, 'the Strata extension is loaded');
  await extension.activate();
  assert.ok(extension.isActive, 'Strata activated');
  const commands = await vscode.commands.getCommands(true);
  for (const id of extension.packageJSON.contributes.commands.map((c) => c.command)) {
    assert.ok(commands.includes(id), `${id} is registered`);
  }
};
