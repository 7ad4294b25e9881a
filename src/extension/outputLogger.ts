import * as vscode from 'vscode';
import type { Logger } from '../engine/ports';
import type { Disposable } from './disposableStore';

/** The engine's Logger port on the "Strata" output channel (View > Output > Strata). Never given secrets. */
export function createOutputLogger(): Logger & Disposable & { show(): void } {
  const channel = vscode.window.createOutputChannel('Strata', { log: true });
  return {
    info: (m) => channel.info(m),
    warn: (m) => channel.warn(m),
    error: (m) => channel.error(m),
    show: () => channel.show(true),
    dispose: () => channel.dispose(),
  };
}
