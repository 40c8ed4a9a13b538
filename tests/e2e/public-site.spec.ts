import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './console-guard.ts';

/**
 * Every public page: path, main heading, document title. /demo is not here: it opens the app on
 * the demo workspace (demo.spec.ts checks it, axe included).
 */
const pages = [
  [
    '/',
    'Run your freelance business from one workspace, even offline.',
    'Satchel — the offline-first workspace for freelancers',
  ],
  ['/features', 'Features', 'Features — Satchel'],
  ['/pricing', 'Pricing', 'Pricing — Satchel'],
  ['/faq', 'Frequently asked questions', 'Frequently asked questions — Satchel'],
  ['/contact', 'Contact us', 'Contact us — Satchel'],
  ['/feedback', 'Feedback', 'Feedback — Satchel'],
  ['/client-portal-demo', 'Client portal demo', 'Client portal demo — Satchel'],
  ['/terms-of-service', 'Terms of service', 'Terms of service — Satchel'],
  ['/privacy-policy', 'Privacy policy', 'Privacy policy — Satchel'],
  ['/billing-success', 'Payment received', 'Payment received — Satchel'],
  ['/billing-error', 'Payment failed', 'Payment failed — Satchel'],
  ['/subscription/success', 'Subscription active', 'Subscription active — Satchel'],
  ['/subscription/cancel', 'Checkout cancelled', 'Checkout cancelled — Satchel'],
] as const;

const notForSearch = new Set([
  '/billing-success',
  '/billing-error',
  '/subscription/success',
  '/subscription/cancel',
]);

/**
 * A prerendered page starts the app at the visitor's first engagement (a pointer moving, as a
 * person's does): then the app has booted and replaced the copy of the page with its own.
 */
async function waitForApp(page: Page) {
  await engage(page);
  await expect(page.locator('#prerendered')).toHaveCount(0);
  await expect(page.locator('#root main h1')).toBeVisible();
}

/** Moves the pointer over the page (twice: a move to where it already is fires no event). */
async function engage(page: Page) {
  await page.mouse.move(3, 3);
  await page.mouse.move(1, 1);
}

/** The browser logs the refused request; that one is what the test provoked. */
function dropExpected429(consoleErrors: string[]) {
  consoleErrors.splice(
    0,
    consoleErrors.length,
    ...consoleErrors.filter((e) => !/status of 429 \(Too Many Requests\)/.test(e)),
  );
}

/** Clicks a radio's visible label, as a person would (react-aria keeps the input itself hidden). */
async function choose(page: Page, name: string | RegExp) {
  await page
    .locator('label')
    .filter({ has: page.getByRole('radio', { name }) })
    .click();
  await expect(page.getByRole('radio', { name })).toBeChecked();
}

async function gotoApp(page: Page, path: string) {
  await page.goto(path);
  await waitForApp(page);
}

/** axe's violations on the page as it is now, one line per failing element. */
async function axeViolations(page: Page, label: string): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
    .analyze();
  return violations.flatMap((v) =>
    v.nodes.map((n) => `${label} ${v.id} (${v.impact}) ${n.target.join(' ')}: ${n.failureSummary}`),
  );
}

async function expectNoAxeViolations(page: Page, label: string) {
  expect(await axeViolations(page, label)).toEqual([]);
}

test.describe('prerendered HTML', () => {
  for (const [path, h1, title] of pages) {
    test(`${path} is static HTML with its own head, and no inline script`, async ({ request }) => {
      const response = await request.get(path, { headers: { Accept: 'text/html' } });
      expect(response.status()).toBe(200);
      const html = await response.text();
      expect(html).toContain(`<title>${title}</title>`);
      expect(html).toMatch(/<meta name="description" content="[^"]{40,}" \/>/);
      expect(html).toMatch(
        new RegExp(`<link rel="canonical" href="https?://[^"]+${path === '/' ? '/' : path}" />`),
      );
      for (const property of ['og:title', 'og:description', 'og:url', 'og:image', 'og:type']) {
        expect(html, property).toContain(`<meta property="${property}" content="`);
      }
      expect(html.includes('<meta name="robots" content="noindex" />')).toBe(
        notForSearch.has(path),
      );
      // The page is in the HTML itself, before any script runs.
      const prerendered = html.slice(html.indexOf('<div id="prerendered">'));
      expect(prerendered).toContain('<h1');
      expect(prerendered).toContain(h1.slice(0, 20));
      // CSP is script-src 'self': every script has a src, none is inline (JSON-LD included).
      const scripts = html.match(/<script\b[^>]*>/g) ?? [];
      expect(scripts.length).toBeGreaterThan(0);
      for (const tag of scripts) expect(tag, tag).toMatch(/\ssrc="\/[^"]+"/);
      expect(html).not.toMatch(/<script\b[^>]*>[^<\s]/);
    });
  }

  test('sitemap.xml lists the indexable pages and robots.txt points at it', async ({ request }) => {
    const sitemap = await (await request.get('/sitemap.xml')).text();
    for (const [path] of pages) {
      const loc = new RegExp(`<loc>https?://[^<]+${path === '/' ? '/' : path}</loc>`);
      expect(loc.test(sitemap), path).toBe(!notForSearch.has(path));
    }
    const robots = await (await request.get('/robots.txt')).text();
    expect(robots).toMatch(/^Sitemap: https?:\/\/\S+\/sitemap\.xml$/m);
  });

  test('a page paints and reads without JavaScript', async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto('/pricing');
    await expect(page.getByRole('heading', { level: 1, name: 'Pricing' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: 'Pro', exact: true })).toBeVisible();
    await expect(page.getByText('$15', { exact: true })).toBeVisible();
    // Styled by the stylesheet in its head, which no script has to add.
    await expect(page.locator('header').first()).toHaveCSS('position', 'sticky');
    await context.close();
  });

  test('the text is set in the shipped font, served from this origin', async ({ page }) => {
    const fonts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'font') fonts.push(request.url());
    });
    await page.goto('/pricing');
    await page.evaluate(() => document.fonts.ready);
    expect(await page.evaluate(() => document.fonts.check('16px "Inter Variable"'))).toBe(true);
    await expect(page.getByRole('heading', { level: 1 })).toHaveCSS(
      'font-family',
      /^"Inter Variable"/,
    );
    expect(fonts.length).toBeGreaterThan(0);
    for (const url of fonts) expect(url).toMatch(/^http:\/\/[^/]+\/assets\/inter-[\w-]+\.woff2$/);
  });

  test('the stored theme applies before the app boots, with the key the app uses', async ({
    page,
    consoleErrors,
  }) => {
    await page.addInitScript(() => localStorage.setItem('satchel-theme', 'dark'));
    // Without the app's modules, only theme-init.js can have set the class.
    await page.route('**/assets/*.js', (route) => route.abort());
    await page.goto('/features');
    await expect(page.locator('html')).toHaveClass(/\bdark\b/);
    await page.unroute('**/assets/*.js');
    // The modules this test blocked, nothing else.
    consoleErrors.splice(
      0,
      consoleErrors.length,
      ...consoleErrors.filter((e) => !/net::ERR_FAILED/.test(e)),
    );
    await page.goto('/faq');
    await waitForApp(page);
    await expect(page.getByRole('radio', { name: 'Dark theme' }).first()).toBeChecked();
    await expect(page.locator('html')).toHaveClass(/\bdark\b/);
  });
});

test.describe('starting the app on a prerendered page', () => {
  test('waits for the visitor, then keeps what they clicked and typed before it took over', async ({
    page,
  }) => {
    await page.goto('/faq');
    await page.waitForLoadState('load');
    await page.waitForTimeout(500);
    // A reader who does nothing gets the page, not the app's start-up work: #root stays empty.
    await expect(page.locator('#prerendered')).toBeVisible();
    await expect(page.locator('#root')).toBeEmpty();

    // The click lands on the copy (the pointer's move only starts the app): it is replayed.
    const question = page.getByRole('button', { name: 'Do my clients need an account?' });
    await question.click();
    await expect(page.locator('#prerendered')).toHaveCount(0);
    await expect(question).toHaveAttribute('aria-expanded', 'true');

    // Typing before the take-over: the text and the focus move to the live form.
    await page.goto('/contact');
    const name = page.getByRole('textbox', { name: 'Your name' });
    await name.fill('Grace Hopper');
    await expect(page.locator('#prerendered')).toHaveCount(0);
    await expect(name).toHaveValue('Grace Hopper');
    await expect(name).toBeFocused();
    await page.getByRole('button', { name: 'Send message' }).click();
    await expect(page.getByText('Name is required')).toHaveCount(0);
    await expect(page.getByText('Subject is required')).toBeVisible();
  });

  test('starts at once where the copy cannot be right: a query in the URL', async ({ page }) => {
    await page.goto('/billing-success?session_id=cs_test_a1B2c3D4e5F6g7H8');
    await expect(page.locator('#prerendered')).toHaveCount(0);
  });
});

test.describe('every public page', () => {
  for (const [path, h1, title] of pages) {
    test(`${path} renders its title and main heading, and the app takes over`, async ({ page }) => {
      await gotoApp(page, path);
      await expect(page).toHaveTitle(title);
      await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(h1);
      await expect(page.getByRole('main')).toHaveCount(1);
    });
  }
});

test.describe('accessibility (axe, WCAG 2.2 AA and best practices)', () => {
  for (const scheme of ['light', 'dark'] as const) {
    test(`no violations on any public page, ${scheme} theme`, async ({ page }) => {
      test.slow();
      await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
      const found: string[] = [];
      for (const [path] of [...pages, ['/no-such-page'] as const]) {
        await page.goto(path);
        await engage(page);
        await expect(page.locator('#prerendered')).toHaveCount(0);
        await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
        await expect(page.locator('html')).toHaveClass(new RegExp(`\\b${scheme}\\b`));
        found.push(...(await axeViolations(page, path)));
      }
      expect(found).toEqual([]);
    });
  }

  test('no violations with the FAQ open, the yearly prices and form errors on show', async ({
    page,
  }) => {
    // Colours are checked at rest, not halfway through a transition.
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await gotoApp(page, '/faq');
    await page.getByRole('searchbox', { name: 'Search the questions' }).fill('portal');
    await expectNoAxeViolations(page, 'FAQ searched');
    await gotoApp(page, '/pricing');
    await page.getByRole('radio', { name: /Yearly/ }).click();
    await expect(page.getByRole('radio', { name: /Yearly/ })).toBeChecked();
    await page.mouse.move(0, 0);
    await expectNoAxeViolations(page, 'pricing yearly');
    await gotoApp(page, '/contact');
    await page.getByRole('button', { name: 'Send message' }).click();
    await expect(page.getByText('Name is required')).toBeVisible();
    await expectNoAxeViolations(page, 'contact with errors');
    await gotoApp(page, '/feedback');
    await page.getByRole('button', { name: 'Send feedback' }).click();
    await expect(page.getByText('Choose a rating from 1 to 5')).toBeVisible();
    await expectNoAxeViolations(page, 'feedback with errors');
  });
});

test.describe('navigation', () => {
  test('the header and footer lead to every section, without reloading the page', async ({
    page,
  }) => {
    await gotoApp(page, '/');
    await page.evaluate(() => {
      (window as unknown as { stayed: boolean }).stayed = true;
    });
    const nav = page.getByRole('navigation', { name: 'Main' }).first();
    for (const [name, h1] of [
      ['Features', 'Features'],
      ['Pricing', 'Pricing'],
      ['FAQ', 'Frequently asked questions'],
      ['Contact', 'Contact us'],
    ] as const) {
      await nav.getByRole('link', { name }).click();
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(h1);
    }
    await page.getByRole('contentinfo').getByRole('link', { name: 'Terms' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Terms of service');
    await page.getByRole('link', { name: 'Satchel', exact: true }).click();
    await expect(page).toHaveURL((url) => url.pathname === '/');
    expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(
      true,
    );
  });

  test('the phone menu opens, navigates and closes, by keyboard', async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 740 });
    await gotoApp(page, '/');
    const toggle = page.getByRole('button', { name: 'Open menu' });
    await toggle.focus();
    await page.keyboard.press('Enter');
    const menuLink = page.getByRole('navigation', { name: 'Main' }).getByRole('link', {
      name: 'Pricing',
    });
    await expect(menuLink).toBeVisible();
    await menuLink.focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Pricing');
    await expect(page.getByRole('button', { name: 'Open menu' })).toBeVisible();
  });

  test('the legal pages have a table of contents that jumps to each section', async ({ page }) => {
    await gotoApp(page, '/privacy-policy');
    await expect(page.getByText(/Last updated/)).toContainText(/\d{1,2} \w+ 20\d\d/);
    const contents = page.getByRole('navigation', { name: 'Contents' });
    await expect(contents.getByRole('link')).toHaveCount(14);
    await contents.getByRole('link', { name: 'Who processes it for us' }).click();
    await expect(page).toHaveURL(/#processors$/);
    await expect(page.getByRole('heading', { name: /Who processes it for us/ })).toBeInViewport();
    await expect(page.getByRole('table')).toContainText('Stripe');
    await gotoApp(page, '/terms-of-service');
    await expect(page.getByRole('navigation', { name: 'Contents' }).getByRole('link')).toHaveCount(
      14,
    );
  });

  test.describe('unknown path', () => {
    // Chromium logs the 404 of the page itself as a console error; nothing else may fail.
    test.use({ allowedConsoleErrors: [/status of 404 .* at http:\/\/[^/]+\/pricng$/] });

    test('an unknown path suggests the page meant and searches the site', async ({ page }) => {
      await page.goto('/pricng');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page not found');
      const suggestions = page.getByRole('region', { name: 'Did you mean' });
      await expect(suggestions.getByRole('link')).toHaveCount(1);
      await expect(suggestions.getByRole('link')).toContainText('Pricing');

      await page.getByRole('searchbox', { name: 'Search the site' }).fill('privacy');
      await expect(page.getByRole('status').filter({ hasText: 'match' })).toHaveText(
        /1 page matches “privacy”/,
      );
      await page.getByRole('list', { name: 'Search results' }).getByRole('link').first().click();
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Privacy policy');
    });
  });
});

test.describe('pricing', () => {
  test('switches between monthly and yearly prices with the keyboard', async ({ page }) => {
    await gotoApp(page, '/pricing');
    const pro = page
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { name: 'Pro' }) });
    await expect(pro).toContainText('$15');
    await expect(pro).toContainText('Billed monthly');
    const monthly = page.getByRole('radio', { name: 'Monthly' });
    await expect(monthly).toBeChecked();
    await monthly.focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Space');
    await expect(page.getByRole('radio', { name: /Yearly/ })).toBeChecked();
    await expect(pro).toContainText('$12.50');
    await expect(pro).toContainText('$150 billed once a year');
    await expect(pro).toContainText('save $30');
    // Visitors are sent to sign up, then to billing with the plan and interval chosen.
    const getPro = pro.getByRole('link', { name: /Get Pro/ });
    const href = await getPro.getAttribute('href');
    expect(decodeURIComponent(href ?? '')).toBe(
      '/signup?returnTo=/settings?tab=billing&plan=pro&interval=year',
    );
    await expect(page.getByRole('table')).toContainText('Unlimited');
  });
});

test.describe('FAQ', () => {
  test('search narrows the questions and opens the answers it found', async ({ page }) => {
    await gotoApp(page, '/faq');
    const search = page.getByRole('searchbox', { name: 'Search the questions' });
    await search.fill('export');
    await expect(page.getByRole('status').filter({ hasText: 'match' })).toHaveText(
      /answers? match(es)? “export”/,
    );
    const answer = page.getByRole('button', { name: 'Can I export my data?' });
    await expect(answer).toHaveAttribute('aria-expanded', 'true');
    await expect(page.getByText(/full export of your workspace/)).toBeVisible();
    await expect(page.getByRole('button', { name: 'How do I pay for Satchel?' })).toHaveCount(0);

    await search.fill('zebra crossing');
    await expect(page.getByText('Nothing found for “zebra crossing”')).toBeVisible();
    await search.press('Escape');
    await expect(search).toHaveValue('');
    await expect(page.getByRole('button', { name: 'How do I pay for Satchel?' })).toBeVisible();
  });

  test('each answer opens and closes from the keyboard', async ({ page }) => {
    await gotoApp(page, '/faq');
    const question = page.getByRole('button', { name: 'Do my clients need an account?' });
    await question.focus();
    await page.keyboard.press('Enter');
    await expect(question).toHaveAttribute('aria-expanded', 'true');
    await expect(page.getByText(/You share a link and a password for a project/)).toBeVisible();
    await page.keyboard.press('Space');
    await expect(question).toHaveAttribute('aria-expanded', 'false');
  });
});

test.describe('contact form', () => {
  test('shows the contract schema’s errors next to each field and focuses the first', async ({
    page,
  }) => {
    await gotoApp(page, '/contact');
    await page.getByRole('button', { name: 'Send message' }).click();
    const name = page.getByRole('textbox', { name: 'Your name' });
    await expect(name).toHaveAttribute('aria-invalid', 'true');
    await expect(name).toBeFocused();
    await expect(name).toHaveAccessibleDescription(/Name is required/);
    await expect(page.getByText('Subject is required')).toBeVisible();
    await expect(page.getByText('Message is required')).toBeVisible();

    await name.fill('Ada Lovelace');
    await expect(page.getByText('Name is required')).toHaveCount(0);
    await page.getByRole('textbox', { name: 'Email' }).fill('ada@');
    await expect(page.getByText('Enter a valid email address')).toBeVisible();
    await page.getByRole('textbox', { name: 'Message' }).fill('x'.repeat(5001));
    await expect(page.getByText('5,001 / 5,000 characters')).toBeVisible();
    await expect(page.getByText('Message must be at most 5000 characters')).toBeVisible();
  });

  test('sends once, shows progress, then a success state', async ({ page }) => {
    await gotoApp(page, '/contact?subject=Hello%20from%20the%20tests');
    let posts = 0;
    await page.route('**/api/contact?endpoint=submit-contact', async (route) => {
      posts += 1;
      await new Promise((resolve) => setTimeout(resolve, 600));
      await route.continue();
    });
    await page.getByRole('textbox', { name: 'Your name' }).fill('Ada Lovelace');
    await page.getByRole('textbox', { name: 'Email' }).fill('ada@example.com');
    await expect(page.getByRole('textbox', { name: 'Subject' })).toHaveValue(
      'Hello from the tests',
    );
    await page.getByRole('textbox', { name: 'Message' }).fill('Can my clients use the portal?');
    const send = page.getByRole('button', { name: /Send message|Sending/ });
    await send.dblclick();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('button', { name: /Sending your message/ })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Message sent' })).toBeFocused();
    await expect(page.getByText(/We reply by email to ada@example.com/)).toBeVisible();
    expect(posts).toBe(1);
  });

  test('after too many messages, says so in the server’s words', async ({
    page,
    consoleErrors,
  }) => {
    await gotoApp(page, '/contact');
    const alert = page.getByRole('alert').filter({ hasText: 'Too many attempts' });
    // The limit is 5 per 10 minutes per address; earlier tests may have used some of it.
    for (let attempt = 1; attempt <= 7; attempt += 1) {
      await page.getByRole('textbox', { name: 'Your name' }).fill('Ada Lovelace');
      await page.getByRole('textbox', { name: 'Email' }).fill('ada@example.com');
      await page.getByRole('textbox', { name: 'Subject' }).fill(`Attempt ${attempt}`);
      await page.getByRole('textbox', { name: 'Message' }).fill('Checking the rate limit.');
      await page.getByRole('button', { name: 'Send message' }).click();
      const sent = page.getByRole('heading', { name: 'Message sent' });
      await expect(sent.or(alert)).toBeVisible();
      if (await alert.isVisible()) break;
      await page.getByRole('button', { name: 'Write another message' }).click();
    }
    await expect(alert).toHaveText(/Too many attempts\. Try again in \d+ (minutes?|s)\./);
    dropExpected429(consoleErrors);
    // The text stays for a later try.
    await expect(page.getByRole('textbox', { name: 'Message' })).toHaveValue(
      'Checking the rate limit.',
    );
  });
});

test.describe('feedback form', () => {
  test('asks for a rating, a topic and a message, then thanks', async ({ page }) => {
    await gotoApp(page, '/feedback');
    await page.getByRole('button', { name: 'Send feedback' }).click();
    await expect(page.getByText('Choose a rating from 1 to 5')).toBeVisible();
    await expect(page.getByText('Choose a category')).toBeVisible();
    await expect(page.getByText('Message is required')).toBeVisible();
    await expect(page.getByRole('radio', { name: /^1, Very poor/ })).toBeFocused();

    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await expect(page.getByRole('radio', { name: '4, Good' })).toBeChecked();
    await choose(page, /An idea/);
    await page.getByRole('textbox', { name: 'Your feedback' }).fill('A weekly summary email.');
    await page.getByRole('textbox', { name: 'Email' }).fill('not-an-email');
    await page.getByRole('button', { name: 'Send feedback' }).click();
    await expect(page.getByText('Enter a valid email address')).toBeVisible();
    await page.getByRole('textbox', { name: 'Email' }).fill('');
    await page.getByRole('button', { name: 'Send feedback' }).click();
    await expect(page.getByRole('heading', { name: 'Thank you for your feedback' })).toBeFocused();
  });

  test('after too many tries, shows the rate-limit message', async ({ page, consoleErrors }) => {
    await gotoApp(page, '/feedback');
    const alert = page.getByRole('alert').filter({ hasText: 'Too many attempts' });
    for (let attempt = 1; attempt <= 7; attempt += 1) {
      await choose(page, '5, Excellent');
      await choose(page, /Praise/);
      await page.getByRole('textbox', { name: 'Your feedback' }).fill(`Attempt ${attempt}`);
      await page.getByRole('button', { name: 'Send feedback' }).click();
      const sent = page.getByRole('heading', { name: 'Thank you for your feedback' });
      await expect(sent.or(alert)).toBeVisible();
      if (await alert.isVisible()) break;
      await page.getByRole('button', { name: 'Send more feedback' }).click();
    }
    await expect(alert).toHaveText(/Too many attempts\. Try again in \d+ (minutes?|s)\./);
    dropExpected429(consoleErrors);
  });

  test('offline, it says nothing was sent and keeps the text', async ({
    page,
    context,
    consoleErrors,
  }) => {
    await gotoApp(page, '/feedback');
    await choose(page, '3, Fair');
    await choose(page, /A question/);
    await page.getByRole('textbox', { name: 'Your feedback' }).fill('Written on a train.');
    await context.setOffline(true);
    await page.getByRole('button', { name: 'Send feedback' }).click();
    await expect(page.getByRole('alert')).toContainText('The server could not be reached');
    await expect(page.getByRole('textbox', { name: 'Your feedback' })).toHaveValue(
      'Written on a train.',
    );
    await context.setOffline(false);
    consoleErrors.splice(
      0,
      consoleErrors.length,
      ...consoleErrors.filter((e) => !/net::ERR_INTERNET_DISCONNECTED|Failed to fetch/.test(e)),
    );
  });
});

test.describe('billing result pages', () => {
  test('show the session_id Stripe sends back, and offer the next step', async ({ page }) => {
    // A client paying an invoice comes back with the invoice page to retry from (`back`).
    await gotoApp(page, '/billing-error?session_id=cs_test_a1B2c3D4e5F6g7H8&back=%2Fclient-access');
    await expect(page.getByTestId('payment-reference')).toContainText(
      'Payment reference: cs_test_a1B2c3D4e5F6g7H8',
    );
    await expect(page.getByRole('link', { name: 'Try again' })).toHaveAttribute(
      'href',
      '/client-access',
    );
    const support = page.getByRole('link', { name: 'Contact support' });
    await support.click();
    await expect(page.getByRole('textbox', { name: 'Subject' })).toHaveValue(
      'Payment failed (reference cs_test_a1B2c3D4e5F6g7H8)',
    );
  });

  test('say so when the reference is missing or not one of ours', async ({ page }) => {
    await gotoApp(page, '/subscription/success');
    await expect(page.getByTestId('payment-reference')).toContainText(
      'opened without a payment reference',
    );
    await gotoApp(page, '/billing-success?session_id=%3Cscript%3Ealert(1)%3C%2Fscript%3E');
    await expect(page.getByTestId('payment-reference')).toContainText('we do not recognise');
    await expect(page.getByTestId('payment-reference')).not.toContainText('<script>');
  });
});

test.describe('keyboard and motion', () => {
  test('the skip link is the first stop and moves focus to the page', async ({ page }) => {
    await gotoApp(page, '/features');
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to main content' });
    await expect(skip).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.locator('main#main')).toBeFocused();
  });

  test('the contact form can be filled and sent with the keyboard alone', async ({ page }) => {
    await gotoApp(page, '/contact');
    await page.getByRole('textbox', { name: 'Your name' }).focus();
    await page.keyboard.type('Grace Hopper');
    await page.keyboard.press('Tab');
    await page.keyboard.type('grace@example.com');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Keyboard only');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Sent without a mouse.');
    await page.keyboard.press('Tab');
    await expect(page.getByRole('button', { name: 'Send message' })).toBeFocused();
  });

  test('reduced motion turns transitions off', async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await gotoApp(page, '/faq');
    const duration = await page
      .getByRole('button', { name: 'Where is my data stored?' })
      .locator('svg')
      .evaluate((icon) => getComputedStyle(icon).transitionDuration);
    expect(parseFloat(duration)).toBeLessThan(0.001);
  });
});

test.describe('screenshots', () => {
  test('every page at 360 px and 1440 px, light and dark', async ({ page }, testInfo) => {
    test.setTimeout(240_000);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const width of [360, 1440]) {
        await page.setViewportSize({ width, height: 900 });
        for (const [path] of pages) {
          await gotoApp(page, path);
          const name = `${path === '/' ? 'home' : path.slice(1).replace(/\//g, '-')}-${width}-${scheme}.png`;
          // SCREENSHOT_DIR keeps them out of test-results/, which a parallel run may clear.
          const file = process.env.SCREENSHOT_DIR
            ? `${process.env.SCREENSHOT_DIR}/${name}`
            : testInfo.outputPath(name);
          await page.screenshot({ path: file, fullPage: true });
        }
      }
    }
  });
});
