import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StepContext } from './webuiSteps';

/** The narrow sidebar the legend must fit, CSS pixels. */
const NARROW_PX = 300;

/** A figure as the panel writes it ("184,000") as a number. */
const num = (s: string | undefined): number => Number((s ?? 'NaN').replace(/,/g, ''));

/** The manifest's default for `strata.<key>` (the README's figure for it). */
function manifestDefault(key: string): number {
  const manifest = JSON.parse(readFileSync(join(process.cwd(), 'package.json'), 'utf8')) as { contributes: { configuration: Array<{ properties: Record<string, { default: unknown }> }> } };
  for (const group of manifest.contributes.configuration) {
    const found = group.properties[`strata.${key}`];
    if (found) return Number(found.default);
  }
  throw new Error(`strata.${key} is not in package.json`);
}

/**
 * The context panel after a few turns of an open session: the figures agree (window less the one
 * output reserve is the meter's usable window; L4's index cap is the setting's), the stacked bar
 * is tall enough to read, the legend does not wrap at 300 px, and the timeline shows the turns
 * with the session's cost and cache hit rate.
 */
export async function layerViewSteps(c: StepContext): Promise<void> {
  const { webview } = c;
  const panel = webview.locator('[data-testid="context-panel"]');
  await c.check("the panel's figures agree: window - output reserve = the meter's usable window, from the session", async () => {
    await c.waitForText(webview.locator('.meter-label'), /usable tokens/);
    const meter = /of ([\d,]+) usable tokens/.exec(await webview.locator('.meter-label').innerText());
    const line = await webview.locator('[data-testid="thresholds"]').innerText();
    const figures = /Window ([\d,]+) · output reserve ([\d,]+) · auto-condense at (\d+)% \(([\d,]+)\)/.exec(line);
    console.log(`e2e:      panel: ${(await webview.locator('.meter-label').innerText()).trim()} | ${line.trim()} | ${(await webview.locator('[data-testid="prompt-line"]').innerText()).trim()}`);
    if (!meter || !figures) throw new Error(`unexpected panel text: ${line}`);
    if (/from settings/.test(line)) throw new Error('the panel still shows the settings figures while a session is open');
    const [window, reserve, percent, condenseAt] = [num(figures[1]), num(figures[2]), num(figures[3]), num(figures[4])];
    if (window - reserve !== num(meter[1])) throw new Error(`window ${window} - reserve ${reserve} is not the meter's usable ${meter[1]}`);
    if (condenseAt !== Math.floor((percent / 100) * (window - reserve))) throw new Error(`auto-condense point ${condenseAt} is not ${percent}% of ${window - reserve}`);
    await webview.locator('[data-testid="layer-details"] > summary').click(); // the legend is folded by default
    const l4 = await webview.locator('[data-layer="L4"] .legend-figures').innerText();
    const index = /\/ ([\d,]+) \+ ([\d,]+)/.exec(l4);
    if (!index || num(index[1]) !== manifestDefault('indexMaxTokens')) throw new Error(`L4's index cap is not strata.indexMaxTokens: "${l4}"`);
  });

  await c.check(`the stacked bar is tall enough to read and the legend keeps one line per layer at ${NARROW_PX} px`, async () => {
    await webview.locator('body').evaluate((body, px) => {
      body.style.width = `${px}px`;
    }, NARROW_PX);
    const bar = await webview.locator('[data-testid="layer-bar"]').evaluate((el) => el.getBoundingClientRect().height);
    if (bar < 12) throw new Error(`the layer bar is ${bar} px high`);
    const rows = await webview.locator('[data-testid="layer-legend"] li').evaluateAll((lis) =>
      lis.map((li) => {
        const figures = li.querySelector('.legend-figures');
        return { text: li.textContent ?? '', height: li.getBoundingClientRect().height, clipped: figures !== null && figures.scrollWidth > figures.clientWidth + 1 };
      }),
    );
    console.log(`e2e:      legend at ${NARROW_PX}px: ${rows.map((r) => `${r.text.replace(/\s+/g, ' ')} (${Math.round(r.height)}px)`).join(' | ')}`);
    if (rows.length < 7) throw new Error(`the legend has ${rows.length} rows, not one per layer`);
    const wrapped = rows.filter((r) => r.height > 24 || r.clipped);
    if (wrapped.length > 0) throw new Error(`legend rows wrap or clip their figures: ${JSON.stringify(wrapped)}`);
    await c.waitForText(webview.locator('[data-testid="session-figures"]'), /Session \$\d+\.\d{4} · last turn \$\d+\.\d{4}[\s\S]*\d+ turns/);
    if ((await webview.locator('.timeline-turn').count()) < 3) throw new Error('the timeline does not show the turns of the session');
    await panel.screenshot({ path: join(process.cwd(), 'test', 'e2e', 'screenshots', `layer-view-${NARROW_PX}px.png`) });
    await webview.locator('body').evaluate((body) => {
      body.style.width = '';
    });
  });
  await c.shot('layer-view');
}
