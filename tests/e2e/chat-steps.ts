/** The project chat as the e2e specs read and write it. */
import { expect, type Page } from '@playwright/test';

export const log = (page: Page) => page.getByRole('log', { name: /^Messages about / });
export const composer = (page: Page) => page.getByRole('textbox', { name: /^Message to / });

/** Types and sends a message; `shown` is its text as the chat displays it (formatting gone). */
export async function send(page: Page, text: string, shown = text): Promise<void> {
  await composer(page).fill(text);
  await composer(page).press('Enter');
  await expect(log(page).locator('p[dir="auto"]', { hasText: shown })).toBeVisible();
}

/** The texts of the chat's messages, top to bottom. */
export async function texts(page: Page): Promise<string[]> {
  return log(page)
    .locator('li[id^="message-"] p[dir="auto"]')
    .evaluateAll((nodes) => nodes.map((node) => node.textContent?.replace(' (edited)', '') ?? ''));
}
