import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Frame, Page } from 'playwright-core';
import type { MessagesApiServer } from '../support/messagesApiServer';
import { faults } from '../support/messagesApiServer';
import { textAnswer } from '../support/messagesApiEvents';
import type { StepContext } from './webuiSteps';

/** Longer than a reload takes, short enough that an old extension host still streaming it ends before the suite. */
const STALL_MS = 30_000;

/** The Archive pane starts collapsed (the chat keeps its room); the steps after it need it open. */
export async function archiveStartsCollapsedStep(c: StepContext): Promise<void> {
  await c.check('the Archive view starts collapsed, so the chat keeps its room', async () => {
    const header = c.page.locator('.pane-header', { hasText: /^\s*Archive/ }).first();
    await header.waitFor({ timeout: c.timeoutMs });
    const expanded = await header.getAttribute('aria-expanded');
    if (expanded !== 'false') throw new Error(`the Archive pane header says aria-expanded=${expanded}`);
    await header.click();
    await c.page.locator('.pane-header[aria-expanded="true"]', { hasText: /^\s*Archive/ }).first().waitFor({ timeout: c.timeoutMs });
  });
}

/**
 * The text of the Markdown preview (a webview in the editor area) once it matches `pattern`;
 * the preview tab's title is "Preview <file>".
 */
export async function previewText(page: Page, pattern: RegExp, timeoutMs: number): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    for (const frame of page.frames()) {
      const body = frame.locator('.markdown-body');
      if ((await body.count().catch(() => 0)) === 0) continue;
      last = await body.first().innerText().catch(() => '');
      if (pattern.test(last)) return last;
    }
    await page.waitForTimeout(250);
  }
  throw new Error(`no Markdown preview showing ${pattern} within ${timeoutMs / 1000} s; last seen "${last.slice(0, 300)}"`);
}

/**
 * Condense on a short session makes no model call; a reload brings the conversation back (same
 * session id and title); a turn running when the window reloads is shown as interrupted.
 * Returns the chat's frame after the reloads (the old one is gone).
 */
export async function continuitySteps(c: StepContext, api: MessagesApiServer): Promise<Frame> {
  const { page } = c;
  let webview = c.webview;
  const messages = ['Say one', 'Say two', 'Say three'];
  const send = async (text: string) => {
    await webview.locator('[data-testid="chat-input"] textarea').fill(text);
    await webview.locator('[data-testid="send"]').click();
  };

  await c.check('Condense on a short session says it is not worth a call and makes none', async () => {
    await webview.locator('[data-testid="new-session"]').click();
    await webview.locator('.messages.empty').waitFor({ timeout: c.timeoutMs });
    await c.waitForText(webview.locator('[data-testid="session-title"]'), /^New session$/);
    const answers = ['One.', 'Two.', 'Three.'];
    api.enqueue(...answers.map((a) => textAnswer(a)));
    for (const [i, text] of messages.entries()) {
      await send(text);
      await c.waitForText(webview.locator('.msg.assistant').last(), new RegExp(answers[i]!.replace('.', '\\.')));
      await webview.locator('[data-testid="send"]').waitFor({ timeout: c.timeoutMs });
    }
    const before = api.messageRequests.length;
    await webview.locator('[data-testid="condense"]').click();
    const row = webview.locator('[data-testid="engine-event"][data-event="warning"]').filter({ hasText: 'not worth a call' });
    await row.first().waitFor({ timeout: c.timeoutMs });
    console.log(`e2e:      condense row: ${await row.first().innerText()}`);
    await page.waitForTimeout(1_000);
    if (api.messageRequests.length !== before) throw new Error(`Condense made ${api.messageRequests.length - before} request(s) on a short session`);
    await c.waitForText(webview.locator('[data-testid="session-title"]'), /^Say one$/);
  });
  await c.shot('condense-not-worth-it');

  const title = webview.locator('[data-testid="session-title"]');
  const sessionId = await title.getAttribute('data-session-id');
  if (!sessionId) throw new Error('the session title carries no session id');

  const meterBefore = (await webview.locator('.meter-label').innerText()).trim();
  const figuresOf = (text: string) => /Window [\d,]+ · output reserve [\d,]+ · auto-condense at \d+% \([\d,]+\)/.exec(text)?.[0];
  const figuresBefore = figuresOf(await webview.locator('[data-testid="thresholds"]').innerText());
  await c.check("after a reload the chat shows the same session: its id, title, messages, the meter's last prompt and the window it ran in", async () => {
    await page.reload();
    webview = await chatFrame(page, c.timeoutMs);
    const back = webview.locator(`[data-testid="session-title"][data-session-id="${sessionId}"]`);
    await back.waitFor({ timeout: c.timeoutMs });
    await c.waitForText(back, /^Say one$/);
    const past = webview.locator('[data-testid="history-entry"]');
    await past.nth(5).waitFor({ timeout: c.timeoutMs });
    const texts = await past.allInnerTexts();
    const expected = ['Say one', 'One.', 'Say two', 'Two.', 'Say three', 'Three.'];
    if (JSON.stringify(texts) !== JSON.stringify(expected)) throw new Error(`history rows after the reload: ${JSON.stringify(texts)}`);
    if (!/usable tokens/.test(meterBefore)) throw new Error(`before the reload the meter said "${meterBefore}"`);
    await c.waitForText(webview.locator('.meter-label'), new RegExp(meterBefore.replace(/[()]/g, '\\$&')));
    // No session is open yet, so the panel shows the settings' figures: with the window the server gave this model, not the built-in table's.
    if (!figuresBefore) throw new Error('before the reload the context panel showed no window figures');
    await c.waitForText(webview.locator('[data-testid="thresholds"]'), new RegExp(figuresBefore.replace(/[()]/g, '\\$&')));
  });
  await c.shot('reload-restored');

  await c.check('a turn running when the window reloads is shown as interrupted after it', async () => {
    api.enqueue(faults.stall(textAnswer('A slow answer that the reload cuts short.'), STALL_MS, 5));
    const requests = api.messageRequests.length;
    await send('Take your time with this');
    await webview.locator('[data-testid="stop"]').waitFor({ timeout: c.timeoutMs });
    // Reload as soon as the request is out (the "turn running" marker was written before it).
    await c.waitFor(() => api.messageRequests.length > requests, 'the request of the turn to reach the server');
    await page.reload();
    webview = await chatFrame(page, c.timeoutMs);
    await webview.locator(`[data-testid="session-title"][data-session-id="${sessionId}"]`).waitFor({ timeout: c.timeoutMs });
    const interrupted = webview.locator('[data-testid="engine-event"]').filter({ hasText: 'Interrupted by a reload' });
    await interrupted.first().waitFor({ timeout: c.timeoutMs });
    await c.waitForText(interrupted, /Take your time with this/);
    await webview.locator('[data-testid="send"]').waitFor({ timeout: c.timeoutMs }); // idle: the input is free
  });
  await c.shot('reload-interrupted');
  return webview;
}

/** The chat webview's frame after a page load: the Strata view is reopened from the activity bar if it is not showing. */
async function chatFrame(page: Page, timeoutMs: number): Promise<Frame> {
  await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
  const deadline = Date.now() + timeoutMs * 2;
  let clicked = false;
  while (Date.now() < deadline) {
    for (const frame of page.frames()) {
      if ((await frame.locator('[data-testid="chat-input"]').count().catch(() => 0)) > 0) return frame;
    }
    if (!clicked && Date.now() > deadline - timeoutMs * 1.5) {
      clicked = true;
      const strata = page.locator('.activitybar [aria-label^="Strata"]').first();
      // Clicking an open container's icon would close it: only when the chat pane is not there.
      if ((await page.locator('.pane-header', { hasText: /^\s*Chat/ }).count()) === 0) await strata.click({ timeout: timeoutMs }).catch(() => undefined);
    }
    await page.waitForTimeout(250);
  }
  throw new Error('no chat webview after the reload');
}

/**
 * The settings panel at User scope: the base URL lands in the user's settings.json, not in the
 * remote machine's (code-server is a remote window; the setting was machine-overridable). Writes
 * the base URL the suite already uses, so nothing else changes.
 */
export async function userScopeSettingStep(c: StepContext, webview: Frame, baseUrl: string): Promise<void> {
  const machineFile = join(dirname(dirname(c.server.userSettingsFile)), 'Machine', 'settings.json');
  await c.check('a base URL saved at User scope in the settings panel lands in the user settings.json, not the machine settings', async () => {
    const header = c.page.locator('.pane-header').filter({ hasText: /^Chat|Chat$/ }).first();
    await header.hover({ timeout: c.timeoutMs });
    await header.locator('.action-label[aria-label^="Open Settings"]').click({ timeout: c.timeoutMs });
    await webview.locator('[data-testid="settings-panel"]').waitFor({ timeout: c.timeoutMs });
    await webview.locator('[data-testid="scope-user"]').click();
    const input = webview.locator('[data-testid="setting-strata.baseUrl"] input');
    await input.fill(baseUrl);
    await input.press('Enter');
    await c.waitFor(() => readFileSync(c.server.userSettingsFile, 'utf8').includes(`"strata.baseUrl": "${baseUrl}"`), `the user settings.json to hold strata.baseUrl: ${baseUrl}`);
    if (existsSync(machineFile) && readFileSync(machineFile, 'utf8').includes('strata.baseUrl')) throw new Error(`the machine settings (${machineFile}) hold strata.baseUrl`);
    await c.shot('settings-user-scope');
    await webview.locator('[data-testid="settings-close"]').click();
  });
}
