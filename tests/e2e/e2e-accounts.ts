/**
 * Accounts for e2e tests: confirmed users made through the auth API (as another device would),
 * and sign-in through the real form. Pages run on http://localhost:<port>, the server's
 * PUBLIC_URL origin (see auth.spec.ts for why).
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect } from './console-guard.ts';

export const e2ePort = Number(process.env.E2E_PORT ?? 4317);
export const e2eOrigin = `http://localhost:${e2ePort}`;
export const e2ePassword = 'amber-otter-lantern-42';
const mailOutbox = path.join(`.tmp/e2e-data-${e2ePort}`, 'outbox', 'mail');

let counter = 0;
/** A fresh address per test: the auth service sends one mail per address per minute. */
export function newEmail(name: string): string {
  counter += 1;
  return `${name}.${Date.now()}.${counter}@example.com`;
}

/** The confirmation link of the newest sign-up mail to `to` (the server's mail outbox). */
export async function confirmationLink(to: string): Promise<string> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    const files = (await readdir(mailOutbox).catch(() => [] as string[])).filter((file) =>
      file.endsWith('.eml'),
    );
    for (const file of files.sort().reverse()) {
      const raw = await readFile(path.join(mailOutbox, file), 'utf8');
      if (!raw.includes(`To: ${to}`)) continue;
      const [head = '', ...rest] = raw.split(/\r?\n\r?\n/);
      let body = rest.join('\n\n');
      if (/content-transfer-encoding:\s*base64/i.test(head)) {
        body = Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
      } else if (/content-transfer-encoding:\s*quoted-printable/i.test(head)) {
        body = body
          .replace(/=\r?\n/g, '')
          .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
      }
      const link = /https?:\/\/\S+\/auth\/v1\/verify\?\S+/.exec(body);
      if (link) return link[0];
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`No confirmation mail to ${to}`);
}

/** Signs up through the auth API and follows the confirmation link. */
export async function createConfirmedUser(
  request: APIRequestContext,
  email: string,
  firstName = 'Ada',
): Promise<void> {
  const config = (await (
    await request.get(`${e2eOrigin}/api/config?endpoint=get-public-config`)
  ).json()) as { supabaseAnonKey: string };
  const headers = {
    apikey: config.supabaseAnonKey,
    Authorization: `Bearer ${config.supabaseAnonKey}`,
  };
  const signup = await request.post(`${e2eOrigin}/auth/v1/signup`, {
    headers,
    data: { email, password: e2ePassword, data: { first_name: firstName, last_name: 'Test' } },
  });
  expect(signup.ok()).toBe(true);
  const verify = await request.get(await confirmationLink(email), { maxRedirects: 0 });
  expect(verify.status()).toBe(303);
  // A refused confirmation (a rate limit, an expired link) also answers 303, with the error in
  // the redirect: name it here rather than at a later "Confirm your email first".
  expect(verify.headers()['location'] ?? '', 'the confirmation was refused').not.toMatch(
    /[#?&]error(_code)?=/,
  );
}

/** Signs in through /login and waits for the dashboard. */
export async function signInAt(page: Page, email: string): Promise<void> {
  await page.goto(`${e2eOrigin}/login`);
  await page.getByRole('textbox', { name: 'Email' }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(e2ePassword);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL((url) => url.pathname === '/dashboard');
}
