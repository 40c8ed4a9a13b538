/**
 * Test-only helpers for the project screens: a fresh fake-indexeddb database with a workspace in
 * it, a fake sync handle around it (no worker, no server) and the providers the screens expect.
 */
import { configure, render } from '@testing-library/react';
import axe from 'axe-core';
import type { ReactElement } from 'react';
import { expect, vi } from 'vitest';
import { createAppDatabase, type AppDatabase } from '../../db/app-database.ts';
import type { ClientSyncStatus, SyncHandle } from '../../sync/sync-client.ts';
import { ToastProvider } from '../../ui/toast-provider.tsx';
import { createToaster } from '../../ui/toaster.ts';
import { SyncProvider } from '../workspace/sync-context.tsx';

// Local database round trips are slow on a busy CI machine; wait longer than the 1 s default.
configure({ asyncUtilTimeout: 5000 });

export const WS = '0190a000-0000-7000-8000-000000000001';
export const USER_ID = 'u1';

export async function createTestDatabase(): Promise<AppDatabase> {
  const db = createAppDatabase(USER_ID, { name: `test-${crypto.randomUUID()}` });
  const at = '2026-01-01T00:00:00.000Z';
  await db.workspaces.put({
    id: WS,
    name: 'Studio',
    logoUrl: null,
    brandColor: null,
    currency: 'EUR',
    timeZone: 'UTC',
    locale: 'en',
    portalWelcomeText: null,
    settings: {},
    createdAt: at,
    updatedAt: at,
    _v: 1,
  });
  return db;
}

const idle: ClientSyncStatus = {
  state: 'idle',
  role: 'leader',
  waiting: 0,
  failed: 0,
  lastSyncedAt: null,
  lastError: null,
};

export function createFakeSyncHandle(db: AppDatabase): SyncHandle {
  return {
    db,
    getStatus: () => idle,
    subscribe: () => () => undefined,
    notifyOutboxChanged: vi.fn(),
    invalidate: vi.fn(),
    applyLiveRows: vi.fn(),
    reconnect: vi.fn(),
    resumeAfterAuth: vi.fn(),
    isLeader: () => true,
    observeWorkspaceIds: () => () => undefined,
    stop: () => Promise.resolve(),
  };
}

export function renderWithSync(ui: ReactElement, db: AppDatabase) {
  const handle = createFakeSyncHandle(db);
  const result = render(
    <ToastProvider toaster={createToaster()}>
      <SyncProvider handle={handle} userId={USER_ID}>
        {ui}
      </SyncProvider>
    </ToastProvider>,
  );
  return { ...result, handle };
}

/**
 * axe over the page and any open dialog. jsdom cannot measure colour contrast (the e2e specs do),
 * and a screen rendered alone has no app shell landmarks. react-aria's live announcer keeps an
 * announcement a few seconds after its test's elements are gone; it is no part of the screen.
 */
export async function expectAccessible(): Promise<void> {
  const results = await axe.run(
    { include: [document.body], exclude: ['[data-live-announcer]'] },
    {
      runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'],
      rules: {
        'color-contrast': { enabled: false },
        region: { enabled: false },
        'landmark-one-main': { enabled: false },
      },
    },
  );
  expect(
    results.violations.map((violation) => `${violation.id}: ${violation.nodes[0]?.html ?? ''}`),
  ).toEqual([]);
}
