import { describe, expect, it, vi } from 'vitest';
import { registerUser } from '#contract/endpoints/register.ts';
import { createAuthLog } from './auth-log.ts';
import { fakeUser } from './auth-test-fakes.ts';
import {
  createRegistrationCoordinator,
  registeredMarkerKey,
  registrationInputFor,
  splitFullName,
} from './registration.ts';

const workspace = {
  id: '0190f3a4-1b2c-7d8e-9f00-112233445566',
  name: "Grace's workspace",
  logoUrl: null,
  brandColor: null,
  currency: 'EUR',
  timeZone: 'UTC',
  locale: 'en',
  portalWelcomeText: null,
  settings: {},
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
};

const googleUser = fakeUser({
  email: 'grace@example.com',
  appMetadata: { provider: 'google', providers: ['google'] },
  userMetadata: {
    full_name: 'Grace Brewster Murray Hopper',
    avatar_url: 'https://lh3.googleusercontent.com/a/photo',
  },
});

describe('splitFullName', () => {
  it.each([
    ['Grace Hopper', 'Grace', 'Hopper'],
    ['Grace Brewster Murray Hopper', 'Grace', 'Brewster Murray Hopper'],
    ['  Cher  ', 'Cher', ''],
    ['', '', ''],
  ])('%j -> %j + %j', (full, first, last) => {
    expect(splitFullName(full)).toEqual({ firstName: first, lastName: last });
  });
});

describe('registrationInputFor', () => {
  it('applies the Google rule of spec 4', () => {
    expect(registrationInputFor(googleUser)).toEqual({
      id: googleUser.id,
      email: 'grace@example.com',
      firstName: 'Grace',
      lastName: 'Brewster Murray Hopper',
      profilePictureUrl: 'https://lh3.googleusercontent.com/a/photo',
    });
  });

  it('uses the names given at email sign-up', () => {
    const user = fakeUser({
      userMetadata: { first_name: 'Ada', last_name: 'Lovelace', display_name: 'Ada Lovelace' },
    });
    expect(registrationInputFor(user)).toMatchObject({ firstName: 'Ada', lastName: 'Lovelace' });
  });

  it('drops a picture the contract would refuse and trims long names', () => {
    const user = fakeUser({
      appMetadata: { provider: 'google' },
      userMetadata: { full_name: `${'A'.repeat(150)} B`, avatar_url: 'javascript:alert(1)' },
    });
    const input = registrationInputFor(user);
    expect(input.profilePictureUrl).toBeNull();
    expect(input.firstName).toHaveLength(100);
  });
});

function memoryStorage() {
  const map = new Map<string, string>();
  return {
    getItem: (key: string) => map.get(key) ?? null,
    setItem: (key: string, value: string) => void map.set(key, value),
    map,
  };
}

describe('createRegistrationCoordinator', () => {
  it('registers once per browser session and marks the user', async () => {
    const callEndpoint = vi.fn(() => Promise.resolve({ ok: true, data: { workspace } }));
    const storage = memoryStorage();
    const coordinator = createRegistrationCoordinator({
      callEndpoint: callEndpoint,
      storage,
      log: createAuthLog({ silent: true }),
    });
    const [first, second] = await Promise.all([
      coordinator.ensureRegistered(googleUser),
      coordinator.ensureRegistered(googleUser),
    ]);
    expect(first).toEqual({ workspace });
    expect(second).toEqual({ workspace });
    expect(callEndpoint).toHaveBeenCalledTimes(1);
    expect(callEndpoint).toHaveBeenCalledWith(registerUser, {
      query: {},
      body: registrationInputFor(googleUser),
    });
    expect(storage.map.get(registeredMarkerKey(googleUser.id))).toBe('1');

    await expect(coordinator.ensureRegistered(googleUser)).resolves.toEqual({ workspace: null });
    expect(callEndpoint).toHaveBeenCalledTimes(1);
  });

  it('logs a failure, does not mark, and tries again next time', async () => {
    const failure = Object.assign(new Error('Something went wrong!'), { status: 500 });
    const callEndpoint = vi
      .fn()
      .mockRejectedValueOnce(failure)
      .mockResolvedValueOnce({ ok: true, data: { workspace } });
    const sink = { warn: vi.fn(), error: vi.fn() };
    const storage = memoryStorage();
    const coordinator = createRegistrationCoordinator({
      callEndpoint: callEndpoint,
      storage,
      log: createAuthLog({ sink }),
    });
    await expect(coordinator.ensureRegistered(googleUser)).rejects.toBe(failure);
    expect(sink.error).toHaveBeenCalledWith('[satchel] Registering the user failed', {
      status: 500,
      message: 'Something went wrong!',
    });
    expect(storage.map.size).toBe(0);
    await expect(coordinator.ensureRegistered(googleUser)).resolves.toEqual({ workspace });
  });
});
