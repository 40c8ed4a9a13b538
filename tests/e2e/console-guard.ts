import { expect, test as base } from '@playwright/test';

/**
 * Every e2e test fails on a console error or an uncaught page error, except network errors the
 * test provoked on purpose (offline), and those a describe block names with
 * `test.use({ allowedConsoleErrors: [...] })` (matched against "<text> at <url>").
 */
export const test = base.extend<{ consoleErrors: string[]; allowedConsoleErrors: RegExp[] }>({
  allowedConsoleErrors: [[], { option: true }],
  consoleErrors: [
    async ({ page, allowedConsoleErrors }, use) => {
      const errors: string[] = [];
      page.on('console', (message) => {
        if (message.type() !== 'error') return;
        const described = `${message.text()} at ${message.location().url}`;
        if (allowedConsoleErrors.some((allowed) => allowed.test(described))) return;
        errors.push(message.text());
      });
      page.on('pageerror', (error) => errors.push(error.message));
      await use(errors);
      expect(errors, 'console errors').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };
