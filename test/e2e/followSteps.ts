import type { MessagesApiServer } from '../support/messagesApiServer';
import { faults } from '../support/messagesApiServer';
import { textAnswer, toolAnswer } from '../support/messagesApiEvents';
import type { StepContext } from './webuiSteps';

/** A long answer: many paragraphs, taller than the chat area, the last one a marker. */
const PARAGRAPHS = Array.from({ length: 40 }, (_, i) => `Paragraph ${i + 1}: the view should follow this answer while it streams.`);
const LAST_LINE = 'The end of the long answer is in view.';
const LONG_ANSWER = `${PARAGRAPHS.join('\n\n')}\n\n${LAST_LINE}`;
/** message_start, content_block_start and ping come before the first text delta. */
const EVENTS_BEFORE_TEXT = 3;
/** The local server's text chunk, characters (MessagesApiServer's default `chunkSize`). */
const CHUNK = 7;
/** Where the long answer pauses: after paragraph 30, long enough for the checks made during it. */
const STALL_AT = LONG_ANSWER.indexOf('Paragraph 31');
const STALL_MS = 8_000;
const COMMAND = 'echo strata-follow';

/** Geometry the steps assert on, read in the webview's own document. */
interface Seen {
  fromBottom: number;
  scrollTop: number;
  scrollHeight: number;
  clientHeight: number;
  /** The element's box within the scroll container's visible box (1 px slack). */
  inView: boolean;
  activeTestId: string | null;
}

/**
 * The chat follows the conversation: a long streamed answer stays in view while it streams and
 * ends in view without scrolling; scrolled up, the view stays put and offers Jump to latest; an
 * approval card arriving while scrolled up is brought into view with the keyboard on Approve,
 * and the live region announces it. The tool row names its command; the user message is compact.
 */
export async function followSteps(c: StepContext, api: MessagesApiServer): Promise<void> {
  const { webview } = c;
  const scroller = webview.locator('[data-testid="messages"]');
  const seen = (selector: string): Promise<Seen> =>
    scroller.evaluate((box, sel) => {
      const all = box.querySelectorAll(sel);
      const el = all.length > 0 ? all[all.length - 1] : undefined;
      const outer = box.getBoundingClientRect();
      const r = el?.getBoundingClientRect();
      const doc = box.ownerDocument;
      return {
        fromBottom: box.scrollHeight - box.scrollTop - box.clientHeight,
        scrollTop: box.scrollTop,
        scrollHeight: box.scrollHeight,
        clientHeight: box.clientHeight,
        inView: r !== undefined && r.height > 0 && r.top >= outer.top - 1 && r.bottom <= outer.bottom + 1,
        activeTestId: doc.activeElement?.getAttribute('data-testid') ?? null,
      };
    }, selector);
  const scrollToTop = () => scroller.evaluate((box) => box.scrollTo({ top: 0 }));
  const send = async (text: string) => {
    await webview.locator('[data-testid="chat-input"] textarea').fill(text);
    await webview.locator('[data-testid="send"]').click();
  };
  const lastParagraph = '.msg.assistant p';

  await c.check('a long streamed answer is followed: mid-stream its newest line is in view, without scrolling', async () => {
    api.enqueue(faults.stall(textAnswer(LONG_ANSWER), STALL_MS, EVENTS_BEFORE_TEXT + Math.ceil(STALL_AT / CHUNK)));
    await send('Write a long answer');
    await c.waitForText(webview.locator('.msg.assistant').last(), /Paragraph 30:/);
    await webview.locator('[data-testid="stop"]').waitFor({ timeout: 1_000 }); // still streaming
    const mid = await seen(lastParagraph);
    if (mid.scrollHeight < mid.clientHeight * 1.5) throw new Error(`the answer is not taller than the chat area (${mid.scrollHeight} vs ${mid.clientHeight} px): the step proves nothing`);
    if (!mid.inView || mid.fromBottom > 24) throw new Error(`mid-stream the newest paragraph is not in view (${JSON.stringify(mid)})`);
    await c.shot('follow-streaming');
  });

  await c.check('scrolled up while it streams, the view stays put and shows Jump to latest; Jump brings the end into view', async () => {
    await scrollToTop();
    await webview.locator('[data-testid="jump-latest"]').waitFor({ timeout: c.timeoutMs });
    await webview.locator('[data-testid="send"]').waitFor({ timeout: c.timeoutMs }); // the stall is over, the answer done
    await c.waitForText(webview.locator('.msg.assistant').last(), new RegExp(LAST_LINE));
    const after = await seen(lastParagraph);
    if (after.scrollTop !== 0 || after.inView) throw new Error(`the view moved while the user was scrolled up (${JSON.stringify(after)})`);
    await c.shot('follow-jump-latest');
    await webview.locator('[data-testid="jump-latest"]').click();
    await webview.locator('[data-testid="jump-latest"]').waitFor({ state: 'detached', timeout: c.timeoutMs });
    const end = await seen(lastParagraph);
    if (!end.inView || end.fromBottom > 24) throw new Error(`after Jump to latest the end is not in view (${JSON.stringify(end)})`);
  });

  await c.check('a long answer that streams without a pause ends in view', async () => {
    api.enqueue(textAnswer(LONG_ANSWER.replace('long answer', 'second long answer')));
    await send('Again, please');
    await webview.locator('[data-testid="send"]').waitFor({ timeout: c.timeoutMs });
    await c.waitForText(webview.locator('.msg.assistant').last(), /The end of the second long answer is in view\./);
    const end = await seen(lastParagraph);
    if (!end.inView || end.fromBottom > 24) throw new Error(`the end of the answer is below the fold (${JSON.stringify(end)})`);
    await c.waitForText(webview.locator('[data-testid="live-polite"]'), /^Strata answered: Paragraph 1:/);
  });
  await c.shot('follow-answer-end');

  await c.check('an approval arriving while scrolled up is brought into view, focused on Approve, and announced', async () => {
    // Stalled before its first event: the user scrolls up meanwhile.
    api.enqueue(faults.stall(toolAnswer('execute_command', { command: COMMAND }, 'Running it.'), 3_000, 1), textAnswer('It printed strata-follow.'));
    await send('Run the echo command');
    await scrollToTop();
    await webview.locator('[data-testid="jump-latest"]').waitFor({ timeout: c.timeoutMs });
    await webview.locator('[data-testid="approval"][data-state="pending"]').waitFor({ timeout: c.timeoutMs });
    const card = await until(() => seen('[data-testid="approval"]'), (s) => s.inView && s.activeTestId === 'approve', c.timeoutMs);
    if (!card.inView) throw new Error(`the approval card is not in view (${JSON.stringify(card)})`);
    if (card.activeTestId !== 'approve') throw new Error(`the focused element is ${card.activeTestId ?? 'none'}, not Approve`);
    await c.waitForText(webview.locator('[data-testid="live-assertive"]'), /^Approval needed: Strata wants to run .*echo strata-follow/);
    await c.shot('follow-approval-focused');
    await webview.locator('[data-testid="approve"]').press('Enter'); // the keyboard approves
    await webview.locator('[data-testid="tool-row"][data-tool="execute_command"][data-done="ok"]').waitFor({ timeout: c.timeoutMs });
    await c.waitForText(webview.locator('.msg.assistant').last(), /It printed strata-follow\./);
    await webview.locator('[data-testid="send"]').waitFor({ timeout: c.timeoutMs });
  });

  await c.check('the collapsed tool row names its command, and the user message is one compact row with Edit beside it', async () => {
    const target = webview.locator('[data-testid="tool-row"][data-tool="execute_command"] [data-testid="tool-target"]').last();
    await c.waitForText(target, new RegExp(`^\\$ ${COMMAND}$`));
    const box = await webview.locator('.msg.user').last().evaluate((el) => {
      const r = el.getBoundingClientRect();
      const edit = el.querySelector('[data-testid="edit-message"]')?.getBoundingClientRect();
      const text = el.querySelector('.user-text')?.getBoundingClientRect();
      return { height: r.height, editTop: edit ? edit.top - r.top : -1, editRight: edit ? r.right - edit.right : -1, textHeight: text?.height ?? -1 };
    });
    console.log(`e2e:      user message: ${JSON.stringify(box)}`);
    if (box.editTop < 0 || box.editTop > 8 || box.editRight > 8) throw new Error(`the Edit action is not at the top right of the message (${JSON.stringify(box)})`);
    if (box.height > Math.max(box.textHeight, 22) + 12) throw new Error(`the one-line user message is a tall box (${JSON.stringify(box)})`);
  });
  await c.shot('follow-tool-row');
}

/** Polls `read` until `ok` holds or `ms` pass; returns the last reading either way (the caller checks it). */
async function until<T>(read: () => Promise<T>, ok: (value: T) => boolean, ms: number): Promise<T> {
  const end = Date.now() + ms;
  let value = await read();
  while (!ok(value) && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 100));
    value = await read();
  }
  return value;
}
