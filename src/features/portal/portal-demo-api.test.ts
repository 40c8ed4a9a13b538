import * as v from 'valibot';
import {
  authenticatePortal,
  decideChangeRequest,
  generateSasUrl,
  getClientProject,
  getPortalChangeRequests,
  getPortalFiles,
  getPortalMilestones,
  getPortalWorkspaceSettings,
  signOffMilestone,
  submitChangeRequest,
} from '#contract/endpoints/client-portal.ts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createPortalDemo } from './portal-demo-api.ts';
import { demoDay, demoDayKey, portalDemoSeed, samplePdf } from './portal-demo-data.ts';
import { portalSnapshotSchema } from './portal-snapshot.ts';

const today = new Date(2026, 2, 10);
const otherId = '0192f3a0-0000-7000-8000-0000000000ee';

interface Refusal {
  status: number;
  body: { error: { code: string; message: string; details?: unknown } };
}

async function refusal(promise: Promise<unknown>): Promise<Refusal> {
  try {
    await promise;
  } catch (error) {
    return error as Refusal;
  }
  throw new Error('expected the demo to refuse');
}

let clock: number;
let fetchSpy: ReturnType<typeof vi.fn>;

beforeEach(() => {
  clock = new Date(2026, 2, 10, 15, 0).getTime();
  fetchSpy = vi.fn(() => Promise.reject(new Error('no network in the demo')));
  vi.stubGlobal('fetch', fetchSpy);
});

afterEach(() => {
  // The demo plays the server in the page: not one call may leave it.
  expect(fetchSpy).not.toHaveBeenCalled();
  vi.unstubAllGlobals();
});

function setup() {
  const demo = createPortalDemo({ today, now: () => clock });
  const { callEndpoint, projectId } = demo;
  const quoteId = portalDemoSeed(today).changeRequests.find((r) => r.status === 'quoted')!.id;
  const milestones = async () =>
    (await callEndpoint(getPortalMilestones, { query: { projectId } })).milestones;
  const requests = async () =>
    (await callEndpoint(getPortalChangeRequests, { query: { projectId } })).changeRequests;
  return { demo, callEndpoint, projectId, quoteId, milestones, requests };
}

describe('portal demo reads', () => {
  it('answer the sample project in the contract’s shapes, without what members hid', async () => {
    const { demo, callEndpoint, projectId } = setup();
    const { project } = await callEndpoint(getClientProject, { query: { id: projectId } });
    const { milestones } = await callEndpoint(getPortalMilestones, { query: { projectId } });
    const { files } = await callEndpoint(getPortalFiles, { query: { projectId } });
    const { workspace } = await callEndpoint(getPortalWorkspaceSettings, {
      query: { workspaceId: project.workspaceId },
    });
    const { changeRequests } = await callEndpoint(getPortalChangeRequests, {
      query: { projectId },
    });

    expect(project).toMatchObject({ id: projectId, clientId: demo.clientId, status: 'active' });
    expect(workspace.name).toBe('Studio North');
    expect(milestones.map((m) => m.title)).toEqual([
      'Discovery and moodboard',
      'Homepage and menu pages',
      'Online ordering',
      'Launch',
    ]);
    expect(milestones[0]).not.toHaveProperty('visibleToClient');
    expect(files.map((f) => `${f.folder}/${f.name}`)).toEqual([
      'Brand/Colour palette.svg',
      'Content/Menu copy.txt',
      'Design/Homepage design v3.pdf',
    ]);
    expect(files[0]).not.toHaveProperty('content');
    // Newest first, and one quote waits for the client.
    expect(changeRequests.map((r) => r.status)).toEqual(['submitted', 'quoted', 'approved']);
    // What the page paints first is what the reads answer, and reads back as a valid copy.
    const snapshot = v.parse(portalSnapshotSchema, JSON.parse(JSON.stringify(demo.snapshot())));
    expect(snapshot).toMatchObject({ project, milestones, files, workspace, changeRequests });
  });

  it('refuse another project or workspace with a 403, and a bad id with a 400', async () => {
    const { callEndpoint, projectId } = setup();
    expect((await refusal(callEndpoint(getClientProject, { query: { id: otherId } }))).status).toBe(
      403,
    );
    for (const endpoint of [getPortalMilestones, getPortalFiles, getPortalChangeRequests]) {
      expect(
        (await refusal(callEndpoint(endpoint, { query: { projectId: otherId } }))).status,
      ).toBe(403);
    }
    expect(
      (await refusal(callEndpoint(getPortalWorkspaceSettings, { query: { workspaceId: otherId } })))
        .status,
    ).toBe(403);
    const invalid = await refusal(callEndpoint(getPortalMilestones, { query: { projectId: 'x' } }));
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.details).toEqual([
      { path: 'query.projectId', message: 'Must be a valid id' },
    ]);
    // Still fine for its own project.
    await expect(callEndpoint(getPortalFiles, { query: { projectId } })).resolves.toBeTruthy();
  });

  it('answer what the portal has no business with (the password gate) with a 404', async () => {
    const { callEndpoint, projectId } = setup();
    const error = await refusal(
      callEndpoint(authenticatePortal, { query: {}, body: { projectId, password: 'whatever1' } }),
    );
    expect(error.status).toBe(404);
  });
});

describe('portal demo sign-off', () => {
  it('needs a comment to ask for changes, as the server does', async () => {
    const { callEndpoint, projectId, milestones } = setup();
    const milestoneId = (await milestones())[1]!.id;
    for (const comment of [undefined, '   ']) {
      const error = await refusal(
        callEndpoint(signOffMilestone, {
          query: {},
          body: { projectId, milestoneId, decision: 'changes_requested', comment },
        }),
      );
      expect(error.status).toBe(400);
      expect(error.body.error.code).toBe('VALIDATION_FAILED');
      expect(error.body.error.details).toEqual([
        { path: 'body.comment', message: 'Say what should change' },
      ]);
    }
    expect((await milestones())[1]!.status).toBe('awaiting_approval');

    const { milestone } = await callEndpoint(signOffMilestone, {
      query: {},
      body: { projectId, milestoneId, decision: 'changes_requested', comment: ' Bigger logo ' },
    });
    expect(milestone.status).toBe('changes_requested');
    expect(milestone.signOff).toEqual({
      decision: 'changes_requested',
      by: 'Maya’s Bakery',
      at: new Date(clock).toISOString(),
      comment: 'Bigger logo',
    });
  });

  it('approves once: an approved milestone answers 409 and stays as it was', async () => {
    const { callEndpoint, projectId, milestones } = setup();
    const milestoneId = (await milestones())[1]!.id;
    const { milestone } = await callEndpoint(signOffMilestone, {
      query: {},
      body: { projectId, milestoneId, decision: 'approved' },
    });
    expect(milestone).toMatchObject({
      status: 'approved',
      signOff: { decision: 'approved', by: 'Maya’s Bakery', comment: null },
    });
    expect((await milestones())[1]).toEqual(milestone);

    clock += 60_000;
    const again = await refusal(
      callEndpoint(signOffMilestone, {
        query: {},
        body: { projectId, milestoneId, decision: 'changes_requested', comment: 'Wait' },
      }),
    );
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe('This milestone is already approved.');
    expect((await milestones())[1]).toEqual(milestone);
  });

  it('refuses a milestone a member hid, or of another project, with a 403', async () => {
    const { callEndpoint, projectId } = setup();
    const hidden = portalDemoSeed(today).milestones.find((m) => !m.visibleToClient)!;
    expect(
      (
        await refusal(
          callEndpoint(signOffMilestone, {
            query: {},
            body: { projectId, milestoneId: hidden.id, decision: 'approved' },
          }),
        )
      ).status,
    ).toBe(403);
    expect(
      (
        await refusal(
          callEndpoint(signOffMilestone, {
            query: {},
            body: { projectId: otherId, milestoneId: hidden.id, decision: 'approved' },
          }),
        )
      ).status,
    ).toBe(403);
  });
});

describe('portal demo change requests', () => {
  const newId = '0192f3a0-0000-4000-8000-000000000c99';

  it('checks the title, then stores a new request first in the list, once per id', async () => {
    const { callEndpoint, projectId, requests } = setup();
    const empty = await refusal(
      callEndpoint(submitChangeRequest, { query: {}, body: { id: newId, projectId, title: '' } }),
    );
    expect(empty.status).toBe(400);
    expect((empty.body.error.details as { path: string }[])[0]?.path).toBe('body.title');

    const body = {
      id: newId,
      projectId,
      title: 'A page for wedding cakes',
      description: 'With a price list.',
      desiredDate: '2026-04-01',
    };
    const { changeRequest } = await callEndpoint(submitChangeRequest, { query: {}, body });
    expect(changeRequest).toMatchObject({
      id: newId,
      title: 'A page for wedding cakes',
      description: 'With a price list.',
      desiredDate: '2026-04-01',
      status: 'submitted',
      source: 'portal',
      currency: 'USD',
      createdAt: new Date(clock).toISOString(),
    });
    // Sent again (the page's offline queue): the same request, not a second one.
    clock += 1_000;
    const again = await callEndpoint(submitChangeRequest, { query: {}, body });
    expect(again.changeRequest).toEqual(changeRequest);
    const list = await requests();
    expect(list[0]).toEqual(changeRequest);
    expect(list.filter((r) => r.id === newId)).toHaveLength(1);
  });

  it('keeps an attached file in memory among the files and takes it on a request; another id is a 422', async () => {
    const { demo, callEndpoint, projectId, requests } = setup();
    const progress: number[] = [];
    const upload = demo.uploadFile(new File(['photo bytes'], 'shop.jpg', { type: 'image/jpeg' }), {
      projectId,
      onProgress: (sent) => progress.push(sent),
    });
    const fileId = await upload.done;
    expect(progress.at(-1)).toBe(11);
    const { files } = await callEndpoint(getPortalFiles, { query: { projectId } });
    expect(files.find((f) => f.id === fileId)).toMatchObject({
      name: 'shop.jpg',
      folder: 'From client',
      size: 11,
      type: 'image/jpeg',
    });
    const unknown = await refusal(
      callEndpoint(submitChangeRequest, {
        query: {},
        body: { id: newId, projectId, title: 'Use my photo', attachmentFileIds: [otherId] },
      }),
    );
    expect(unknown.status).toBe(422);
    expect(await requests()).not.toContainEqual(expect.objectContaining({ id: newId }));
    const { changeRequest } = await callEndpoint(submitChangeRequest, {
      query: {},
      body: { id: newId, projectId, title: 'Use my photo', attachmentFileIds: [fileId] },
    });
    expect(changeRequest.attachmentFileIds).toEqual([fileId]);
  });

  it('refuses an id that a member’s request already has (409)', async () => {
    const { callEndpoint, projectId, requests } = setup();
    const members = (await requests()).find((r) => r.source === 'member')!;
    const error = await refusal(
      callEndpoint(submitChangeRequest, {
        query: {},
        body: { id: members.id, projectId, title: 'Mine now' },
      }),
    );
    expect(error.status).toBe(409);
  });

  it('takes at most 30 new requests an hour', async () => {
    const { callEndpoint, projectId } = setup();
    const id = (n: number) => `0192f3a0-0000-4000-8000-${String(n).padStart(12, '0')}`;
    for (let n = 0; n < 30; n += 1) {
      await callEndpoint(submitChangeRequest, {
        query: {},
        body: { id: id(n), projectId, title: `Change ${n}` },
      });
    }
    const limited = await refusal(
      callEndpoint(submitChangeRequest, { query: {}, body: { id: id(30), projectId, title: 'X' } }),
    );
    expect(limited.status).toBe(429);
    clock += 60 * 60_000;
    await expect(
      callEndpoint(submitChangeRequest, { query: {}, body: { id: id(30), projectId, title: 'X' } }),
    ).resolves.toBeTruthy();
  });

  it('answers a quote once: accepted, then 409; a request without a quote is a 409 too', async () => {
    const { callEndpoint, projectId, quoteId, requests } = setup();
    const { changeRequest } = await callEndpoint(decideChangeRequest, {
      query: {},
      body: { id: quoteId, projectId, decision: 'accepted', comment: ' Go ahead ' },
    });
    expect(changeRequest).toMatchObject({
      status: 'accepted',
      clientDecision: {
        decision: 'accepted',
        at: new Date(clock).toISOString(),
        comment: 'Go ahead',
      },
      costImpact: 45_000,
      scheduleImpactDays: 3,
    });
    expect((await requests()).find((r) => r.id === quoteId)).toEqual(changeRequest);

    const again = await refusal(
      callEndpoint(decideChangeRequest, {
        query: {},
        body: { id: quoteId, projectId, decision: 'declined' },
      }),
    );
    expect(again.status).toBe(409);
    expect(again.body.error.details).toEqual({ status: 'accepted' });

    const submitted = (await requests()).find((r) => r.status === 'submitted')!;
    expect(
      (
        await refusal(
          callEndpoint(decideChangeRequest, {
            query: {},
            body: { id: submitted.id, projectId, decision: 'accepted' },
          }),
        )
      ).status,
    ).toBe(409);
    expect(
      (
        await refusal(
          callEndpoint(decideChangeRequest, {
            query: {},
            body: { id: otherId, projectId, decision: 'accepted' },
          }),
        )
      ).status,
    ).toBe(403);
  });

  it('records a declined quote as quote_declined', async () => {
    const { callEndpoint, projectId, quoteId } = setup();
    const { changeRequest } = await callEndpoint(decideChangeRequest, {
      query: {},
      body: { id: quoteId, projectId, decision: 'declined' },
    });
    expect(changeRequest.status).toBe('quote_declined');
    expect(changeRequest.clientDecision?.comment).toBeNull();
  });
});

describe('portal demo downloads', () => {
  it('sign a link to a visible file’s own bytes, and refuse a hidden one', async () => {
    const { demo, callEndpoint, projectId } = setup();
    const { files } = await callEndpoint(getPortalFiles, { query: { projectId } });
    const pdf = files.find((f) => f.type === 'application/pdf')!;
    const { sasUrl, expiresAt } = await callEndpoint(generateSasUrl, {
      query: { blobName: pdf.blobName, projectId, expiryMinutes: '10' },
    });
    expect(sasUrl.startsWith('data:application/pdf;base64,')).toBe(true);
    expect(expiresAt).toBe(new Date(clock + 10 * 60_000).toISOString());
    const file = demo.fileOfLink(sasUrl)!;
    expect(file.name).toBe('Homepage design v3.pdf');
    // The size the list shows is the size of what downloads.
    expect(file.bytes.size).toBe(pdf.size);
    expect(atob(sasUrl.split(',')[1]!)).toBe(await file.bytes.text());
    expect(demo.fileOfLink('https://example.com/other')).toBeNull();

    const hidden = portalDemoSeed(today).files.find((f) => !f.visibleToClient)!;
    const refused = await refusal(
      callEndpoint(generateSasUrl, { query: { blobName: hidden.blobName, projectId } }),
    );
    expect(refused.status).toBe(403);
    const tooLong = await refusal(
      callEndpoint(generateSasUrl, {
        query: { blobName: pdf.blobName, projectId, expiryMinutes: '5000' },
      }),
    );
    expect(tooLong.status).toBe(400);
  });

  it('make a PDF whose cross-reference table points at its objects', () => {
    const pdf = samplePdf('Title (draft)', ['Line one', 'Maya’s line']);
    expect(pdf.startsWith('%PDF-1.4\n')).toBe(true);
    const xref = Number(/startxref\n(\d+)\n%%EOF\n$/.exec(pdf)?.[1]);
    expect(pdf.slice(xref, xref + 4)).toBe('xref');
    const offsets = [...pdf.slice(xref).matchAll(/^(\d{10}) 00000 n $/gm)].map((m) => Number(m[1]));
    expect(offsets).toHaveLength(5);
    offsets.forEach((offset, index) =>
      expect(pdf.slice(offset).startsWith(`${index + 1} 0 obj\n`)).toBe(true),
    );
    expect(pdf).toContain('(Title \\(draft\\)) Tj');
    expect(pdf).toContain("(Maya's line) Tj");
    const length = Number(/\/Length (\d+) >>\nstream\n/.exec(pdf)?.[1]);
    const stream = pdf.slice(pdf.indexOf('stream\n') + 7, pdf.indexOf('\nendstream'));
    expect(stream.length).toBe(length);
  });
});

describe('portal demo dates', () => {
  it('date the sample from the given day, and read a day back from its key', () => {
    const seed = portalDemoSeed(today);
    expect(seed.project.startDate).toBe('2026-01-24');
    expect(seed.project.dueDate).toBe('2026-04-19');
    // Everything already said happened before the visit.
    for (const request of seed.changeRequests) {
      expect(Date.parse(request.createdAt)).toBeLessThan(today.getTime());
    }
    expect(demoDayKey(demoDay('2026-03-10'))).toBe('2026-03-10');
    expect(demoDayKey(demoDay('2026-02-31'))).toBe(demoDayKey(new Date()));
    expect(demoDayKey(demoDay(null))).toBe(demoDayKey(new Date()));
  });
});
