import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame, Page } from 'playwright-core';
import type { CodeServer } from './codeServer';

/** What the main e2e script lends these steps (its own check, screenshot and wait helpers). */
export interface StepContext {
  page: Page;
  webview: Frame;
  server: CodeServer;
  check<T>(name: string, body: () => Promise<T>): Promise<T>;
  shot(name: string): Promise<void>;
  waitFor(condition: () => boolean, what: string): Promise<void>;
  waitForText(locator: ReturnType<Frame['locator']>, pattern: RegExp): Promise<void>;
  writeWorkspaceSettings(server: CodeServer, settings: Record<string, unknown>): void;
  timeoutMs: number;
}

const FIELD = '[data-testid="setting-strata.autoCondensePercent"]';

/**
 * The settings panel in the webview: opened from the view's gear, a threshold refused out of
 * range (the range shown), written at Workspace scope (found in .vscode/settings.json on disk),
 * and an outside edit of that file shown in the open panel. Leaves the panel closed.
 */
export async function settingsPanelSteps(c: StepContext): Promise<void> {
  const { page, webview } = c;
  const panel = webview.locator('[data-testid="settings-panel"]');
  await c.check("the view's gear opens the settings panel with every group", async () => {
    const header = page.locator('.pane-header').filter({ hasText: /^Chat|Chat$/ }).first();
    await header.hover({ timeout: c.timeoutMs });
    await header.locator('.action-label[aria-label^="Open Settings"]').click({ timeout: c.timeoutMs });
    await panel.waitFor({ timeout: c.timeoutMs });
    for (const title of ['Model', 'Window and budget', 'Condensing', 'Layers', 'Tool output']) await panel.locator('summary', { hasText: new RegExp(`^${title}$`) }).waitFor({ timeout: c.timeoutMs });
    await c.waitForText(webview.locator(FIELD), /Auto Condense Percent[\s\S]*in percent[\s\S]*5 to 100 · default 80/);
  });
  await c.shot('settings-panel');

  const input = webview.locator(`${FIELD} input`);
  await c.check('an out-of-range threshold is refused in the panel with its range, and not written', async () => {
    await webview.locator('[data-testid="scope-workspace"]').click();
    await input.fill('150');
    await input.press('Enter');
    await c.waitForText(webview.locator(`${FIELD} [data-testid="setting-error"]`), /150 is out of range: must be from 5 to 100/);
    if (readWorkspaceSettings(c.server).includes('autoCondensePercent')) throw new Error('the refused value reached .vscode/settings.json');
    await centre(webview.locator(FIELD));
  });
  await c.shot('settings-refused');

  await c.check('a threshold changed in the panel (Workspace) lands in .vscode/settings.json and in the engine', async () => {
    await input.fill('65');
    await input.press('Enter');
    await c.waitFor(() => /"strata\.autoCondensePercent":\s*65/.test(readWorkspaceSettings(c.server)), '.vscode/settings.json to hold strata.autoCondensePercent: 65');
    await webview.locator(`${FIELD}[data-modified="true"]`).waitFor({ timeout: c.timeoutMs });
    if ((await webview.locator(`${FIELD} [data-testid="setting-error"]`).count()) > 0) throw new Error('the error stayed after a valid value');
    await c.waitForText(webview.locator(`${FIELD} [data-testid="setting-other-scope"]`), /User settings: 70/);
    await centre(webview.locator(FIELD));
  });
  await c.shot('settings-written');

  await c.check('settings.json edited outside updates the open panel', async () => {
    c.writeWorkspaceSettings(c.server, { 'strata.autoCondensePercent': 55 });
    await until(c, async () => (await input.inputValue()) === '55', 'the open panel to show 55 after settings.json said so');
    await webview.locator('[data-testid="settings-close"]').click();
    await c.waitForText(webview.locator('[data-testid="auto-condense"]'), /auto-condense at 55%/);
  });
}

/** `@hel` in the input opens the mention list (listbox, active option), Enter picks hello.ts. */
export async function mentionSteps(c: StepContext): Promise<void> {
  const { webview } = c;
  const textarea = webview.locator('[data-testid="chat-input"] textarea');
  await c.check('typing @hel lists hello.ts; Enter inserts @/hello.ts', async () => {
    await textarea.fill('');
    await textarea.pressSequentially('What is in @hel', { delay: 30 });
    const option = webview.locator('[data-testid="mention-option"][data-label="hello.ts"]');
    await option.waitFor({ timeout: c.timeoutMs });
    if ((await webview.locator('[role="listbox"]').count()) !== 1) throw new Error('no listbox');
    if ((await textarea.getAttribute('aria-expanded')) !== 'true') throw new Error('the input does not say the list is open');
    const active = await textarea.getAttribute('aria-activedescendant');
    if (!active || (await webview.locator(`#${active}`).getAttribute('aria-selected')) !== 'true') throw new Error(`aria-activedescendant ${active} is not the selected option`);
    // hello.ts is the best match: it is the active option.
    if ((await option.getAttribute('aria-selected')) !== 'true') throw new Error('hello.ts is not the active option');
    await c.shot('mention-list');
    await textarea.press('Enter');
    await until(c, async () => (await textarea.inputValue()) === 'What is in @/hello.ts ', 'the input to read "What is in @/hello.ts "');
    await webview.locator('[data-testid="mention-list"]').waitFor({ state: 'detached', timeout: c.timeoutMs });
    if ((await webview.locator('.msg.user').count()) !== 0) throw new Error('Enter on the list sent the message');
  });
  await c.shot('mention-picked');

  await c.check('@ alone offers @problems first; Down then Tab picks @git-changes; Escape closes the list', async () => {
    await textarea.pressSequentially('and @', { delay: 30 });
    const first = webview.locator('[data-testid="mention-option"]').first();
    await first.waitFor({ timeout: c.timeoutMs });
    if ((await first.getAttribute('data-label')) !== 'problems') throw new Error(`first option is ${await first.getAttribute('data-label')}`);
    await textarea.press('ArrowDown');
    const second = webview.locator('[data-testid="mention-option"]').nth(1);
    await until(c, async () => (await second.getAttribute('aria-selected')) === 'true' && (await textarea.getAttribute('aria-activedescendant')) === (await second.getAttribute('id')), 'Down to make the second option active');
    await textarea.press('Tab');
    await webview.locator('[data-testid="mention-list"]').waitFor({ state: 'detached', timeout: c.timeoutMs });
    if ((await textarea.inputValue()) !== 'What is in @/hello.ts and @git-changes ') throw new Error(`input is "${await textarea.inputValue()}"`);
    await textarea.pressSequentially('@he', { delay: 30 });
    await webview.locator('[data-testid="mention-list"]').waitFor({ timeout: c.timeoutMs });
    await textarea.press('Escape');
    await webview.locator('[data-testid="mention-list"]').waitFor({ state: 'detached', timeout: c.timeoutMs });
    if ((await textarea.inputValue()).endsWith('@he') === false) throw new Error('Escape changed the text');
  });
  await textarea.fill('');
}

/** "Show diff" on a pending edit opens VS Code's diff editor with the proposed text on the right. */
export async function showDiffStep(c: StepContext): Promise<void> {
  await c.check('Show diff opens the diff editor: hello.ts against the proposed text', async () => {
    await c.webview.locator('[data-testid="approval"][data-state="pending"] [data-testid="show-diff"]').click();
    await c.page.locator('.tabs-container .tab').filter({ hasText: /hello\.ts.*proposed by Strata/ }).first().waitFor({ timeout: c.timeoutMs });
    const diff = c.page.locator('.monaco-diff-editor');
    await diff.first().waitFor({ timeout: c.timeoutMs });
    await diff.locator('.editor.modified .view-lines').filter({ hasText: '"strata"' }).first().waitFor({ timeout: c.timeoutMs });
    await diff.locator('.editor.original .view-lines').filter({ hasText: '"world"' }).first().waitFor({ timeout: c.timeoutMs });
  });
  await c.shot('show-diff');
}

/** Polls an async condition (page state) until it holds or the step times out. */
async function until(c: StepContext, condition: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + c.timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await c.page.waitForTimeout(100);
  }
}

/** Scrolls a row to the middle of the panel, so the screenshot shows it with its messages. */
async function centre(locator: ReturnType<Frame['locator']>): Promise<void> {
  await locator.evaluate((el) => el.scrollIntoView({ block: 'center' }));
}

function readWorkspaceSettings(server: CodeServer): string {
  try {
    return readFileSync(join(server.workspace, '.vscode', 'settings.json'), 'utf8');
  } catch {
    return '';
  }
}
