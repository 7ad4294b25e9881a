import type { MessagesApiServer } from '../support/messagesApiServer';
import { faults } from '../support/messagesApiServer';
import { textAnswer } from '../support/messagesApiEvents';
import type { StepContext } from './webuiSteps';

const CODE = 'export const hello: string = "strata";\nexport function greet(name: string): string {\n  return `${hello}, ${name}`;\n}';
/** Up to the middle of the fence: what the view shows while the answer still streams. */
const BEFORE_STALL = `## Plan for hello.ts\n\n- keep the **constant**\n- add a \`greet\` function\n\n\`\`\`ts\n${CODE.slice(0, 40)}`;
const ANSWER = `## Plan for hello.ts\n\n- keep the **constant**\n- add a \`greet\` function\n\n\`\`\`ts\n${CODE}\n\`\`\`\n\nSee [the handbook](https://www.typescriptlang.org/docs/) and <b>not bold</b>.`;
/** message_start, content_block_start and ping come before the first text delta. */
const EVENTS_BEFORE_TEXT = 3;
/** The local server's text chunk, characters (MessagesApiServer's default `chunkSize`). */
const CHUNK = 7;
const STALL_MS = 6_000;

/**
 * A streamed answer with a heading, a list and a ```ts fence: while it streams (the server stalls
 * mid-fence) the unclosed fence already shows as a highlighted code block; once done the answer
 * has an <h2>, <li>s, highlight.js token classes coloured from the theme, a web link, raw HTML
 * shown as text, and a Copy button that puts the code on the clipboard.
 */
export async function markdownAnswerStep(c: StepContext, api: MessagesApiServer): Promise<void> {
  const { webview } = c;
  const answer = webview.locator('.msg.assistant').last();
  await c.check('a streamed Markdown answer: an unclosed ```ts fence shows as a highlighted code block while it streams', async () => {
    api.enqueue(faults.stall(textAnswer(ANSWER), STALL_MS, EVENTS_BEFORE_TEXT + Math.ceil(BEFORE_STALL.length / CHUNK)));
    await webview.locator('[data-testid="chat-input"] textarea').fill('Plan a greet function for hello.ts');
    await webview.locator('[data-testid="send"]').click();
    await answer.locator('code.hljs.language-ts .hljs-keyword').first().waitFor({ timeout: c.timeoutMs });
    await webview.locator('[data-testid="stop"]').waitFor({ timeout: 1_000 }); // still streaming
    if ((await answer.locator('code.hljs').innerText()).includes('greet(name')) throw new Error('the stall came after the whole fence: the step saw no partial code block');
    await c.shot('markdown-streaming');
  });

  await c.check('the finished answer has an <h2>, <li> items and a ts block with hljs classes in theme colours', async () => {
    await webview.locator('[data-testid="send"]').waitFor({ timeout: c.timeoutMs });
    await c.waitForText(answer.locator('h2'), /^Plan for hello\.ts$/);
    const items = await answer.locator('li').allInnerTexts();
    if (JSON.stringify(items) !== JSON.stringify(['keep the constant', 'add a greet function'])) throw new Error(`list items: ${JSON.stringify(items)}`);
    const block = answer.locator('[data-testid="code-block"][data-language="ts"]');
    await c.waitForText(block.locator('code.hljs.language-ts'), /return `\$\{hello\}, \$\{name\}`/);
    const keyword = block.locator('.hljs-keyword').first();
    if ((await keyword.innerText()) !== 'export') throw new Error(`first keyword: ${await keyword.innerText()}`);
    // markdown.css loaded under the CSP: tokens take the theme's colours, not the text colour.
    const colour = (selector: string) => block.locator(selector).first().evaluate((el) => String(el.ownerDocument.defaultView.getComputedStyle(el).color));
    const [kw, str, plain] = [await colour('.hljs-keyword'), await colour('.hljs-string'), await colour('pre')];
    console.log(`e2e:      token colours: keyword ${kw}, string ${str}, code ${plain}`);
    if (kw === plain || str === plain || kw === str) throw new Error('the hljs classes are not coloured by the theme');
    if ((await answer.locator('b, script, img').count()) !== 0) throw new Error('raw HTML from the answer became an element');
    await c.waitForText(answer.locator('p').last(), /<b>not bold<\/b>/);
    if ((await answer.locator('a[href="https://www.typescriptlang.org/docs/"]').count()) !== 1) throw new Error('the web link lost its href');
  });

  await c.check('Copy on the code block puts the code on the clipboard', async () => {
    const copy = answer.locator('[data-testid="copy-code"]');
    await copy.click();
    await answer.locator('[data-testid="copy-code"][data-state="copied"]').waitFor({ timeout: c.timeoutMs });
    const copied = String(await answer.evaluate((el) => el.ownerDocument.defaultView.navigator.clipboard.readText()));
    if (copied.trimEnd() !== CODE) throw new Error(`the clipboard holds ${JSON.stringify(copied.slice(0, 80))}`);
    await answer.locator('[data-testid="code-block"]').evaluate((el) => el.scrollIntoView({ block: 'center' }));
  });
  await c.shot('markdown-answer');
}
