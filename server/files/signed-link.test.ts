import { randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSignedLinks, type SigningKey } from './signed-link.ts';

const key = (id: string): SigningKey => ({ id, secret: new Uint8Array(randomBytes(32)) });
const publicUrl = 'https://satchel.test/';
const blobName = randomUUID();
const expiresAt = new Date('2026-12-01T12:00:00.000Z');
const before = new Date(expiresAt.getTime() - 60_000);
const options = {
  blobName,
  expiresAt,
  downloadFileName: 'Résumé – final.pdf',
  contentType: 'application/pdf',
  inline: false,
};

function linksWith(...keys: SigningKey[]) {
  return createSignedLinks({ keys: () => Promise.resolve(keys), publicUrl });
}

/** The link with one query parameter replaced. */
function withParam(url: string, name: string, value: string): string {
  const changed = new URL(url);
  changed.searchParams.set(name, value);
  return changed.toString();
}

describe('signed download links', () => {
  it('round-trips: an absolute URL under publicUrl that verifies to what was signed', async () => {
    const links = linksWith(key('k1'));
    const url = await links.sign(options);
    const parsed = new URL(url);
    expect(parsed.origin + parsed.pathname).toBe(`https://satchel.test/files/d/${blobName}`);
    expect([...parsed.searchParams.keys()]).toEqual(['exp', 'dn', 'ct', 'disp', 'kid', 'sig']);
    expect(parsed.searchParams.get('exp')).toBe(String(expiresAt.getTime() / 1000));
    expect(parsed.searchParams.get('disp')).toBe('attachment');
    expect(await links.verify(url, before)).toEqual({
      ok: true,
      blobName,
      downloadFileName: 'Résumé – final.pdf',
      contentType: 'application/pdf',
      inline: false,
      expiresAt,
    });
    // The path and query alone (what a route sees behind a proxy) verify the same.
    expect(await links.verify(parsed.pathname + parsed.search, before)).toMatchObject({ ok: true });
    const inline = await links.sign({ ...options, inline: true });
    expect(await links.verify(new URL(inline), before)).toMatchObject({ ok: true, inline: true });
  });

  it('works until the second it expires, not at it', async () => {
    const links = linksWith(key('k1'));
    const url = await links.sign({ ...options, expiresAt: new Date(expiresAt.getTime() + 999) });
    expect(await links.verify(url, new Date(expiresAt.getTime() - 1))).toMatchObject({ ok: true });
    expect(await links.verify(url, expiresAt)).toEqual({ ok: false, reason: 'expired' });
    expect(await links.verify(url, new Date(expiresAt.getTime() + 86_400_000))).toEqual({
      ok: false,
      reason: 'expired',
    });
  });

  it('refuses a change to any signed parameter, the path or the signature', async () => {
    const links = linksWith(key('k1'));
    const url = await links.sign(options);
    const later = String(expiresAt.getTime() / 1000 + 3600);
    const sig = new URL(url).searchParams.get('sig')!;
    const tampered = [
      withParam(url, 'exp', later),
      withParam(url, 'dn', 'Résumé – final.exe'),
      withParam(url, 'ct', 'text/html'),
      withParam(url, 'disp', 'inline'),
      url.replace(blobName, randomUUID()),
      withParam(url, 'sig', `${sig.startsWith('A') ? 'B' : 'A'}${sig.slice(1)}`),
      withParam(url, 'sig', 'AAAA'),
    ];
    for (const changed of tampered) {
      expect(await links.verify(changed, before), changed).toEqual({
        ok: false,
        reason: 'tampered',
      });
    }
  });

  it('calls a link that is not shaped like one malformed', async () => {
    const links = linksWith(key('k1'));
    const url = await links.sign(options);
    const withoutSig = new URL(url);
    withoutSig.searchParams.delete('sig');
    const extra = new URL(url);
    extra.searchParams.append('x', '1');
    const twice = new URL(url);
    twice.searchParams.append('exp', '9999999999');
    const malformed = [
      withoutSig.toString(),
      extra.toString(),
      twice.toString(),
      withParam(url, 'exp', 'soon'),
      withParam(url, 'disp', 'download'),
      withParam(url, 'sig', 'not base64url!'),
      url.replace(blobName, '..%2Fsecret'),
      url.replace(blobName, blobName.toUpperCase()),
      url.replace(`/d/${blobName}`, '/d/'),
      'http://[not a url',
    ];
    for (const changed of malformed) {
      expect(await links.verify(changed, before), changed).toEqual({
        ok: false,
        reason: 'malformed',
      });
    }
  });

  it('refuses a key id it does not hold', async () => {
    const url = await linksWith(key('k1')).sign(options);
    expect(await linksWith(key('k2')).verify(url, before)).toEqual({
      ok: false,
      reason: 'unknown-key',
    });
    expect(await linksWith(key('k1')).verify(withParam(url, 'kid', 'k9'), before)).toEqual({
      ok: false,
      reason: 'unknown-key',
    });
  });

  it('rotates: the newest key signs, an older one still verifies its links', async () => {
    const old = key('old');
    const fresh = key('new');
    const oldLink = await linksWith(old).sign(options);
    const rotated = linksWith(fresh, old);
    const newLink = await rotated.sign(options);
    expect(new URL(newLink).searchParams.get('kid')).toBe('new');
    expect(await rotated.verify(oldLink, before)).toMatchObject({ ok: true });
    expect(await rotated.verify(newLink, before)).toMatchObject({ ok: true });
    // Once the old key is removed, its links stop.
    expect(await linksWith(fresh).verify(oldLink, before)).toEqual({
      ok: false,
      reason: 'unknown-key',
    });
  });

  it('checks a HEAD as the GET it describes and refuses other methods', async () => {
    const links = linksWith(key('k1'));
    const url = await links.sign(options);
    expect(await links.verify(url, before, 'HEAD')).toMatchObject({ ok: true, blobName });
    expect(await links.verify(withParam(url, 'ct', 'text/html'), before, 'HEAD')).toEqual({
      ok: false,
      reason: 'tampered',
    });
    expect(await links.verify(url, before, 'POST')).toEqual({ ok: false, reason: 'malformed' });
  });

  it('refuses to sign a name that is not a blob name, or without a key', async () => {
    await expect(linksWith(key('k1')).sign({ ...options, blobName: '../etc' })).rejects.toThrow(
      /Not a blob name/,
    );
    await expect(linksWith().sign(options)).rejects.toThrow(/No key/);
  });
});
