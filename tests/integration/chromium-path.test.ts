// `npm test` on a machine with only Node: the e2e Chromium comes from a registry package when
// neither CHROMIUM_PATH nor the system's Chromium is there, and it really drives a page.
import { chromium } from '@playwright/test';
import { describe, expect, it } from 'vitest';
import { resolveChromium } from '../../scripts/chromium-path.mjs';

describe('resolveChromium', () => {
  it('takes CHROMIUM_PATH first, and says so when it points nowhere', async () => {
    const found = await resolveChromium({ CHROMIUM_PATH: process.execPath }, '/nowhere/chromium');
    expect(found).toEqual({ path: process.execPath, source: 'CHROMIUM_PATH', env: {} });
    const missing = await resolveChromium({ CHROMIUM_PATH: '/nowhere/chrome' });
    expect(missing).toEqual({ error: expect.stringContaining('/nowhere/chrome') });
  });

  it('takes the system Chromium when there is one', async () => {
    const found = await resolveChromium({}, process.execPath);
    expect(found).toMatchObject({ path: process.execPath, source: 'system' });
  });

  it.runIf(process.platform === 'linux' && process.arch === 'x64')(
    'falls back to the packaged Chromium, which loads a page',
    async () => {
      const found = await resolveChromium({}, '/nowhere/chromium');
      if ('error' in found) throw new Error(found.error);
      expect(found.source).toBe('@sparticuz/chromium');
      const browser = await chromium.launch({
        executablePath: found.path,
        env: { ...process.env, ...found.env },
        args: ['--no-sandbox', '--disable-gpu'],
      });
      try {
        const page = await browser.newPage();
        await page.setContent('<main><h1>Satchel</h1></main>');
        expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Satchel');
      } finally {
        await browser.close();
      }
    },
    60_000,
  );
});
