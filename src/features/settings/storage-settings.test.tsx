import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DeviceStorage } from './device-storage.ts';
import { formatBytes } from './format-bytes.ts';
import { StorageSettings } from './storage-settings.tsx';

afterEach(cleanup);

function fakeStorage(options: { persisted: boolean; grant: boolean }) {
  let persisted = options.persisted;
  return {
    estimate: vi.fn(() => Promise.resolve({ usage: 12_400_000, quota: 2_000_000_000 })),
    persisted: vi.fn(() => Promise.resolve(persisted)),
    persist: vi.fn(() => {
      persisted = options.grant;
      return Promise.resolve(options.grant);
    }),
  } satisfies DeviceStorage;
}

describe('StorageSettings', () => {
  it('shows space used against the quota and asks the browser to keep the data', async () => {
    const storage = fakeStorage({ persisted: false, grant: true });
    render(<StorageSettings storage={storage} />);
    const meter = await screen.findByRole('meter', { name: 'Space used' });
    expect(meter.getAttribute('aria-valuetext')).toBe('12 MB of 2 GB');
    expect(screen.getByText(/Not persistent yet/)).toBeTruthy();

    await userEvent.setup().click(screen.getByRole('button', { name: 'Keep data on this device' }));
    expect(storage.persist).toHaveBeenCalledTimes(1);
    expect(await screen.findByText(/Persistent: the browser will not clear/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Keep data on this device' })).toBeNull();
  });

  it('explains a refusal and leaves the button to try again', async () => {
    const storage = fakeStorage({ persisted: false, grant: false });
    render(<StorageSettings storage={storage} />);
    await userEvent
      .setup()
      .click(await screen.findByRole('button', { name: 'Keep data on this device' }));
    expect(await screen.findByText(/The browser said no for now/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Keep data on this device' })).toBeTruthy();
  });

  it('says so when storage is already persistent, without offering the button', async () => {
    render(<StorageSettings storage={fakeStorage({ persisted: true, grant: true })} />);
    expect(await screen.findByText(/Persistent: the browser will not clear/)).toBeTruthy();
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('copes with a browser that has no storage manager', () => {
    render(<StorageSettings storage={null} />);
    expect(screen.getByText(/This browser does not report its storage/)).toBeTruthy();
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('copes with a storage manager missing estimate, persisted and persist', async () => {
    render(<StorageSettings storage={{}} />);
    expect(await screen.findByText(/does not say how much space/)).toBeTruthy();
    expect(screen.getByText(/does not say whether it may clear/)).toBeTruthy();
    expect(screen.getByText(/cannot be asked to keep it/)).toBeTruthy();
    expect(screen.queryByRole('meter')).toBeNull();
  });

  it('treats a failing estimate as unknown, not as an error', async () => {
    const storage: DeviceStorage = {
      estimate: () => Promise.reject(new Error('SecurityError')),
      persisted: () => Promise.resolve(false),
    };
    render(<StorageSettings storage={storage} />);
    expect(await screen.findByText(/does not say how much space/)).toBeTruthy();
  });
});

describe('formatBytes', () => {
  it('uses decimal units like the operating system', () => {
    expect(formatBytes(0)).toBe('0 bytes');
    expect(formatBytes(1)).toBe('1 byte');
    expect(formatBytes(812_000)).toBe('812 KB');
    expect(formatBytes(1_450_000_000)).toBe('1.4 GB');
    expect(formatBytes(Number.NaN)).toBe('unknown');
  });
});
