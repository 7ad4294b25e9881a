import type { Locator, Page } from 'playwright-core';

/**
 * Clicks a row of the open quick pick. VS Code 1.139 shows a hover for a row's description when
 * the pointer rests on it, and that hover takes the click; the pointer rests where the last click
 * was, often right over the next list's row. So the pointer leaves the list first (1.100 shows
 * no such hover; the move costs nothing there).
 */
export async function clickQuickPickRow(page: Page, row: Locator, timeoutMs: number): Promise<void> {
  await row.waitFor({ timeout: timeoutMs });
  await page.mouse.move(1, 1);
  await row.click({ timeout: timeoutMs });
}
