/**
 * What the client last saw of their project, kept on the device so the portal opens offline
 * ("as of <time>"). One entry per project in localStorage: small (a project, its milestones, file
 * list and change requests), read before the first paint, and checked against the contract's schemas on the way
 * back in, so a stale or tampered entry is dropped rather than shown.
 *
 * Two sections load on their own and keep their part of the copy beside it, each with its own
 * time (portal-saved-parts.ts); "Leave portal" forgets all three.
 */
import * as v from 'valibot';
import {
  portalChangeRequestSchema,
  portalFileSchema,
  portalMilestoneSchema,
  portalProjectSchema,
  portalWorkspaceSchema,
} from '#contract/endpoints/client-portal.ts';

export const portalSnapshotSchema = v.object({
  /** Epoch milliseconds of the server's answer. */
  savedAt: v.pipe(v.number(), v.finite()),
  project: portalProjectSchema,
  milestones: v.array(portalMilestoneSchema),
  files: v.array(portalFileSchema),
  workspace: portalWorkspaceSchema,
  /** Newest first. Copies saved before change requests were kept read back as none. */
  changeRequests: v.optional(v.array(portalChangeRequestSchema), []),
});
export type PortalSnapshot = v.InferOutput<typeof portalSnapshotSchema>;
export type PortalSnapshotInput = v.InferInput<typeof portalSnapshotSchema>;

const keyOf = (projectId: string) => `satchel-portal-snapshot:${projectId}`;

export function readPortalSnapshot(
  storage: Pick<Storage, 'getItem'> | undefined,
  projectId: string,
): PortalSnapshot | null {
  try {
    const raw = storage?.getItem(keyOf(projectId));
    if (!raw) return null;
    const parsed = v.safeParse(portalSnapshotSchema, JSON.parse(raw));
    return parsed.success && parsed.output.project.id === projectId ? parsed.output : null;
  } catch {
    return null;
  }
}

export function writePortalSnapshot(
  storage: Pick<Storage, 'setItem'> | undefined,
  snapshot: PortalSnapshotInput,
): void {
  try {
    storage?.setItem(keyOf(snapshot.project.id), JSON.stringify(snapshot));
  } catch {
    // Storage full or refused: the page works online; only the offline copy is missing.
  }
}

/**
 * The sections that keep their own part of the copy (portal-saved-parts.ts holds their schemas,
 * so the copy painted before the live page does not evaluate the invoices' and the chat's).
 */
export const PORTAL_SAVED_PARTS = ['invoices', 'chat'] as const;
export type PortalSavedPartName = (typeof PORTAL_SAVED_PARTS)[number];

export const portalSavedPartKey = (projectId: string, part: PortalSavedPartName) =>
  `${keyOf(projectId)}:${part}`;

export function removePortalSnapshot(
  storage: Pick<Storage, 'removeItem'> | undefined,
  projectId: string,
): void {
  try {
    storage?.removeItem(keyOf(projectId));
    for (const part of PORTAL_SAVED_PARTS) storage?.removeItem(portalSavedPartKey(projectId, part));
  } catch {
    // Nothing to do.
  }
}
