/**
 * A person in two workspaces switches between them from the header (issue 17): their own, and
 * one they joined by invitation. Each shows its own project only; the dashboard opens after a
 * switch with focus on its heading; and with the network gone both still open, since the device
 * holds every workspace the person belongs to.
 */
import type { Page } from '@playwright/test';
import { expect, test } from './console-guard.ts';
import { createConfirmedUser, e2eOrigin, newEmail, signInAt } from './e2e-accounts.ts';
import { expectAccessible, shoot } from './screen-checks.ts';
import { createFirstProject, createInviteLink, upgradeToPro, useFakeStripe } from './team-setup.ts';

test.use({ baseURL: e2eOrigin });

useFakeStripe();

const switcher = (page: Page) =>
  page.getByRole('banner').getByRole('button', { name: /^Workspace: / });

/** Opens the header's menu from the keyboard and chooses `name`; the dashboard opens. */
async function switchTo(page: Page, name: string) {
  await switcher(page).focus();
  await page.keyboard.press('Enter');
  const menu = page.getByRole('menu');
  await expect(menu).toBeVisible();
  const item = menu.getByRole('menuitemradio', { name: new RegExp(`^${name}`) });
  await item.focus();
  await page.keyboard.press('Enter');
  await expect(menu).toBeHidden();
  await expect(page).toHaveURL((url) => url.pathname === '/dashboard');
  await expect(switcher(page)).toHaveAccessibleName(`Workspace: ${name}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeFocused();
}

/** The project list through the app's own navigation (works offline: no page load). */
async function openProjects(page: Page) {
  await page
    .getByRole('navigation', { name: 'App' })
    .first()
    .getByRole('link', { name: 'Projects' })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: 'Projects' })).toBeVisible();
}

async function expectOnlyProject(page: Page, shown: string, hidden: string) {
  await openProjects(page);
  await expect(page.getByRole('link', { name: new RegExp(shown) }).first()).toBeVisible();
  await expect(page.getByRole('link', { name: new RegExp(hidden) })).toHaveCount(0);
}

test('a member of two workspaces switches from the header, online and offline', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(240_000);
  const ownerEmail = newEmail('ws-owner');
  const guestEmail = newEmail('ws-guest');
  await createConfirmedUser(request, ownerEmail, 'Olive');
  await createConfirmedUser(request, guestEmail, 'Gus');

  // The owner: a project, Pro (room for a second member), an invitation link.
  await signInAt(page, ownerEmail);
  await createFirstProject(page, 'Olive relaunch', 'Acme Studio');
  // One workspace: its name in the header, no menu.
  await expect(page.getByRole('banner').getByText("Olive's workspace")).toBeVisible();
  await expect(switcher(page)).toHaveCount(0);
  await upgradeToPro(page);
  const link = await createInviteLink(page);

  // The second person has a workspace of their own with a project, then joins the owner's.
  const context = await browser.newContext({ baseURL: e2eOrigin });
  const guest = await context.newPage();
  await guest.setViewportSize({ width: 1280, height: 860 });
  await signInAt(guest, guestEmail);
  // The first dashboard visit welcomes a new account; closed once, it stays closed.
  await guest.getByRole('button', { name: 'Get started' }).click();
  await createFirstProject(guest, 'Gus garden', 'Bloom Co');
  await guest.goto(link);
  await guest.getByRole('button', { name: /^Accept and open / }).click();
  await expect(guest).toHaveURL((url) => url.pathname === '/dashboard');
  await expect(switcher(guest)).toHaveAccessibleName("Workspace: Olive's workspace");
  await expectOnlyProject(guest, 'Olive relaunch', 'Gus garden');

  // The menu lists both with the person's role there, the open one marked; axe on it open.
  await switcher(guest).click();
  const menu = guest.getByRole('menu');
  await expect(menu.getByRole('menuitemradio')).toHaveCount(2);
  await expect(menu.getByRole('menuitemradio', { name: "Gus's workspace Owner" })).toHaveAttribute(
    'aria-checked',
    'false',
  );
  await expect(
    menu.getByRole('menuitemradio', { name: "Olive's workspace Member" }),
  ).toHaveAttribute('aria-checked', 'true');
  await shoot(guest, 'workspace-switcher-open');
  await expectAccessible(guest, 'workspace menu', '[role="menu"]');
  await guest.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await expect(switcher(guest)).toBeFocused();

  // Switch to their own: a project of the other workspace does not stay open.
  await guest
    .getByRole('link', { name: /Olive relaunch/ })
    .first()
    .click();
  await expect(guest.getByRole('heading', { level: 1, name: 'Olive relaunch' })).toBeVisible();
  await switchTo(guest, "Gus's workspace");
  await shoot(guest, 'workspace-switched');
  await expectOnlyProject(guest, 'Gus garden', 'Olive relaunch');

  // Offline: both workspaces are on the device.
  await context.setOffline(true);
  await switchTo(guest, "Olive's workspace");
  await expectOnlyProject(guest, 'Olive relaunch', 'Gus garden');
  await switchTo(guest, "Gus's workspace");
  await expectOnlyProject(guest, 'Gus garden', 'Olive relaunch');

  // The phone header keeps the switcher on screen.
  await guest.setViewportSize({ width: 360, height: 780 });
  await expect(switcher(guest)).toBeInViewport();
  await switchTo(guest, "Olive's workspace");
  await context.setOffline(false);
  await context.close();
});
