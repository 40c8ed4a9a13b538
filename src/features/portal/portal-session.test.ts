import { describe, expect, it } from 'vitest';
import {
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
