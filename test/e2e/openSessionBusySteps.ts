import type { MessagesApiServer } from '../support/messagesApiServer';
import { faults } from '../support/messagesApiServer';
import { textAnswer } from '../support/messagesApiEvents';
import type { StepContext } from './webuiSteps';
import { clickQuickPickRow } from './quickPick';

/** The session Import Session added at the start (its first query is its title). */
const IMPORTED = 'Fix the failing test in src/math.test.ts';
/** Longer than both dialogs take: the turn must still run when the second one is answered. */
const STALL_MS = 120_000;

/**
 * Open Session... while a turn streams: a modal asks first. Cancel leaves the turn running;
 * "Stop and open" stops it and the chat shows the chosen session's history.
 */
export async function openSessionBusySteps(c: StepContext, api: MessagesApiServer, runCommand: (title: string) => Promise<void>): Promise<void> {
  const { page, webview } = c;
  const dialog = page.locator('.monaco-dialog-box');
  const askToOpen = async () => {
    await runCommand('Strata: Open Session...');
    const row = page.locator('.quick-input-list .monaco-list-row:visible').filter({ hasText: IMPORTED }).first();
    await clickQuickPickRow(page, row, c.timeoutMs);
    await dialog.waitFor({ timeout: c.timeoutMs });
    await c.waitForText(dialog, /A turn is running in the chat\. Stop it and open "Fix the failing test in src\/math\.test\.ts"\?/);
  };

  await c.check('Open Session... while a turn runs asks first; Cancel lets the turn go on', async () => {
    api.enqueue(faults.stall(textAnswer('Working on it slowly, then done.'), STALL_MS, 5));
    await webview.locator('[data-testid="chat-input"] textarea').fill('Take your time with this one');
    await webview.locator('[data-testid="send"]').click();
    await webview.locator('[data-testid="stop"]').waitFor({ timeout: c.timeoutMs });
    await askToOpen();
    await c.shot('open-session-busy-asks');
    await dialog.locator('.monaco-button').filter({ hasText: /^Cancel$/ }).first().click();
    await dialog.waitFor({ state: 'detached', timeout: c.timeoutMs });
    await webview.locator('[data-testid="stop"]').waitFor({ timeout: 1_000 }); // still running
    if ((await webview.locator('[data-testid="history-entry"]').count()) !== 0) throw new Error('Cancel opened the session anyway');
  });

  await c.check('"Stop and open" stops the turn and opens the session with its history', async () => {
    await askToOpen();
    await dialog.locator('.monaco-button').filter({ hasText: /^Stop and open$/ }).first().click();
    const past = webview.locator('[data-testid="history-entry"]');
    await past.first().waitFor({ timeout: c.timeoutMs });
    await c.waitForText(past.first(), /Fix the failing test/);
    await webview.locator('[data-testid="send"]').waitFor({ timeout: c.timeoutMs }); // the turn was stopped
  });
  await c.shot('open-session-busy-opened');
}
