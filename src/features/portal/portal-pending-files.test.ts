// @vitest-environment node
// Files kept on the device for a change request asked for offline, over an in-memory Cache
// Storage (the browser API the e2e exercises for real): each file its own key, read back whole
// with its name and type, dropped on demand; a browser that refuses storage says so.
import { describe, expect, it } from 'vitest';
import { memoryCaches } from './memory-caches.ts';
import { createPortalPendingFiles, PendingFilesUnavailable } from './portal-pending-files.ts';

const projectId = '0192f3a0-0000-7000-8000-0000000000aa';

describe('portal pending files', () => {
  it('keeps two files of one name apart, reads each back whole, and drops one', async () => {
    const files = createPortalPendingFiles(memoryCaches());
    const a = await files.keep(projectId, new File(['first'], 'photo.jpg', { type: 'image/jpeg' }));
    const b = await files.keep(
      projectId,
      new File(['second!'], 'photo.jpg', { type: 'image/jpeg' }),
    );
    expect(a.key).not.toBe(b.key);
    expect([a.name, a.type, a.size]).toEqual(['photo.jpg', 'image/jpeg', 5]);
    const readA = await files.read(projectId, a);
    expect(await readA?.text()).toBe('first');
    expect([readA?.name, readA?.type]).toEqual(['photo.jpg', 'image/jpeg']);
    await files.drop(projectId, [a]);
    expect(await files.read(projectId, a)).toBeNull();
    expect(await (await files.read(projectId, b))?.text()).toBe('second!');
    // Another project's key space is its own.
    expect(await files.read('0192f3a0-0000-7000-8000-0000000000bb', b)).toBeNull();
  });

  it('without Cache Storage, or when it refuses, keeping says it cannot and reading finds nothing', async () => {
    const none = createPortalPendingFiles(undefined);
    await expect(none.keep(projectId, new File(['x'], 'x.txt'))).rejects.toBeInstanceOf(
      PendingFilesUnavailable,
    );
    const refusing = createPortalPendingFiles({
      open: () => Promise.reject(new Error('SecurityError')),
    } as unknown as CacheStorage);
    await expect(refusing.keep(projectId, new File(['x'], 'x.txt'))).rejects.toBeInstanceOf(
      PendingFilesUnavailable,
    );
    const full = createPortalPendingFiles({
      open: () => Promise.resolve({ put: () => Promise.reject(new Error('QuotaExceededError')) }),
    } as unknown as CacheStorage);
    await expect(full.keep(projectId, new File(['x'], 'x.txt'))).rejects.toBeInstanceOf(
      PendingFilesUnavailable,
    );
    expect(
      await none.read(projectId, { key: crypto.randomUUID(), name: 'x', type: '', size: 1 }),
    ).toBeNull();
  });
});
