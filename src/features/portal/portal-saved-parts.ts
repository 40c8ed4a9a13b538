/**
 * The two sections of the portal that load on their own keep their part of the project's copy
 * beside it (portal-snapshot.ts), each with its own time: the invoices (the `get-invoices` answer,
 * which is all the invoice view and its document model are built from) and the chat's newest page.
 * Separate entries, so the chat's reads every 15 s do not rewrite the project, and no section's
 * write races another's. A module of its own: only the live page reads these, and their schemas
 * (the invoices', the chat's) stay out of the copy painted before it.
 */
import * as v from 'valibot';
import { getPortalInvoices } from '#contract/endpoints/invoice.ts';
import { PORTAL_CHAT_PAGE, portalChatMessageSchema } from '#contract/endpoints/portal-chat.ts';
import { portalSavedPartKey, type PortalSavedPartName } from './portal-snapshot.ts';

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
} satisfies Record<PortalSavedPartName, unknown>;
type PartName = PortalSavedPartName;
type PartOf<Name extends PartName> = v.InferOutput<(typeof parts)[Name]>;

/** A section's part of the project's copy; null when none is kept or it no longer reads. */
export function readPortalSavedPart<Name extends PartName>(
  storage: Pick<Storage, 'getItem'> | undefined,
  projectId: string,
  part: Name,
): PartOf<Name> | null {
  try {
    const raw = storage?.getItem(portalSavedPartKey(projectId, part));
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
    if (value === null) storage?.removeItem(portalSavedPartKey(projectId, part));
    else storage?.setItem(portalSavedPartKey(projectId, part), JSON.stringify(value));
  } catch {
    // Storage full or refused: the section works online; only its offline copy is missing.
  }
}
