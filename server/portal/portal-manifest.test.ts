/**
 * The portal's own manifest: start_url and scope are the project's portal page, the same for any
 * pair of ids (nothing read, nothing told), and ids that are not ids are a 400 in the contract's
 * shape; the portal page itself is still the app's page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../tests/fixtures/create-test-app.ts';

const clientId = '0192f3a0-0000-7000-8000-0000000000bb';
const projectId = '0192f3a0-0000-7000-8000-0000000000aa';

describe('portal manifest', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.cleanup();
  });

  it("starts at the project's portal page and stays in it", async () => {
    const response = await t.app.request(
      `/client/${clientId}/project/${projectId}/manifest.webmanifest`,
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/manifest+json; charset=utf-8');
    const manifest = (await response.json()) as Record<string, unknown>;
    const page = `/client/${clientId}/project/${projectId}`;
    expect(manifest).toMatchObject({
      id: page,
      start_url: page,
      scope: page,
      display: 'standalone',
      name: 'Client portal',
    });
    expect(JSON.stringify(manifest)).not.toContain('dashboard');
    expect((manifest.icons as { sizes: string }[]).map((icon) => icon.sizes)).toContain('512x512');
  });

  it('refuses ids that are not ids', async () => {
    const response = await t.app.request(`/client/nope/project/${projectId}/manifest.webmanifest`);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe(
      'VALIDATION_FAILED',
    );
  });
});
