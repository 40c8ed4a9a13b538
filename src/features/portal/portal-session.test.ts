import { describe, expect, it, vi } from 'vitest';
import {
  portalActivityThrottleMs,
  portalExpiryCheckMs,
  watchPortalSession,
  isPortalSessionActive,
  parsePortalSession,
  portalInactivityLimitMs,
  portalRedirect,
  portalSessionStorageKey,
  readPortalSession,
  type PortalSession,
} from './portal-session.ts';

const now = Date.UTC(2025, 0, 1, 12, 0, 0);
const params = { projectId: 'p1', clientId: 'c1' };
const portalPath = '/client/c1/project/p1';
const gate = {
  to: '/client-access',
  search: { projectId: 'p1', clientId: 'c1', redirect: portalPath },
};

function session(overrides: Partial<PortalSession> = {}): PortalSession {
  return { projectId: 'p1', clientId: 'c1', lastActivity: now - 60_000, ...overrides };
}

describe('parsePortalSession', () => {
  it('reads a well-formed session', () => {
    expect(parsePortalSession(JSON.stringify(session()))).toEqual(session());
  });

  it.each([
    ['missing', null],
    ['corrupt JSON', '{"projectId":'],
    ['not an object', '"p1"'],
    ['null', 'null'],
    ['lastActivity as a string', JSON.stringify({ ...session(), lastActivity: String(now) })],
    ['lastActivity not finite', '{"projectId":"p1","clientId":"c1","lastActivity":1e999}'],
    ['empty projectId', JSON.stringify({ ...session(), projectId: '' })],
    ['clientId missing', JSON.stringify({ projectId: 'p1', lastActivity: now })],
  ])('treats %s as no session', (_name, raw) => {
    expect(parsePortalSession(raw)).toBeNull();
  });
});

describe('readPortalSession', () => {
  it('reads the client_access_session key', () => {
    const storage = new Map([[portalSessionStorageKey, JSON.stringify(session())]]);
    expect(readPortalSession({ getItem: (key) => storage.get(key) ?? null })).toEqual(session());
  });

  it('treats unreadable storage as no session', () => {
    const throwing = {
      getItem: () => {
        throw new DOMException('denied', 'SecurityError');
      },
    };
    expect(readPortalSession(throwing)).toBeNull();
    expect(readPortalSession(undefined)).toBeNull();
  });
});

describe('isPortalSessionActive', () => {
  it('is active for less than 30 minutes after the last activity', () => {
    expect(isPortalSessionActive(session({ lastActivity: now }), now)).toBe(true);
    expect(
      isPortalSessionActive(session({ lastActivity: now - portalInactivityLimitMs + 1 }), now),
    ).toBe(true);
  });

  it('has expired at exactly 30 minutes and after', () => {
    expect(
      isPortalSessionActive(session({ lastActivity: now - portalInactivityLimitMs }), now),
    ).toBe(false);
    expect(
      isPortalSessionActive(session({ lastActivity: now - 2 * portalInactivityLimitMs }), now),
    ).toBe(false);
  });

  it('refuses a lastActivity far in the future', () => {
    expect(isPortalSessionActive(session({ lastActivity: now + 24 * 60 * 60_000 }), now)).toBe(
      false,
    );
  });
});

describe('portalRedirect', () => {
  it('lets a visitor with a live session for both ids stay', () => {
    expect(portalRedirect(session(), params, now, portalPath)).toBeNull();
  });

  it('sends a visitor without a session to the gate with both ids and the way back', () => {
    expect(portalRedirect(null, params, now, portalPath)).toEqual(gate);
  });

  it('sends a visitor whose session is for another project to the gate', () => {
    expect(portalRedirect(session({ projectId: 'p2' }), params, now, portalPath)).toEqual(gate);
  });

  it('sends a visitor whose session is for another client to the gate', () => {
    expect(portalRedirect(session({ clientId: 'c2' }), params, now, portalPath)).toEqual(gate);
  });

  it('sends a visitor whose session has expired to the gate', () => {
    const stale = session({ lastActivity: now - portalInactivityLimitMs - 1 });
    expect(portalRedirect(stale, params, now, portalPath)).toEqual(gate);
  });
});

describe('watchPortalSession (fake clock)', () => {
  function setup(stored: PortalSession | null = session({ lastActivity: now })) {
    let clock = now;
    const storage = new Map<string, string>();
    if (stored) storage.set(portalSessionStorageKey, JSON.stringify(stored));
    const store = {
      getItem: (key: string) => storage.get(key) ?? null,
      setItem: (key: string, value: string) => void storage.set(key, value),
      removeItem: (key: string) => void storage.delete(key),
    };
    const target = new EventTarget();
    let tick: (() => void) | null = null;
    const onExpire = vi.fn();
    const onActivity = vi.fn();
    const stop = watchPortalSession({
      params,
      storage: store,
      target,
      now: () => clock,
      setInterval: (fn, ms) => {
        expect(ms).toBe(portalExpiryCheckMs);
        tick = fn;
        return 1;
      },
      clearInterval: () => {
        tick = null;
      },
      onExpire,
      onActivity,
    });
    return {
      advance(ms: number) {
        // The check runs every 60 s while time passes.
        const end = clock + ms;
        while (clock + portalExpiryCheckMs <= end) {
          clock += portalExpiryCheckMs;
          tick?.();
        }
        clock = end;
      },
      act: (type = 'mousemove') => target.dispatchEvent(new Event(type)),
      stored: () => readPortalSession(store),
      remove: () => storage.delete(portalSessionStorageKey),
      onExpire,
      onActivity,
      stop,
      isWatching: () => tick !== null,
    };
  }

  it('expires after 30 minutes without activity, at the next 60 s check, and clears the session', () => {
    const w = setup();
    w.advance(portalInactivityLimitMs - 1);
    expect(w.onExpire).not.toHaveBeenCalled();
    w.advance(portalExpiryCheckMs);
    expect(w.onExpire).toHaveBeenCalledTimes(1);
    expect(w.stored()).toBeNull();
    expect(w.isWatching()).toBe(false);
  });

  it('activity refreshes the session, at most every 30 s', () => {
    const w = setup();
    w.advance(portalActivityThrottleMs - 1);
    w.act();
    expect(w.stored()?.lastActivity).toBe(now);
    w.advance(1);
    w.act('keydown');
    expect(w.stored()?.lastActivity).toBe(now + portalActivityThrottleMs);
    expect(w.onActivity).toHaveBeenCalledTimes(1);
    w.act('click');
    expect(w.onActivity).toHaveBeenCalledTimes(1);
  });

  it('keeps a session alive as long as the visitor is active', () => {
    const w = setup();
    for (let minute = 0; minute < 90; minute++) {
      w.advance(60_000);
      w.act('scroll');
    }
    expect(w.onExpire).not.toHaveBeenCalled();
    expect(w.stored()?.lastActivity).toBe(now + 90 * 60_000);
  });

  it('activity after the limit ends the session instead of reviving it', () => {
    const w = setup(session({ lastActivity: now - portalInactivityLimitMs + 10_000 }));
    w.advance(30_000);
    w.act('touchstart');
    expect(w.onExpire).toHaveBeenCalledTimes(1);
    expect(w.stored()).toBeNull();
  });

  it('ends when another tab signed out (the stored session is gone)', () => {
    const w = setup();
    w.advance(portalExpiryCheckMs);
    expect(w.onExpire).not.toHaveBeenCalled();
    w.remove();
    w.advance(portalExpiryCheckMs);
    expect(w.onExpire).toHaveBeenCalledTimes(1);
  });

  it('stops listening when stopped', () => {
    const w = setup();
    w.stop();
    expect(w.isWatching()).toBe(false);
    w.advance(portalInactivityLimitMs * 2);
    expect(w.onExpire).not.toHaveBeenCalled();
  });
});
