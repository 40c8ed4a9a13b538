import { defineConfig } from '@playwright/test';

// e2e runs against the production build served by the real server (`npm test` builds once first),
// in the system Chromium: Playwright's own browser download cannot work here.
// E2E_PORT and STATIC_DIR let two suites run side by side (each with its own build).
// The Google e2e stands a local OIDC provider in for Google; the server under test and the test
// process both read these (Playwright passes its environment on to the web server).
process.env.GOOGLE_ISSUER ??= 'http://127.0.0.1:4351';
process.env.GOOGLE_CLIENT_ID ??= 'satchel-e2e';
process.env.GOOGLE_CLIENT_SECRET ??= 'satchel-e2e-secret';
const port = Number(process.env.E2E_PORT ?? 4317);
// Payments: tests/e2e/subscription.spec.ts starts a local fake of Stripe's API and pages
// (tests/fixtures/fake-stripe.ts) at STRIPE_API_BASE; other specs never call it (only buying or
// managing a plan does), they only see Settings > Billing offer plans.
process.env.STRIPE_SECRET_KEY ??= 'sk_test_e2e';
process.env.STRIPE_WEBHOOK_SECRET ??= 'whsec_e2e';
process.env.STRIPE_API_BASE ??= `http://127.0.0.1:${port + 2000}`;
process.env.STRIPE_PRICE_PRO_MONTH ??= 'price_e2e_pro_month';
process.env.STRIPE_PRICE_PRO_YEAR ??= 'price_e2e_pro_year';
process.env.STRIPE_PRICE_AGENCY_MONTH ??= 'price_e2e_agency_month';
process.env.STRIPE_PRICE_AGENCY_YEAR ??= 'price_e2e_agency_year';
const staticDir = process.env.STATIC_DIR;
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export default defineConfig({
  testDir: 'tests/e2e',
  testMatch: '**/*.spec.ts',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 30_000,
  reporter: [['list']],
  outputDir: 'test-results',
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    launchOptions: {
      executablePath: chromium,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
    trace: 'off',
    screenshot: 'only-on-failure',
  },
  webServer: {
    command: `rm -rf .tmp/e2e-data-${port} && node --import tsx server/main.ts`,
    url: `http://127.0.0.1:${port}/healthz`,
    reuseExistingServer: false,
    // A loaded machine (shared cores) can take over a minute to start the server and open PGlite.
    timeout: 180_000,
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: `.tmp/e2e-data-${port}`,
      ...(staticDir ? { STATIC_DIR: staticDir } : {}),
      LOG_LEVEL: 'warn',
      // The suite signs in from one address more often than a person would in 5 minutes, and
      // confirms more new accounts from it than the default 30 verifications per 5 minutes (over
      // it, the link answers 303 with an error and the account stays unconfirmed).
      GOTRUE_RATE_LIMIT_SIGN_IN_SIGN_UPS: '1000',
      GOTRUE_RATE_LIMIT_VERIFY: '1000',
    },
  },
});
