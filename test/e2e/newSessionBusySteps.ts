import type { MessagesApiServer } from '../support/messagesApiServer';
import { faults } from '../support/messagesApiServer';
import { textAnswer } from '../support/messagesApiEvents';
import type { StepContext } from './webuiSteps';

/** Longer than both dialogs take: the turn must still run when the second one is answered. */
const STALL_MS = 120_000;

/**
 * The New session button while a turn streams: a modal asks first. Cancel leaves the turn running
 * and the chat's list as it is; "Stop and start new" stops the turn and empties the chat.
 */
export async function newSessionBusySteps(c: StepContext, api: MessagesApiServer): Promise<void> {
  const { page, webview } = c;
  const dialog = page.locator('.monaco-dialog-box');
  const messages = webview.locator('.msg');
  const askForNew = async () => {
    await webview.locator('[data-testid="new-session"]').click();
    await dialog.waitFor({ timeout: c.timeoutMs });
    await c.waitForText(dialog, /A turn is running in the chat\. Stop it and start a new session\?/);
  };

  await c.check('New session while a turn runs asks first; Cancel lets the turn go on and keeps the chat', async () => {
    api.enqueue(faults.stall(textAnswer('Still thinking about it, then done.'), STALL_MS, 5));
    await webview.locator('[data-testid="chat-input"] textarea').fill('Think about this for a while');
    await webview.locator('[data-testid="send"]').click();
    await webview.locator('[data-testid="stop"]').waitFor({ timeout: c.timeoutMs });
    const shown = await messages.count();
    await askForNew();
    await c.shot('new-session-busy-asks');
    await dialog.locator('.monaco-button').filter({ hasText: /^Cancel$/ }).first().click();
    await dialog.waitFor({ state: 'detached', timeout: c.timeoutMs });
    await webview.locator('[data-testid="stop"]').waitFor({ timeout: 1_000 }); // still running
    if ((await messages.count()) < shown) throw new Error(`Cancel cleared the chat anyway (${shown} messages before, ${await messages.count()} after)`);
  });

  await c.check('"Stop and start new" stops the turn and empties the chat', async () => {
    await askForNew();
    await dialog.locator('.monaco-button').filter({ hasText: /^Stop and start new$/ }).first().click();
    await webview.locator('[data-testid="send"]').waitFor({ timeout: c.timeoutMs }); // the turn was stopped
    await messages.first().waitFor({ state: 'detached', timeout: c.timeoutMs });
  });
  await c.shot('new-session-busy-started');
}
