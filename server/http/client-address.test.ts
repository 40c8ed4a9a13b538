import { describe, expect, it } from 'vitest';
import { clientAddress } from './client-address.ts';

describe('clientAddress', () => {
  it('uses the socket address and ignores X-Forwarded-For when no proxy is trusted', () => {
    expect(
      clientAddress({ socketAddress: '203.0.113.9', forwardedFor: '1.2.3.4', trustedHops: 0 }),
    ).toBe('203.0.113.9');
  });

  it('takes the rightmost entry not written by a trusted proxy', () => {
    // The client forged "1.1.1.1"; the one proxy appended the real peer 198.51.100.7.
    expect(
      clientAddress({
        socketAddress: '10.0.0.2',
        forwardedFor: '1.1.1.1, 198.51.100.7',
        trustedHops: 1,
      }),
    ).toBe('198.51.100.7');
    // Two proxies: the outer appended the client, the inner appended the outer.
    expect(
      clientAddress({
        socketAddress: '10.0.0.3',
        forwardedFor: '1.1.1.1, 198.51.100.7, 10.0.0.2',
        trustedHops: 2,
      }),
    ).toBe('198.51.100.7');
  });

  it('falls back to the socket when the header is missing or the entry is not an address', () => {
    expect(clientAddress({ socketAddress: '10.0.0.2', forwardedFor: null, trustedHops: 1 })).toBe(
      '10.0.0.2',
    );
    expect(
      clientAddress({ socketAddress: '10.0.0.2', forwardedFor: 'evil, nonsense', trustedHops: 1 }),
    ).toBe('10.0.0.2');
    expect(clientAddress({ socketAddress: null, forwardedFor: null, trustedHops: 0 })).toBe(
      'unknown',
    );
  });

  it('uses the leftmost entry when fewer entries than trusted proxies arrived', () => {
    expect(
      clientAddress({ socketAddress: '10.0.0.3', forwardedFor: '198.51.100.7', trustedHops: 3 }),
    ).toBe('198.51.100.7');
  });

  it('reads IPv6 entries', () => {
    expect(
      clientAddress({ socketAddress: '::1', forwardedFor: '2001:db8::1', trustedHops: 1 }),
    ).toBe('2001:db8::1');
  });
});
