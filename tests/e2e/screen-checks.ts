/**
 * Screen checks shared by the e2e specs: `shoot` saves a screen at desktop and phone width in both
 * themes when SCREENSHOT_DIR is set; `expectAccessible` runs axe over it in both themes.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

// SCREENSHOT_DIR=<dir> also saves the screens at desktop and phone width, light and dark.
const shotDir = process.env.SCREENSHOT_DIR;

export async function shoot(page: Page, name: string): Promise<void> {
  if (!shotDir) return;
  for (const theme of ['light', 'dark'] as const) {
    await page.evaluate((t) => {
      document.documentElement.classList.remove('light', 'dark');
      document.documentElement.classList.add(t);
    }, theme);
    // Let colour transitions finish, or a dark shot catches them half way.
    await page.waitForTimeout(250);
    for (const [label, width] of [
      ['desktop', 1280],
      ['phone', 360],
    ] as const) {
      await page.setViewportSize({ width, height: label === 'phone' ? 780 : 860 });
      await page.screenshot({ path: `${shotDir}/${name}-${label}-${theme}.png`, fullPage: true });
    }
  }
  await page.setViewportSize({ width: 1280, height: 860 });
  await page.evaluate(() => document.documentElement.classList.remove('dark'));
}

/** axe over the page's main content (the shell is checked elsewhere), in both themes. */
export async function expectAccessible(page: Page, label: string, scope = 'main'): Promise<void> {
  const violations: string[] = [];
  for (const theme of ['light', 'dark'] as const) {
    await page.evaluate((t) => {
      document.documentElement.classList.remove('light', 'dark');
      document.documentElement.classList.add(t);
    }, theme);
    // Let colour transitions finish before contrast is measured.
    await page.waitForTimeout(250);
    const { violations: found } = await new AxeBuilder({ page })
      .include(scope)
      .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
      .analyze();
    violations.push(
      ...found.flatMap((v) =>
        v.nodes.map((n) => `${label} ${theme} ${v.id} ${n.target.join(' ')}: ${n.failureSummary}`),
      ),
    );
  }
  await page.evaluate(() => document.documentElement.classList.remove('dark'));
  expect(violations).toEqual([]);
}
