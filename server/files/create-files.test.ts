/**
 * Where the app fetches file bytes from when they live on Azure: the blob endpoint's origin, taken
 * from the connection string, and admitted by the CSP's connect-src only then.
 */
import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy } from '../http/content-security-policy.ts';
import { blobEndpointOrigin } from './create-files.ts';

describe('file storage origin', () => {
  it('reads BlobEndpoint when given (Azurite, custom domains), else the account and suffix', () => {
    expect(
      blobEndpointOrigin(
        'DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=a2V5;BlobEndpoint=http://127.0.0.1:10000/devstoreaccount1;',
      ),
    ).toBe('http://127.0.0.1:10000');
    expect(
      blobEndpointOrigin(
        'DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=a2V5==;EndpointSuffix=core.windows.net',
      ),
    ).toBe('https://acme.blob.core.windows.net');
    expect(blobEndpointOrigin('AccountName=acme;AccountKey=a2V5')).toBe(
      'https://acme.blob.core.windows.net',
    );
  });

  it('lets the app connect to that origin only when files are there', () => {
    expect(contentSecurityPolicy({ hostedSupabaseUrl: null }).connectSrc).toEqual(["'self'"]);
    expect(
      contentSecurityPolicy({
        hostedSupabaseUrl: null,
        fileStorageOrigin: 'https://acme.blob.core.windows.net',
      }).connectSrc,
    ).toEqual(["'self'", 'https://acme.blob.core.windows.net']);
  });
});
