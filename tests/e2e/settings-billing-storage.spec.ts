/**
 * Settings > Billing and Settings > Storage in the real app, signed in: what they show, the
 * persistence request answered by the real browser, the plan picked on the pricing page, and
 * screenshots at 360 px and 1280 px in light and dark (SCREENSHOT_DIR keeps them).
 */
import { createConfirmedUser, e2eOrigin, newEmail, signInAt } from './e2e-accounts.ts';
import { expect, test } from './console-guard.ts';

test('billing shows the Free plan honestly, storage shows usage and asks to persist', async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(120_000);
  const email = newEmail('settings');
  await createConfirmedUser(request, email);
  await signInAt(page, email);

  await page.goto(`${e2eOrigin}/settings?tab=billing&plan=pro&interval=year`);
  const yourPlan = page.getByRole('region', { name: 'Your plan' });
  await expect(yourPlan.getByRole('meter', { name: 'Active projects' })).toBeVisible();
  await expect(page.getByText('You picked Pro (yearly) on the pricing page')).toBeVisible();
  await expect(page.getByRole('listitem', { name: 'Pro' }).getByText('Your pick')).toBeVisible();

  await page.getByRole('tab', { name: 'Storage' }).click();
  await expect(page).toHaveURL(/tab=storage/);
  await expect(page.getByRole('meter', { name: 'Space used' })).toBeVisible();
  const keep = page.getByRole('button', { name: 'Keep data on this device' });
  if (await keep.isVisible()) {
    await keep.click();
    // The browser decides; either answer must be said in words.
    await expect(
      page.getByText(/Persistent: the browser will not clear|The browser said no for now/),
    ).toBeVisible();
  } else {
    await expect(page.getByText(/Persistent: the browser will not clear/)).toBeVisible();
  }

  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const width of [360, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      for (const tab of ['billing', 'storage']) {
        await page.goto(`${e2eOrigin}/settings?tab=${tab}`);
        await expect(page.getByRole('tabpanel')).toBeVisible();
        await expect(page.getByText(/Reading storage/)).toHaveCount(0);
        const name = `settings-${tab}-${width}-${scheme}.png`;
        const file = process.env.SCREENSHOT_DIR
          ? `${process.env.SCREENSHOT_DIR}/${name}`
          : testInfo.outputPath(name);
        await page.screenshot({ path: file, fullPage: true });
      }
    }
  }
});
