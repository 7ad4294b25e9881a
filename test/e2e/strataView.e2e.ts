import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Frame, type Page } from 'playwright-core';
import { startCodeServer, type CodeServer } from './codeServer';

/**
 * The Strata view in a real VS Code (code-server 4.100.3) in Debian's Chromium: the built
 * .vsix installed, the view opened, its webview driven, settings changed on disk. Each step
 * saves a screenshot under test/e2e/screenshots/. Exits non-zero at the first failed check.
 */
const ROOT = process.cwd(); // runE2e.mjs runs the bundle from the project root
const SHOTS = join(ROOT, 'test', 'e2e', 'screenshots');
const VSIX = join(ROOT, 'dist', 'strata.vsix');
const STEP_TIMEOUT_MS = 30_000;

const baseSettings = { 'security.workspace.trust.enabled': false, 'workbench.startupEditor': 'none', 'workbench.tips.enabled': false, 'extensions.ignoreRecommendations': true,
  // Typed JSON must land as typed (the suite types a whole settings.json into the editor).
  'editor.autoClosingBrackets': 'never',
  'editor.autoClosingQuotes': 'never',
  'editor.formatOnType': false,
};

async function main(): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  const server = await startCodeServer({ vsix: VSIX, settings: baseSettings, files: { 'hello.ts': 'export const hello = "world";\n' } });
  const browser = await chromium.launch({
    executablePath: process.env.STRATA_CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  let step = 0;
  let page: Page | undefined;
  const shot = async (name: string) => {
    step += 1;
    await page!.screenshot({ path: join(SHOTS, `${String(step).padStart(2, '0')}-${name}.png`) });
  };
  try {
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const consoleErrors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error' && /Content Security Policy|Strata webview/i.test(m.text())) consoleErrors.push(m.text());
    });
    await page.goto(`${server.url}/?folder=${encodeURIComponent(server.workspace)}`);
    await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    await check('the Strata view opens from the activity bar', async () => {
      await page!.locator('.activitybar [aria-label^="Strata"]').first().click({ timeout: STEP_TIMEOUT_MS });
    });
    const webview = await check('the chat webview renders its input', () => findWebviewFrame(page!));
    await webview.locator('[data-testid="chat-input"]').waitFor({ timeout: STEP_TIMEOUT_MS });
    await shot('view-opened');

    await check('without a key the view shows the Set API Key call to action', async () => {
      await webview.locator('[data-testid="no-api-key"]').waitFor({ timeout: STEP_TIMEOUT_MS });
      await expectText(webview.locator('[data-testid="no-api-key"]'), /Strata: Set API Key/);
    });
    await check('the archive opened in the editor (native SQLite loaded)', async () => {
      await webview.locator('[data-testid="thresholds"]').waitFor({ timeout: STEP_TIMEOUT_MS });
      if ((await webview.locator('[data-testid="storage-error"]').count()) > 0) {
        throw new Error(`storage error shown: ${await webview.locator('[data-testid="storage-error"]').innerText()}`);
      }
    });
    await check('the archive tree says it is not available yet', async () => {
      await page!.getByText('The archive browser (sessions, exchanges, search, export) is not available yet in this build.').waitFor({ timeout: STEP_TIMEOUT_MS });
    });
    await shot('no-api-key');

    await check('sending without a key answers with the no-key error, not a made-up answer', async () => {
      await webview.locator('[data-testid="chat-input"] textarea').fill('What does hello.ts export?');
      await webview.locator('[data-testid="send"]').click();
      await webview.locator('[data-code="no_api_key"]').waitFor({ timeout: STEP_TIMEOUT_MS });
      await expectText(webview.locator('.msg.user'), /What does hello\.ts export\?/);
      await webview.locator('[data-testid="send"]').waitFor({ timeout: STEP_TIMEOUT_MS }); // idle again: Send, not Stop
    });
    await shot('sent-without-key');

    await check('New session clears the chat flow', async () => {
      await webview.locator('[data-testid="new-session"]').click();
      await webview.locator('.messages.empty').waitFor({ timeout: STEP_TIMEOUT_MS });
      if ((await webview.locator('.msg').count()) !== 0) throw new Error('messages remain after New session');
    });
    await shot('new-session');

    await check('a threshold changed in the Settings editor reaches the webview and settings.json', async () => {
      await expectText(webview.locator('[data-testid="auto-condense"]'), /auto-condense at 80%/);
      await runCommand(page!, 'Preferences: Open Settings (UI)');
      const search = page!.locator('.settings-editor .suggest-input-container textarea, .settings-editor .search-container textarea').first();
      await search.waitFor({ timeout: STEP_TIMEOUT_MS });
      await search.fill('strata.autoCondensePercent');
      // Wait for the filtered list: before it renders, the first number input is another setting.
      const input = page!.locator('.settings-editor .setting-item-contents').filter({ hasText: 'Auto Condense Percent' }).locator('input').first();
      await input.waitFor({ timeout: STEP_TIMEOUT_MS });
      await input.fill('70');
      await input.press('Tab');
      await waitForText(webview.locator('[data-testid="auto-condense"]'), /auto-condense at 70%/);
      await waitFor(() => /"strata\.autoCondensePercent":\s*70/.test(readFileSync(server.userSettingsFile, 'utf8')), 'settings.json to hold strata.autoCondensePercent: 70');
    });
    await shot('threshold-70');

    await check('an out-of-range threshold typed into settings.json is clamped, with a warning', async () => {
      await runCommand(page!, 'Preferences: Open User Settings (JSON)');
      const editor = page!.locator('.editor-instance .monaco-editor textarea').first();
      await editor.waitFor({ timeout: STEP_TIMEOUT_MS });
      await editor.focus();
      await page!.keyboard.press('Control+A');
      await page!.keyboard.insertText(JSON.stringify({ ...baseSettings, 'strata.autoCondensePercent': 150 }));
      await page!.keyboard.press('Control+S');
      await waitForText(webview.locator('[data-testid="auto-condense"]'), /auto-condense at 100%/);
      await page!.locator('.notifications-toasts').getByText(/strata.autoCondensePercent = 150 is outside 5..100; using 100/).first().waitFor({ timeout: STEP_TIMEOUT_MS });
    });
    await shot('threshold-clamped');

    await check('Condense Now from the palette says it is not available yet', async () => {
      await runCommand(page!, 'Strata: Condense Now');
      await page!.locator('.notifications-toasts').getByText(/Condense Now .* is not available yet in this build/).first().waitFor({ timeout: STEP_TIMEOUT_MS });
    });
    await shot('condense-not-yet');

    if (consoleErrors.length > 0) throw new Error(`webview console errors:\n${consoleErrors.join('\n')}`);
    console.log(`e2e: all checks passed; screenshots in ${SHOTS}`);
  } catch (error) {
    if (page) await page.screenshot({ path: join(SHOTS, 'failure.png') }).catch(() => undefined);
    console.error(`e2e: code-server log: ${server.logFile}`);
    throw error;
  } finally {
    await browser.close();
    await server.stop();
  }
}

async function check<T>(name: string, body: () => Promise<T>): Promise<T> {
  try {
    const result = await body();
    console.log(`e2e: ok   ${name}`);
    return result;
  } catch (error) {
    console.error(`e2e: FAIL ${name}`);
    throw error;
  }
}

/** Webviews are nested iframes; the app lives in the inner one (fake.html). */
async function findWebviewFrame(page: Page): Promise<Frame> {
  const deadline = Date.now() + STEP_TIMEOUT_MS;
  while (Date.now() < deadline) {
    for (const frame of page.frames()) {
      if ((await frame.locator('[data-testid="chat-input"]').count().catch(() => 0)) > 0) return frame;
    }
    await page.waitForTimeout(250);
  }
  throw new Error(`no frame with the chat input among ${page.frames().length} frames`);
}

async function expectText(locator: ReturnType<Frame['locator']>, pattern: RegExp): Promise<void> {
  const text = await locator.first().innerText({ timeout: STEP_TIMEOUT_MS });
  if (!pattern.test(text)) throw new Error(`expected ${pattern}, found "${text}"`);
}

async function waitForText(locator: ReturnType<Frame['locator']>, pattern: RegExp): Promise<void> {
  const deadline = Date.now() + STEP_TIMEOUT_MS;
  let last = '';
  while (Date.now() < deadline) {
    last = await locator.first().innerText().catch(() => '');
    if (pattern.test(last)) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`expected ${pattern} within ${STEP_TIMEOUT_MS / 1000} s, last seen "${last}"`);
}

async function waitFor(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + STEP_TIMEOUT_MS;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function runCommand(page: Page, title: string): Promise<void> {
  await page.locator('.monaco-workbench').click({ position: { x: 700, y: 400 } });
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ timeout: STEP_TIMEOUT_MS });
  await input.fill(`>${title}`);
  await page.locator('.quick-input-list .monaco-list-row').filter({ hasText: title }).first().waitFor({ timeout: STEP_TIMEOUT_MS });
  await page.keyboard.press('Enter');
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? error.stack ?? error.message : String(error));
    process.exit(1);
  },
);

export type { CodeServer };
