import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../api-client/call-endpoint.ts';
import { endpointRegistry } from '#contract/endpoint-registry.ts';
import { getDownloadUrl } from '#contract/endpoints/file.ts';
import { getProjectActivity } from '#contract/endpoints/project-activity.ts';
import { getWorkspaceSettings, updateWorkspaceSettings } from '#contract/endpoints/workspace.ts';
import { createAppDatabase, type AppDatabase } from '../db/app-database.ts';
import { demoAnswers } from './demo-answers.ts';
import { createDemoApiClient } from './demo-api.ts';
import { DEMO_FILE_NOTE, DEMO_USER_ID } from './demo-mode.ts';
import { buildDemoSeed, demoIds, DEMO_WORKSPACE_ID } from './demo-seed.ts';
import { seedDemoDatabase } from './seed-demo-database.ts';

let db: AppDatabase;
beforeEach(async () => {
  db = createAppDatabase(DEMO_USER_ID, { name: `test-${crypto.randomUUID()}` });
  await seedDemoDatabase(db, buildDemoSeed());
});
afterEach(() => db.close());

const api = () => createDemoApiClient({ openDatabase: () => db }).callEndpoint;

describe('the demo API’s answers', () => {
  const queries: Record<string, Record<string, unknown>> = {
    'get-project-activity': { projectId: demoIds.project(1) },
  };

  // Each answer goes through the client's own output check: a screen gets what the server sends.
  for (const operation of Object.keys(demoAnswers)) {
    it(`answers ${operation} with what its contract's output allows`, async () => {
      const endpoint = endpointRegistry.find((e) => e.operation === operation);
      expect(endpoint, `${operation} is a registered operation`).toBeDefined();
      expect(endpoint?.method).toBe('GET');
      const query = queries[operation] ?? { workspaceId: DEMO_WORKSPACE_ID };
      await expect(api()(endpoint!, { query })).resolves.toBeDefined();
    });
  }

  it('gives the invoice panels the workspace’s own business details', async () => {
    const { workspace } = await api()(getWorkspaceSettings, {
      query: { workspaceId: DEMO_WORKSPACE_ID },
    });
    expect(workspace.settings.businessAddress).toMatch(/Harbour Street/);
    expect(workspace.settings.paymentInstructions).toMatch(/sample details/);
  });

  it('tells the project’s history from its rows, newest first, filtered by kind', async () => {
    const call = api();
    const all = await call(getProjectActivity, { query: { projectId: demoIds.project(1) } });
    expect(all.activity.length).toBeGreaterThan(5);
    expect(all.activity.map((entry) => entry.kind)).toContain('task');
    const seqs = all.activity.map((entry) => entry.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => b - a));
    const files = await call(getProjectActivity, {
      query: { projectId: demoIds.project(1), kind: 'file' },
    });
    expect(files.activity.map((entry) => entry.label).sort()).toEqual([
      'shop-front.jpg',
      'wireframes-v2.pdf',
    ]);
  });

  it('says a file has no contents in the demo, and writes stay unavailable', async () => {
    const call = api();
    const link = call(getDownloadUrl, { query: { id: demoIds.file(1), version: '1' } });
    await expect(link).rejects.toBeInstanceOf(ApiError);
    await expect(link).rejects.toThrow(DEMO_FILE_NOTE);
    const save = call(updateWorkspaceSettings, {
      query: { workspaceId: DEMO_WORKSPACE_ID },
      body: { name: 'X' },
    });
    await expect(save).rejects.toThrow(/^Not available in the demo: create your account/);
  });
});
