// The Free plan's active-project allowance, enforced by the server directly and through push,
// with an error that names the limit and where to upgrade.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getPlan } from '../../contract/entities/plan.ts';
import type { TestApp } from '../fixtures/create-test-app.ts';
import { createRegisteredUserApp, type RegisteredUserApp } from '../fixtures/registered-user.ts';

type Json = Record<string, any>;

describe('plan limits', () => {
  let t: TestApp;
  let workspaceId: string;
  let call: RegisteredUserApp['call'];
  let clientId: string;
  const allowance = getPlan('free').limits.activeProjects!;

  const createProject = (name: string, extra: Json = {}) =>
    call('POST', '/api/project?endpoint=create-project', {
      id: randomUUID(),
      workspaceId,
      clientId,
      name,
      ...extra,
    });

  beforeAll(async () => {
    ({ t, workspaceId, call } = await createRegisteredUserApp());
    clientId = randomUUID();
    await call('POST', '/api/client?endpoint=create-client', {
      id: clientId,
      workspaceId,
      name: 'Acme',
    });
  });
  afterAll(async () => {
    await t.cleanup();
  });

  it('refuses an active project beyond the Free allowance, naming the limit and the upgrade', async () => {
    expect(allowance).toBe(2);
    const first = await createProject('One');
    const second = await createProject('Two');
    expect([first.status, second.status]).toEqual([200, 200]);
    const third = await createProject('Three');
    expect(third.status).toBe(422);
    expect(third.body.error).toMatchObject({
      code: 'BUSINESS_RULE',
      message: expect.stringContaining('Free plan includes 2 active projects'),
      details: {
        limit: 'activeProjects',
        plan: 'free',
        max: 2,
        upgradePath: '/settings?tab=billing',
      },
    });
    // A finished project takes no place; reopening it needs one.
    const done = await createProject('Done', { status: 'completed' });
    expect(done.status).toBe(200);
    const reopen = await call(
      'PATCH',
      `/api/project?endpoint=update-project&id=${done.body.project.id}`,
      { status: 'active' },
    );
    expect(reopen.status).toBe(422);
    // Archiving one frees a place; unarchiving it again is then refused.
    const archive = await call(
      'PATCH',
      `/api/project?endpoint=update-project&id=${first.body.project.id}`,
      { archived: true },
    );
    expect(archive.status).toBe(200);
    expect((await createProject('Three again')).status).toBe(200);
    const unarchive = await call(
      'PATCH',
      `/api/project?endpoint=update-project&id=${first.body.project.id}`,
      { archived: false },
    );
    expect(unarchive.status).toBe(422);
    // Editing an active project is never blocked by the limit.
    const rename = await call(
      'PATCH',
      `/api/project?endpoint=update-project&id=${second.body.project.id}`,
      { name: 'Two, renamed' },
    );
    expect(rename.status).toBe(200);
  });

  it('through push, the project over the allowance is a recorded rejection and the rest apply', async () => {
    const mutation = (
      clientSeq: number,
      body: Json,
      resource = 'project',
      operation = 'create-project',
    ) => ({
      mutationId: randomUUID(),
      clientSeq,
      resource,
      operation,
      body,
    });
    const r = await call('POST', '/api/sync?endpoint=push', {
      clientId: `device-${randomUUID()}`,
      mutations: [
        mutation(1, { id: randomUUID(), workspaceId, clientId, name: 'Over the limit' }),
        mutation(2, { id: randomUUID(), workspaceId, name: 'Globex' }, 'client', 'create-client'),
      ],
    });
    expect(r.status).toBe(200);
    expect(r.body.results.map((result: Json) => result.status)).toEqual([422, 200]);
  });
});
