import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Frame, type Page } from 'playwright-core';
import { parseSessionText } from '../../src/shared/sessionSchema';
import { MessagesApiServer } from '../support/messagesApiServer';
import { textAnswer, toolAnswer } from '../support/messagesApiEvents';
import { codeServerInstallFromEnv, startCodeServer, type CodeServer } from './codeServer';
import { archiveStartsCollapsedStep, continuitySteps, previewText, userScopeSettingStep } from './continuitySteps';
import { strataErrorsInExtensionHostLogs } from './extensionHostErrors';
import { followSteps } from './followSteps';
import { layerViewSteps } from './layerViewSteps';
import { markdownAnswerStep } from './markdownSteps';
import { newSessionBusySteps } from './newSessionBusySteps';
import { openSessionBusySteps } from './openSessionBusySteps';
import { clickQuickPickRow } from './quickPick';
import { mentionSteps, settingsPanelSteps, showDiffStep, type StepContext } from './webuiSteps';

/**
 * The Strata view in a real VS Code (code-server, the version runE2e.mjs names) in Debian's
 * Chromium: the built .vsix installed, the view opened, its webview driven, settings changed on
 * disk. Each step saves a screenshot under test/e2e/screenshots/<version>/. Exits non-zero at the
 * first failed check.
 */
const ROOT = process.cwd(); // runE2e.mjs runs the bundle from the project root
const INSTALL = codeServerInstallFromEnv();
const SHOTS = join(ROOT, 'test', 'e2e', 'screenshots', INSTALL.version);
/**
 * The store the universal .vsix (no native module) gets on each version's extension host: 1.139
 * runs Node 24, which has node:sqlite; 1.100 runs Node 20, which has none, so the plain-file
 * store stands in.
 */
const STORES: Record<string, 'node:sqlite' | 'plain-file'> = { '4.139.1': 'node:sqlite', '4.100.3': 'plain-file' };
const STORE = STORES[INSTALL.version];
if (!STORE) throw new Error(`the suite does not know which archive store code-server ${INSTALL.version} gets`);
const VSIX = join(ROOT, 'dist', 'strata.vsix');
const STEP_TIMEOUT_MS = 30_000;
const HELLO = 'export const hello = "world";\n';
/** Set through "Strata: Set API Key"; the local server only checks that every request carries it. */
const API_KEY = 'sk-ant-e2e-local-server-0001';
const FIRST_ANSWER = 'hello.ts exports one constant, hello, whose value is "world".';
/**
 * Said after FIRST_ANSWER: long enough that a one-line summary makes the whole prompt smaller,
 * else the engine discards the summary and Condense shows an error row, not the event.
 */
const FIRST_ANSWER_MORE = ` ${'It is a string constant, exported by name. '.repeat(150)}`;
/** A Claude Code transcript the Import Session step finds under $CLAUDE_CONFIG_DIR/projects. */
const CLAUDE_FIXTURE = join(ROOT, 'test', 'fixtures', 'import', 'claude-code');

interface RecordedBody {
  model: string;
  stream?: boolean;
  tools?: Array<{ name: string }>;
  messages: unknown[];
}

/**
 * Trust off: 1.139 shows a Restricted Mode banner until the folder is trusted. The secondary side
 * bar hidden: 1.139 opens its own Chat view there, which narrows the editor the steps click in.
 * Modal editors off: 1.139 opens the Settings editor as a modal over the window, which would take
 * the clicks of the steps after it. A version that does not know a key ignores it.
 */
const baseSettings = {
  'security.workspace.trust.enabled': false,
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'extensions.ignoreRecommendations': true,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'workbench.editor.useModal': 'off',
};

async function main(): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  const api = await MessagesApiServer.start({ models: [{ id: 'claude-sonnet-5-5', max_input_tokens: 200_000, max_tokens: 64_000 }] });
  const claudeConfig = mkdtempSync(join(tmpdir(), 'strata-e2e-claude-'));
  cpSync(CLAUDE_FIXTURE, join(claudeConfig, 'projects'), { recursive: true });
  console.log(`e2e: code-server ${INSTALL.version}`);
  const server = await startCodeServer({ install: INSTALL, vsix: VSIX, settings: baseSettings, files: { 'hello.ts': HELLO }, env: { CLAUDE_CONFIG_DIR: claudeConfig } });
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
    // The code block's Copy button writes through the clipboard API; the Markdown step reads it back.
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
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
    const webui: StepContext = { page, webview, server, check, shot, waitFor, waitForText, writeWorkspaceSettings, timeoutMs: STEP_TIMEOUT_MS };

    await check('without a key the view shows the Set API Key call to action', async () => {
      await webview.locator('[data-testid="no-api-key"]').waitFor({ timeout: STEP_TIMEOUT_MS });
      await expectText(webview.locator('[data-testid="no-api-key"]'), /Strata: Set API Key/);
    });
    await check(`the archive opened, without a storage error${STORE === 'plain-file' ? ' (Node 20: the plain-file store, and the view says so)' : ''}`, async () => {
      await webview.locator('[data-testid="thresholds"]').waitFor({ timeout: STEP_TIMEOUT_MS });
      if ((await webview.locator('[data-testid="storage-error"]').count()) > 0) {
        throw new Error(`storage error shown: ${await webview.locator('[data-testid="storage-error"]').innerText()}`);
      }
      if (STORE === 'plain-file') await waitForText(webview.locator('[data-testid="storage-fallback"]'), /plain-file archive/);
    });
    await archiveStartsCollapsedStep(webui);
    await check('the archive tree is empty before any exchange and says how it fills', async () => {
      await page!.getByText('No archived session yet. Chat in the Strata view').first().waitFor({ timeout: STEP_TIMEOUT_MS });
    });
    await shot('no-api-key');

    await check('Import Session lists the Claude Code session and imports it, saying how many exchanges', async () => {
      await runCommand(page!, 'Strata: Import Session');
      await clickQuickPickRow(page!, page!.locator('.quick-input-list .monaco-list-row:visible').filter({ hasText: 'Claude Code sessions' }).first(), STEP_TIMEOUT_MS);
      const row = page!.locator('.quick-input-list .monaco-list-row:visible').filter({ hasText: 'Fix the failing test in src/math.test.ts' }).first();
      await row.waitFor({ timeout: STEP_TIMEOUT_MS });
      await expectText(row, /\/home\/dev\/calc/);
      await shot('import-picker');
      await clickQuickPickRow(page!, row, STEP_TIMEOUT_MS);
      await page!.locator('.notifications-toasts').getByText(/imported 3 exchanges from "Fix the failing test in src\/math\.test\.ts" as session s-/).first().waitFor({ timeout: STEP_TIMEOUT_MS });
    });
    await shot('imported');

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
      // The search box is a Monaco editor: typed into, since 1.139's (EditContext) has no textarea to fill.
      const search = page!.locator('.settings-editor .suggest-input-container, .settings-editor .search-container').first();
      await search.waitFor({ timeout: STEP_TIMEOUT_MS });
      await search.click();
      await page!.keyboard.press('ControlOrMeta+A');
      await page!.keyboard.type('strata.autoCondensePercent');
      // Wait for the filtered list: before it renders, the first number input is another setting.
      const input = page!.locator('.settings-editor .setting-item-contents').filter({ hasText: 'Auto Condense Percent' }).locator('input').first();
      await input.waitFor({ timeout: STEP_TIMEOUT_MS });
      await input.fill('70');
      await input.press('Tab');
      await waitForText(webview.locator('[data-testid="auto-condense"]'), /auto-condense at 70%/);
      await waitFor(() => /"strata\.autoCondensePercent":\s*70/.test(readFileSync(server.userSettingsFile, 'utf8')), 'settings.json to hold strata.autoCondensePercent: 70');
    });
    await shot('threshold-70');

    await settingsPanelSteps(webui);
    await mentionSteps(webui);

    await check('an out-of-range threshold written to the workspace settings.json is clamped, with a warning', async () => {
      writeWorkspaceSettings(server, { 'strata.autoCondensePercent': 150 });
      await waitForText(webview.locator('[data-testid="auto-condense"]'), /auto-condense at 100%/);
      await page!.locator('.notifications-toasts').getByText(/strata.autoCondensePercent = 150 is outside 5..100; using 100/).first().waitFor({ timeout: STEP_TIMEOUT_MS });
    });
    await shot('threshold-clamped');

    await check('Condense Now before any message says there is nothing to condense', async () => {
      await runCommand(page!, 'Strata: Condense Now');
      await page!.locator('.notifications-toasts').getByText(/nothing to condense yet/).first().waitFor({ timeout: STEP_TIMEOUT_MS });
    });
    await shot('condense-nothing-yet');

    await check('the base URL set in the workspace settings and a key set through Set API Key reach the extension', async () => {
      writeWorkspaceSettings(server, { 'strata.baseUrl': api.url });
      await waitForText(webview.locator('[data-testid="auto-condense"]'), /auto-condense at 70%/); // the 150 is gone: the file was read
      await runCommand(page!, 'Strata: Set API Key');
      const input = page!.locator('.quick-input-widget input[type="password"]');
      await input.waitFor({ timeout: STEP_TIMEOUT_MS });
      await input.fill(API_KEY);
      await page!.keyboard.press('Enter');
      await webview.locator('[data-testid="no-api-key"]').waitFor({ state: 'detached', timeout: STEP_TIMEOUT_MS });
    });
    await shot('key-set');

    await check('a streamed answer from the local Messages API appears in the chat', async () => {
      api.enqueue(textAnswer(FIRST_ANSWER + FIRST_ANSWER_MORE, { input_tokens: 1200, cache_creation_input_tokens: 3000, output_tokens: 12 }));
      await send(webview, 'What does hello.ts export?');
      await waitForText(webview.locator('.msg.assistant').last(), new RegExp(escape(FIRST_ANSWER)));
      await webview.locator('[data-testid="send"]').waitFor({ timeout: STEP_TIMEOUT_MS });
      await waitForText(webview.locator('.meter-label'), /tokens \(/); // the meter shows the turn's usage
    });
    await shot('streamed-answer');

    await check('an edit_file call is shown, asks for approval, and Approve changes the file on disk', async () => {
      api.enqueue(toolAnswer('edit_file', { path: 'hello.ts', edits: [{ search: '"world"', replace: '"strata"' }] }, 'I will change the greeting.'), textAnswer('Done: hello is now "strata".'));
      await send(webview, 'Make hello.ts say strata');
      await webview.locator('[data-testid="approval"][data-state="pending"]').waitFor({ timeout: STEP_TIMEOUT_MS });
      await expectText(webview.locator('[data-testid="approval"]'), /edit hello\.ts \(1 block\)/);
      await webview.locator('[data-testid="tool-row"][data-tool="edit_file"]').waitFor({ timeout: STEP_TIMEOUT_MS });
      if (readFileSync(join(server.workspace, 'hello.ts'), 'utf8') !== HELLO) throw new Error('hello.ts changed before the edit was approved');
      await shot('approval-asked');
      await showDiffStep(webui);
      await webview.locator('[data-testid="approve"]').click();
      await waitFor(() => readFileSync(join(server.workspace, 'hello.ts'), 'utf8') === 'export const hello = "strata";\n', 'hello.ts to say "strata" on disk');
      await webview.locator('[data-testid="tool-row"][data-done="ok"]').waitFor({ timeout: STEP_TIMEOUT_MS });
      await waitForText(webview.locator('.msg.assistant').last(), /Done: hello is now "strata"\./);
      await webview.locator('[data-testid="send"]').waitFor({ timeout: STEP_TIMEOUT_MS });
    });
    await shot('edit-approved');

    await check('clicking Condense sends a condensing request and shows its row in the chat', async () => {
      api.enqueue(textAnswer('Summary: the user asked what hello.ts exports.'));
      const before = api.messageRequests.length;
      await webview.locator('[data-testid="condense"]').click();
      const row = webview.locator('[data-testid="engine-event"][data-event="condense_context"]');
      await row.first().waitFor({ timeout: STEP_TIMEOUT_MS });
      console.log(`e2e:      condense row: ${await row.first().innerText()}`);
      if (api.messageRequests.length !== before + 1) throw new Error(`expected one condensing request, the server got ${api.messageRequests.length - before}`);
    });
    await shot('condensed');

    await check('the requests the server recorded: the key, the tools, cache marks, the user text, the tool result', async () => {
      const bodies = api.messageRequests.map((r) => r.body as RecordedBody);
      if (bodies.length !== 4) throw new Error(`expected 4 Messages API requests (answer, tool call, answer, condense), got ${bodies.length}`);
      // The SDK sends the key as a bearer token.
      for (const r of api.messageRequests) if (r.headers.authorization !== `Bearer ${API_KEY}`) throw new Error('a request did not carry the key set through Set API Key');
      for (const body of bodies.slice(0, 3)) {
        const tools = (body.tools ?? []).map((t) => t.name);
        for (const name of ['read_file', 'edit_file', 'execute_command', 'recall', 'lsp_hover', 'lsp_definition']) if (!tools.includes(name)) throw new Error(`tool ${name} missing from a request: ${tools.join(', ')}`);
        const marks = JSON.stringify(body).split('"cache_control"').length - 1;
        if (marks < 1 || marks > 4) throw new Error(`expected 1..4 cache_control marks, found ${marks}`);
        if (body.stream !== true || body.model !== 'claude-sonnet-5-5') throw new Error(`unexpected model/stream: ${body.model} ${String(body.stream)}`);
      }
      const firstUser = JSON.stringify(bodies[0]!.messages.at(-1));
      if (!firstUser.includes('What does hello.ts export?')) throw new Error(`the first request lacks the user text: ${firstUser.slice(0, 300)}`);
      if (!/tool_result/.test(JSON.stringify(bodies[2]!.messages.at(-1)))) throw new Error('the third request does not carry the tool result');
      if ((bodies[3]!.tools ?? []).length !== 0 || !JSON.stringify(bodies[3]!.messages).includes('What does hello.ts export?')) throw new Error('the condensing request is not a summary of the first exchange');
    });

    await check('Edit on a user message resends it edited: a new request without what followed, the old rows greyed out', async () => {
      api.enqueue(textAnswer('Nothing to change: hello stays.'));
      const before = api.messageRequests.length;
      await webview.locator('[data-testid="edit-message"]').nth(1).click();
      await webview.locator('[data-testid="edit-input"] textarea').fill('Only tell me what hello.ts says');
      await webview.locator('[data-testid="edit-resend"]').click();
      await waitForText(webview.locator('.msg.assistant').last(), /Nothing to change: hello stays\./);
      await webview.locator('[data-testid="send"]').waitFor({ timeout: STEP_TIMEOUT_MS });
      await expectText(webview.locator('[data-testid="superseded"]').first(), /Make hello\.ts say strata/);
      const body = JSON.stringify((api.messageRequests[before]!.body as RecordedBody).messages);
      if (!body.includes('Only tell me what hello.ts says') || !body.includes('What does hello.ts export?')) throw new Error(`the resent request lacks the edited or the first message: ${body.slice(0, 300)}`);
      if (/Make hello\.ts say strata|Done: hello is now/.test(body)) throw new Error('the resent request still carries the superseded exchanges');
    });
    await shot('edited-resent');

    await check('Last request opens the request as sent in a read-only JSON editor', async () => {
      await webview.locator('[data-testid="last-request"]').click();
      await page!.locator('.tabs-container .tab').filter({ hasText: 'last-request.json' }).first().waitFor({ timeout: STEP_TIMEOUT_MS });
      await page!.locator('.editor-instance .view-lines').filter({ hasText: '"max_tokens"' }).first().waitFor({ timeout: STEP_TIMEOUT_MS });
    });
    await shot('last-request');

    await check("lsp_hover is answered by VS Code's own TypeScript features (no server of Strata's)", async () => {
      api.enqueue(toolAnswer('lsp_hover', { path: 'hello.ts', line: 1, symbol: 'hello' }, 'Let me look at its type.'), textAnswer('It is a string constant.'));
      const before = api.messageRequests.length;
      await send(webview, 'What is the type of hello?');
      await waitForText(webview.locator('.msg.assistant').last(), /It is a string constant\./);
      await webview.locator('[data-testid="send"]').waitFor({ timeout: STEP_TIMEOUT_MS });
      const result = JSON.stringify((api.messageRequests[before + 1]!.body as RecordedBody).messages.at(-1));
      console.log(`e2e:      hover result: ${result.slice(0, 200)}`);
      if (!/const hello/.test(result)) throw new Error(`the hover result does not show the declaration: ${result.slice(0, 400)}`);
    });
    await shot('lsp-hover');

    await archiveTreeSteps(page, shot);
    await archiveSearchSteps(page, shot);
    await openSessionSteps(page, webview, shot);
    await exportAndDeleteSteps(page, webview, server, shot);
    // Last: its exchange would change the request and exchange counts the steps above check.
    await markdownAnswerStep(webui, api);
    // After it: this step leaves a stopped turn in the Markdown step's session and the chat on the imported one.
    await openSessionBusySteps(webui, api, (title) => runCommand(page!, title));
    await newSessionBusySteps(webui, api);
    // In the empty session New session left: a long answer, Jump to latest, an approval in view.
    await followSteps(webui, api);
    await layerViewSteps(webui);
    // The continuity steps reload the page: the chat's frame after them is a new one.
    const chatFrame = await continuitySteps(webui, api);
    await userScopeSettingStep(webui, chatFrame, api.url);

    // On 1.139 (Node 24) the archive is SQLite through node:sqlite, and the Archive view's title names it.
    if (STORE === 'node:sqlite') {
      await check("on Node 24 the archive is SQLite through node:sqlite, and the Archive view's title line says so", async () => {
        const fallback = chatFrame.locator('[data-testid="storage-fallback"], [data-testid="storage-error"]');
        if ((await fallback.count()) > 0) throw new Error(`not on SQLite: ${await fallback.first().innerText()}`);
        await waitForText(page!.locator('.pane-header').filter({ hasText: /Archive/ }).first(), /node:sqlite/i);
      });
    }
    if (consoleErrors.length > 0) throw new Error(`webview console errors:\n${consoleErrors.join('\n')}`);
    await check("the extension host's log holds no error raised in Strata's code", async () => {
      const errors = strataErrorsInExtensionHostLogs(server.logsDir);
      if (errors.length > 0) throw new Error(`errors through Strata's bundle in the extension host logs:\n${errors.join('\n')}`);
    });
    console.log(`e2e: all checks passed; screenshots in ${SHOTS}`);
  } catch (error) {
    if (page) await page.screenshot({ path: join(SHOTS, 'failure.png') }).catch(() => undefined);
    console.error(`e2e: code-server log: ${server.logFile}`);
    throw error;
  } finally {
    await browser.close();
    await server.stop();
    await api.close();
    rmSync(claudeConfig, { recursive: true, force: true });
  }
}

/**
 * The archive tree after the chat steps: the session is listed under its first question, its
 * exchanges under it (headers), and a click opens an exchange as a read-only Markdown document
 * that holds the exchange's text.
 */
async function archiveTreeSteps(page: Page, shot: (name: string) => Promise<void>): Promise<void> {
  const pane = page.locator('.pane').filter({ has: page.locator('.pane-header', { hasText: /^\s*Archive/ }) }).first();
  const session = pane.locator('.monaco-list-row').filter({ hasText: 'What does hello.ts export?' }).first();
  await check('the archive tree lists the chat session under its first question', async () => {
    const header = pane.locator('.pane-header').first();
    await header.waitFor({ timeout: STEP_TIMEOUT_MS });
    if ((await header.getAttribute('aria-expanded')) === 'false') await header.click();
    await session.waitFor({ timeout: STEP_TIMEOUT_MS });
    // e2 and e3 superseded by the edited, resent e4; e5-e6 the lsp_hover round. Polled: archived
    // exchanges refresh the tree once per burst, a moment after the last one.
    await waitForText(session, /6 exchanges/);
    // The session imported before the chat is listed too (the tree refreshed after the import).
    await pane.locator('.monaco-list-row').filter({ hasText: 'Fix the failing test in src/math.test.ts' }).first().waitFor({ timeout: STEP_TIMEOUT_MS });
  });
  await shot('archive-session');

  const exchanges = pane.locator('.monaco-list-row').filter({ hasText: /^\s*e\d+ / });
  await check("expanding the session shows its exchanges by header, oldest first", async () => {
    await session.click();
    await exchanges.nth(2).waitFor({ timeout: STEP_TIMEOUT_MS });
    const labels = await exchanges.locator('.label-name').allInnerTexts();
    if (!/^e1 /.test(labels[0] ?? '') || !/^e3 /.test(labels[2] ?? '')) throw new Error(`unexpected exchange rows: ${labels.join(' | ')}`);
    console.log(`e2e:      exchanges: ${labels.join(' | ')}`);
  });
  await shot('archive-exchanges');

  await check('clicking an exchange opens it rendered (Markdown preview), with the answer text and without the environment block', async () => {
    await exchanges.first().click();
    await page.locator('.tabs-container .tab').filter({ hasText: 'Preview e1.md' }).first().waitFor({ timeout: STEP_TIMEOUT_MS });
    const text = await previewText(page, new RegExp(`Assistant[\\s\\S]*${escape(FIRST_ANSWER)}`), STEP_TIMEOUT_MS);
    if (!/What does hello\.ts export\?/.test(text) || /<environment>|Added by Strata/.test(text)) throw new Error(`the rendered exchange: ${text.slice(0, 400)}`);
  });
  await shot('archive-exchange-open');
}

/** Search Archive from the palette: a word of the edit finds its exchanges; Enter opens one. */
async function archiveSearchSteps(page: Page, shot: (name: string) => Promise<void>): Promise<void> {
  await check('Search Archive finds an exchange by a word of the session and opens it', async () => {
    await runCommand(page, 'Strata: Search Archive');
    const input = page.locator('.quick-input-widget input');
    await input.waitFor({ timeout: STEP_TIMEOUT_MS });
    await input.fill('strata');
    const hit = page.locator('.quick-input-list .monaco-list-row:visible').filter({ hasText: /e\d+ / }).first();
    await hit.waitFor({ timeout: STEP_TIMEOUT_MS });
    console.log(`e2e:      first hit: ${(await hit.innerText()).replace(/\s+/g, ' ')}`);
    if (/environment|Time:/.test(await hit.innerText())) throw new Error('a search snippet shows the environment block');
    await shot('archive-search');
    await page.keyboard.press('Enter');
    const tab = page.locator('.tabs-container .tab.active').filter({ hasText: /^Preview e[23]\.md/ });
    await tab.first().waitFor({ timeout: STEP_TIMEOUT_MS });
    await previewText(page, /strata/, STEP_TIMEOUT_MS);
  });
  await shot('archive-search-opened');
}

/** Open Session...: after New session, the archived session comes back into the chat with its history. */
async function openSessionSteps(page: Page, webview: Frame, shot: (name: string) => Promise<void>): Promise<void> {
  await check('Open Session... resumes the archived session in the chat with its past messages', async () => {
    await webview.locator('[data-testid="new-session"]').click();
    await webview.locator('.messages.empty').waitFor({ timeout: STEP_TIMEOUT_MS });
    await runCommand(page, 'Strata: Open Session...');
    const row = page.locator('.quick-input-list .monaco-list-row:visible').filter({ hasText: 'What does hello.ts export?' }).first();
    await row.waitFor({ timeout: STEP_TIMEOUT_MS });
    await expectText(row, /6 exchanges/);
    await shot('open-session-picker');
    await clickQuickPickRow(page, row, STEP_TIMEOUT_MS);
    const past = webview.locator('[data-testid="history-entry"]');
    await past.nth(5).waitFor({ timeout: STEP_TIMEOUT_MS });
    const texts = await past.allInnerTexts();
    // The exchanges the edit superseded are left out, as in the chat before the reload.
    const expected = ['What does hello.ts export?', (FIRST_ANSWER + FIRST_ANSWER_MORE).trim(), 'Only tell me what hello.ts says', 'Nothing to change: hello stays.', 'What is the type of hello?', 'It is a string constant.'];
    if (JSON.stringify(texts) !== JSON.stringify(expected)) throw new Error(`history rows: ${JSON.stringify(texts)}`);
  });
  await shot('open-session-resumed');
}

/**
 * The session's context menu: Export as JSON Lines (a file the session parser reads back with the
 * chat's messages), Delete refused while the chat uses the session, then Delete after New session.
 */
async function exportAndDeleteSteps(page: Page, webview: Frame, server: CodeServer, shot: (name: string) => Promise<void>): Promise<void> {
  const pane = page.locator('.pane').filter({ has: page.locator('.pane-header', { hasText: /^\s*Archive/ }) }).first();
  const session = pane.locator('.monaco-list-row').filter({ hasText: 'What does hello.ts export?' }).first();
  const menu = async (item: string) => {
    await session.click({ button: 'right' });
    const entry = page.locator('.context-view .action-item').filter({ hasText: item }).first();
    await entry.waitFor({ timeout: STEP_TIMEOUT_MS });
    // A menu opened a moment ago can drop a click (seen under load): pause, and press Enter on it if it stays open.
    await page.waitForTimeout(300);
    await entry.click({ timeout: STEP_TIMEOUT_MS });
    // The menu can take a moment to close after a click that worked: only a menu still open after
    // that gets the Enter (a hover on a menu that closed meanwhile would wait for it in vain).
    const closed = await entry.waitFor({ state: 'hidden', timeout: 2_000 }).then(() => true, () => false);
    if (!closed) {
      await entry.hover({ timeout: 2_000 }).catch(() => undefined);
      if (await entry.isVisible().catch(() => false)) await page.keyboard.press('Enter');
    }
  };
  await check('Export Archived Session... as JSON Lines writes a session file that parses back to the chat (superseded exchanges left out)', async () => {
    await menu('Export Archived Session...');
    await clickQuickPickRow(page, page.locator('.quick-input-list .monaco-list-row:visible').filter({ hasText: 'JSON Lines' }).first(), STEP_TIMEOUT_MS);
    const path = page.locator('.quick-input-widget input');
    // The save dialog is a quick input prefilled with <workspace>/<session id>.jsonl.
    for (const deadline = Date.now() + STEP_TIMEOUT_MS; !/\.jsonl$/.test(await path.inputValue().catch(() => '')); ) {
      if (Date.now() > deadline) throw new Error(`the save dialog shows "${await path.inputValue().catch(() => '')}", not a .jsonl path`);
      await page.waitForTimeout(200);
    }
    console.log(`e2e:      save to: ${await path.inputValue()}`);
    await shot('export-save-dialog');
    await page.keyboard.press('Enter');
    const exported = () => readdirSync(server.workspace).find((f) => f.endsWith('.jsonl'));
    await waitFor(() => exported() !== undefined, 'the exported .jsonl in the workspace');
    await waitFor(() => readFileSync(join(server.workspace, exported()!), 'utf8').endsWith('\n'), 'the export to be written');
    const parsed = parseSessionText(readFileSync(join(server.workspace, exported()!), 'utf8'), exported()!);
    const roles = parsed.messages.map((m) => m.role).join(',');
    // e1, the resent e4 and the lsp_hover round e5-e6: the superseded e2 and e3 are not part of the conversation that went on.
    if (roles !== 'user,assistant,user,assistant,user,assistant,user,assistant') throw new Error(`exported roles: ${roles}; problems: ${parsed.problems.join('; ')}`);
    if (!JSON.stringify(parsed.messages[0]).includes('What does hello.ts export?') || !JSON.stringify(parsed.messages[3]).includes('Nothing to change: hello stays.') || !JSON.stringify(parsed.messages[7]).includes('It is a string constant.')) throw new Error('the export lacks the chat text');
  });

  await check('Delete Archived Session refuses the session the chat is using', async () => {
    await menu('Delete Archived Session');
    await page.locator('.notifications-toasts').getByText(/is the session the chat is using now, so it cannot be deleted/).first().waitFor({ timeout: STEP_TIMEOUT_MS });
  });
  await shot('delete-refused');

  await check('after New session, Delete asks first, then the session and its exchanges leave the tree (the imported one stays)', async () => {
    await webview.locator('[data-testid="new-session"]').click();
    await webview.locator('.messages.empty').waitFor({ timeout: STEP_TIMEOUT_MS });
    await menu('Delete Archived Session');
    const dialog = page.locator('.monaco-dialog-box');
    await dialog.waitFor({ timeout: STEP_TIMEOUT_MS });
    await expectText(dialog, /Delete "What does hello\.ts export\?" from the archive\?/);
    await shot('delete-confirm');
    await dialog.locator('.monaco-button').filter({ hasText: /^Delete$/ }).first().click();
    await session.waitFor({ state: 'detached', timeout: STEP_TIMEOUT_MS });
    // The imported session is still listed.
    await pane.locator('.monaco-list-row').filter({ hasText: 'Fix the failing test in src/math.test.ts' }).first().waitFor({ timeout: STEP_TIMEOUT_MS });
  });
  await shot('deleted');
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
    // Monaco renders spaces as U+00A0: compare plain spaces.
    last = (await locator.first().innerText().catch(() => '')).replace(/\u00a0/g, ' ');
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

/**
 * Replaces the workspace's .vscode/settings.json with `settings`. Not the user settings.json:
 * code-server 4.100 does not notice outside edits to that file (a theme written there was
 * still not applied after 12 s), while the workspace folder is watched (applied in ~4 s).
 * Not typed through Monaco either: typing a whole file raced with the editor under load.
 * The caller waits for the effect in the editor, with its own timeout.
 */
function writeWorkspaceSettings(server: CodeServer, settings: Record<string, unknown>): void {
  mkdirSync(join(server.workspace, '.vscode'), { recursive: true });
  writeFileSync(join(server.workspace, '.vscode', 'settings.json'), JSON.stringify(settings, null, 2));
}

async function send(webview: Frame, text: string): Promise<void> {
  await webview.locator('[data-testid="chat-input"] textarea').fill(text);
  await webview.locator('[data-testid="send"]').click();
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Runs a palette command. Under load the palette can close again at once (focus moves when a
 * settings file is re-read or a notification appears), so a palette that does not take the
 * text is closed and opened again, up to three times.
 */
async function runCommand(page: Page, title: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await page.locator('.monaco-workbench').click({ position: { x: 700, y: 400 } });
      await page.keyboard.press('F1');
      const input = page.locator('.quick-input-widget input');
      await input.waitFor({ timeout: 10_000 });
      await input.fill(`>${title}`, { timeout: 10_000 });
      await page.locator('.quick-input-list .monaco-list-row:visible').filter({ hasText: title }).first().waitFor({ timeout: 10_000 });
      await page.keyboard.press('Enter');
      return;
    } catch (error) {
      if (attempt >= 3) throw error;
      console.log(`e2e:      the palette did not take "${title}" (try ${attempt}); opening it again`);
      await page.keyboard.press('Escape');
    }
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? error.stack ?? error.message : String(error));
    process.exit(1);
  },
);

export type { CodeServer };
