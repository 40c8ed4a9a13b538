/**
 * Deleting your own account (issue 18, "Account deletion"). Two operations: the plan (what will
 * happen to each of your workspaces, so the dialog can show it and offer a choice), and the
 * deletion itself, which needs a fresh proof that the person at the keyboard is the account's
 * owner: the password, or the code the auth service mails on `GET /auth/v1/reauthenticate`
 * (GoTrue's reauthentication nonce, for accounts without a password). An account with a verified
 * second factor is already held to aal2 on every user operation, so the factor is proven too.
 *
 * Nothing here names a user id to delete: the account is always the caller's (the bearer token).
 */
import * as v from 'valibot';
import { defineEndpoint, emptyQuerySchema } from '../define-endpoint.ts';
import { idSchema } from '../entities/ids.ts';
import { workspaceRoles } from '../entities/workspace.ts';
import { text } from '../text.ts';

/** The words the user types to confirm; the dialog checks them, the server needs the proof. */
export const DELETE_ACCOUNT_CONFIRMATION = 'DELETE';

/** What happens to one workspace the caller is in when the account goes. */
export const workspaceFates = ['transfer', 'delete', 'leave'] as const;
export type WorkspaceFate = (typeof workspaceFates)[number];

export const accountDeletionCandidateSchema = v.object({
  userId: text(),
  name: text(),
  email: text(),
  role: v.picklist(workspaceRoles),
});
export type AccountDeletionCandidate = v.InferOutput<typeof accountDeletionCandidateSchema>;

export const accountDeletionWorkspaceSchema = v.object({
  workspaceId: text(),
  name: text(),
  role: v.picklist(workspaceRoles),
  /**
   * `transfer`: you own it and others are in it (it passes to `defaultNewOwnerId` unless you
   * choose another of `candidates`); `delete`: you own it alone (it goes with its data and
   * files); `leave`: you are an admin or member (your membership ends, the work stays).
   */
  fate: v.picklist(workspaceFates),
  /** The other members, next owner first (admins by seniority, then members); transfer only. */
  candidates: v.array(accountDeletionCandidateSchema),
  defaultNewOwnerId: v.nullable(text()),
  /** What a deleted workspace takes with it; zeros unless `delete`. */
  counts: v.object({
    clients: v.number(),
    projects: v.number(),
    files: v.number(),
    fileBytes: v.number(),
  }),
});
export type AccountDeletionWorkspace = v.InferOutput<typeof accountDeletionWorkspaceSchema>;

export const accountDeletionPlanSchema = v.object({
  email: text(),
  /** The account signs in with a password: the dialog asks for it, otherwise for a mailed code. */
  hasPassword: v.boolean(),
  workspaces: v.array(accountDeletionWorkspaceSchema),
});
export type AccountDeletionPlan = v.InferOutput<typeof accountDeletionPlanSchema>;

export const getAccountDeletionPlan = defineEndpoint({
  resource: 'account',
  operation: 'get-account-deletion-plan',
  method: 'GET',
  auth: 'user',
  summary:
    'What deleting your account would do to each of your workspaces: handed to the next owner, deleted with its data, or left.',
  query: emptyQuerySchema,
  output: v.object({ plan: accountDeletionPlanSchema }),
});

const proofText = (message: string) =>
  v.pipe(text(message), v.minLength(1, message), v.maxLength(1000, 'That is too long'));

export const deleteAccountInputSchema = v.pipe(
  v.strictObject({
    /** The account's password (accounts that have one). */
    password: v.optional(proofText('Enter your password')),
    /** The 6-digit code mailed by /auth/v1/reauthenticate (accounts without a password). */
    nonce: v.optional(
      v.pipe(
        text('Enter the code from the mail'),
        v.trim(),
        v.regex(/^\d{6}$/, 'The code is the 6 digits from the mail'),
      ),
    ),
    /**
     * One decision per owned workspace that has other members: who owns it next (null: the
     * default, the next admin, else the longest-standing member). A shared workspace you own
     * without an entry here is refused (409) so nobody's workspace changes hands by accident.
     */
    workspaces: v.optional(
      v.pipe(
        v.array(
          v.strictObject({
            workspaceId: idSchema,
            newOwnerId: v.optional(v.nullable(idSchema), null),
          }),
        ),
        v.maxLength(1000, 'Too many workspaces'),
      ),
      [],
    ),
  }),
  v.check(
    (input) => (input.password === undefined) !== (input.nonce === undefined),
    'Confirm it is you: send your password or the code from the mail (one of them)',
  ),
);
export type DeleteAccountInput = v.InferInput<typeof deleteAccountInputSchema>;

export const deleteAccount = defineEndpoint({
  resource: 'account',
  operation: 'delete-account',
  method: 'POST',
  auth: 'user',
  summary:
    'Deletes your account after re-authentication: shared workspaces you own pass to the chosen member, workspaces only you are in are deleted with their data and files, every session ends, and a confirmation is mailed.',
  query: emptyQuerySchema,
  body: deleteAccountInputSchema,
  output: v.object({
    deleted: v.literal(true),
    transferred: v.array(v.object({ workspaceId: text(), newOwnerId: text() })),
    deletedWorkspaceIds: v.array(text()),
    leftWorkspaceIds: v.array(text()),
  }),
});
