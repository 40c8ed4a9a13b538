import { afterEach, describe, expect, it } from 'vitest';
import { createAppDatabase } from '../db/app-database.ts';
import { DEMO_USER_ID } from './demo-mode.ts';
import { DEMO_WORKSPACE_ID } from './demo-seed.ts';
import { startDemo } from './start-demo.ts';

afterEach(async () => {
  window.history.replaceState(null, '', '/');
  await createAppDatabase(DEMO_USER_ID).delete();
});

describe('startDemo', () => {
  it('opens the dashboard itself from the entry, keeping the query and hash', () => {
    window.history.replaceState(null, '', '/demo?from=home#top');
    startDemo();
    expect(window.location.pathname).toBe('/dashboard');
    expect(window.location.search).toBe('?from=home');
    expect(window.location.hash).toBe('#top');
  });

  it('leaves any other page of the demo where it is (a reload of /clients stays there)', () => {
    window.history.replaceState(null, '', '/clients');
    startDemo();
    expect(window.location.pathname).toBe('/clients');
  });

  it('seeds the demo database at once, and sync opens on the seeded workspace', async () => {
    window.history.replaceState(null, '', '/demo');
    const demo = startDemo();
    const handle = await demo.sync.openSync(DEMO_USER_ID);
    const db = createAppDatabase(DEMO_USER_ID);
    try {
      expect(await db.workspaces.get(DEMO_WORKSPACE_ID)).toBeTruthy();
      expect(await db.clients.count()).toBeGreaterThan(0);
    } finally {
      db.close();
      await handle.stop();
    }
  });
});
