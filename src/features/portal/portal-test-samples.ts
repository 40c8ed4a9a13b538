/**
 * One client's project as the portal answers it, for the portal screens' and the static copy's
 * tests: the same ids, names and dates, so a test of the copy and one of the live page describe
 * the same page. `overrides` set what a test is about.
 */
import type {
  PortalFile,
  PortalMilestone,
  PortalProject,
  PortalWorkspace,
} from '#contract/endpoints/client-portal.ts';

export const sampleProjectId = '0192f3a0-0000-7000-8000-0000000000aa';
export const sampleClientId = '0192f3a0-0000-7000-8000-0000000000bb';
export const sampleWorkspaceId = '0192f3a0-0000-7000-8000-0000000000cc';

export function sampleProject(overrides: Partial<PortalProject> = {}): PortalProject {
  return {
    id: sampleProjectId,
    clientId: sampleClientId,
    workspaceId: sampleWorkspaceId,
    clientName: 'Acme Bakery',
    name: 'Shop front',
    description: null,
    status: 'active',
    startDate: '2026-03-01',
    dueDate: '2026-04-30',
    updatedAt: '2026-03-02T10:00:00.000Z',
    ...overrides,
  };
}

/** An approved milestone with its sign-off, then one in `secondStatus` with no amount. */
export function sampleMilestones(secondStatus: PortalMilestone['status']): PortalMilestone[] {
  return [
    {
      id: 'm1',
      title: 'Sketches',
      description: null,
      dueDate: '2026-03-10',
      amount: 120_000,
      currency: 'EUR',
      status: 'approved',
      position: 'a0',
      signOff: {
        decision: 'approved',
        by: 'Acme Bakery',
        at: '2026-03-11T09:00:00.000Z',
        comment: null,
      },
    },
    {
      id: 'm2',
      title: 'Final art',
      description: 'Print-ready files.',
      dueDate: null,
      amount: null,
      currency: 'EUR',
      status: secondStatus,
      position: 'a1',
      signOff: null,
    },
  ];
}

/** A PDF in a folder, then a small SVG at the top level. */
export function sampleFiles(): PortalFile[] {
  return [
    {
      id: 'f1',
      name: 'handover.pdf',
      folder: 'Final',
      size: 2_048,
      type: 'application/pdf',
      blobName: '0192f3a0-0000-7000-8000-0000000000dd',
      version: 2,
      updatedAt: '2026-03-12T09:00:00.000Z',
    },
    {
      id: 'f2',
      name: 'sign.svg',
      folder: '',
      size: 90,
      type: 'image/svg+xml',
      blobName: '0192f3a0-0000-7000-8000-0000000000de',
      version: 1,
      updatedAt: '2026-03-13T09:00:00.000Z',
    },
  ];
}

export function sampleWorkspace(overrides: Partial<PortalWorkspace> = {}): PortalWorkspace {
  return {
    id: sampleWorkspaceId,
    name: 'Studio Ada',
    logoUrl: null,
    brandColor: null,
    welcomeText: 'Welcome! Everything for your shop front is here.',
    branding: 'satchel',
    ...overrides,
  };
}
