// `npm run test:electron`: for machines that can download VS Code (this one cannot: CI uses
// code-server instead, see test/e2e/). Downloads VS Code 1.100.3, runs suite.cjs inside it.
import { runTests } from '@vscode/test-electron';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..', '..', '..');
try {
  await runTests({ version: '1.100.3', extensionDevelopmentPath: root, extensionTestsPath: join(import.meta.dirname, 'suite.cjs'), launchArgs: ['--disable-extensions'] });
} catch (error) {
  console.error(`test:electron failed (it needs internet to download VS Code): ${error}`);
  process.exit(1);
}
