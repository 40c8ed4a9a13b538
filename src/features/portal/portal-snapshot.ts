/**
 * What the client last saw of their project, kept on the device so the portal opens offline
 * ("as of <time>"). One entry per project in localStorage: small (a project, its milestones, file
 * list and change requests), read before the first paint, and checked against the contract's schemas on the way
 * back in, so a stale or tampered entry is dropped rather than shown.
 *
 * Two sections load on their own and keep their part of the copy beside it, each with its own
 * time: the invoices (the `get-invoices` answer, which is all the invoice view and its document
 * model are built from) and the chat's newest page. Separate entries, so the chat's reads every
 * 15 s do not rewrite the project, and no section's write races another's; "Leave portal"
 * forgets all three.
 */
import * as v from 'valibot';
import {
  portalChangeRequestSchema,
  portalFileSchema,
  portalMilestoneSchema,
  portalProjectSchema,
  portalWorkspaceSchema,
} from '#contract/endpoints/client-portal.ts';
import { getPortalInvoices } from '#contract/endpoints/invoice.ts';
import { PORTAL_CHAT_PAGE, portalChatMessageSchema } from '#contract/endpoints/portal-chat.ts';

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

const savedInvoicesSchema = v.object({
  /** Epoch milliseconds of the server's answer. */
  savedAt: v.pipe(v.number(), v.finite()),
  answer: getPortalInvoices.output,
});
export type SavedPortalInvoices = v.InferOutput<typeof savedInvoicesSchema>;

const savedChatSchema = v.object({
  /** Epoch milliseconds of the server's answer. */
  savedAt: v.pipe(v.number(), v.finite()),
  /** The newest page, oldest first. */
  messages: v.pipe(v.array(portalChatMessageSchema), v.maxLength(PORTAL_CHAT_PAGE)),
  hasOlder: v.boolean(),
});
export type SavedPortalChat = v.InferOutput<typeof savedChatSchema>;

const parts = {
  invoices: savedInvoicesSchema,
  chat: savedChatSchema,
};
type PartName = keyof typeof parts;
type PartOf<Name extends PartName> = v.InferOutput<(typeof parts)[Name]>;

const partKeyOf = (projectId: string, part: PartName) => `${keyOf(projectId)}:${part}`;

/** A section's part of the project's copy; null when none is kept or it no longer reads. */
export function readPortalSavedPart<Name extends PartName>(
  storage: Pick<Storage, 'getItem'> | undefined,
  projectId: string,
  part: Name,
): PartOf<Name> | null {
  try {
    const raw = storage?.getItem(partKeyOf(projectId, part));
    if (!raw) return null;
    const parsed = v.safeParse(parts[part], JSON.parse(raw));
    return parsed.success ? parsed.output : null;
  } catch {
    return null;
  }
}

/** Keeps a section's part of the copy; null forgets it (the chat was turned off, say). */
export function writePortalSavedPart<Name extends PartName>(
  storage: Pick<Storage, 'setItem' | 'removeItem'> | undefined,
  projectId: string,
  part: Name,
  value: PartOf<Name> | null,
): void {
  try {
    if (value === null) storage?.removeItem(partKeyOf(projectId, part));
    else storage?.setItem(partKeyOf(projectId, part), JSON.stringify(value));
  } catch {
    // Storage full or refused: the section works online; only its offline copy is missing.
  }
}

export function removePortalSnapshot(
  storage: Pick<Storage, 'removeItem'> | undefined,
  projectId: string,
): void {
  try {
    storage?.removeItem(keyOf(projectId));
    for (const part of Object.keys(parts) as PartName[]) {
      storage?.removeItem(partKeyOf(projectId, part));
    }
  } catch {
    // Nothing to do.
  }
}
