/**
 * Members of a workspace and the invitations that bring new ones in (issue 17).
 *
 * Each workspace-scoped operation declares here, once, the roles that may call it (`roles`); the
 * server's handlers check the caller's role against that declaration and nothing else, and the
 * role table in ARCHITECTURE.md ("Roles") is this list in words. Rules that depend on the target
 * rather than the caller (nobody removes the owner, the owner leaves only after handing
 * ownership over) are business rules in the handlers, answered 403 or 422 with their reason.
 *
 * Invitations are server state, not synced data: a token only means something to a server that
 * can answer it, so inviting and every change of membership need the network. Only a hash of a
 * token is stored; its link is shown once, when the invitation is made.
 */
import * as v from 'valibot';
import { defineEndpoint, type EndpointDefinition } from '../define-endpoint.ts';
import { idSchema } from '../entities/ids.ts';
import {
  workspaceMemberSchema,
  workspaceRoles,
  type WorkspaceRole,
} from '../entities/workspace.ts';
import { text } from '../text.ts';

/** The roles allowed to call an operation, attached to its declaration. */
export type WithRoles<E extends EndpointDefinition> = E & {
  readonly roles: readonly WorkspaceRole[];
};

function withRoles<E extends EndpointDefinition>(
  endpoint: E,
  roles: readonly WorkspaceRole[],
): WithRoles<E> {
  return { ...endpoint, roles };
}

const MANAGERS = ['owner', 'admin'] as const satisfies readonly WorkspaceRole[];
const EVERYONE = workspaceRoles;

/** The path of the invite page; the token follows. */
export const INVITE_PATH = '/invite/';
export const DEFAULT_INVITE_DAYS = 7;
export const MAX_INVITE_DAYS = 30;
export const MAX_INVITE_USES = 100;

/** 32 random bytes, base64url: the whole secret of an invitation. */
export const inviteTokenSchema = v.pipe(
  text('The invite link is not valid'),
  v.regex(/^[A-Za-z0-9_-]{43}$/, 'The invite link is not valid. Check that you have all of it.'),
);

/** Roles an invitation can give: ownership changes hands only through transfer-ownership. */
export const invitableRoles = ['admin', 'member'] as const;
export type InvitableRole = (typeof invitableRoles)[number];

export const inviteStatuses = ['active', 'expired', 'revoked', 'used_up'] as const;
export type InviteStatus = (typeof inviteStatuses)[number];

export const workspaceInviteSchema = v.object({
  id: text(),
  workspaceId: text(),
  /** null: a link invitation, for whoever holds the link. */
  email: v.nullable(text()),
  role: v.picklist(invitableRoles),
  /** null: any number of people until it expires. */
  maxUses: v.nullable(v.number()),
  useCount: v.number(),
  expiresAt: text(),
  revokedAt: v.nullable(text()),
  createdAt: text(),
  createdBy: text(),
  createdByName: text(),
  status: v.picklist(inviteStatuses),
});
export type WorkspaceInvite = v.InferOutput<typeof workspaceInviteSchema>;

const workspaceQuery = v.strictObject({ workspaceId: idSchema });

export const createWorkspaceInviteInputSchema = v.pipe(
  v.strictObject({
    /** Mailed an invitation for that address; absent or null: a link to copy. */
    email: v.optional(
      v.nullable(
        v.pipe(
          text('The email must be text'),
          v.trim(),
          v.email('Enter an email address like name@example.com'),
          v.maxLength(254, 'That email address is too long'),
        ),
      ),
      null,
    ),
    /** `owner` is accepted by the schema so that the refusal can say why (422). */
    role: v.picklist(workspaceRoles, 'Choose a role: admin or member'),
    expiresInDays: v.optional(
      v.pipe(
        v.number('expiresInDays is a number of days'),
        v.integer('expiresInDays is a whole number of days'),
        v.minValue(1, 'An invitation lasts at least 1 day'),
        v.maxValue(MAX_INVITE_DAYS, `An invitation lasts at most ${MAX_INVITE_DAYS} days`),
      ),
      DEFAULT_INVITE_DAYS,
    ),
    /** 1: single use; null: anyone with the link until it expires. */
    maxUses: v.optional(
      v.nullable(
        v.pipe(
          v.number('maxUses is a number'),
          v.integer('maxUses is a whole number'),
          v.minValue(1, 'Allow at least 1 use'),
          v.maxValue(MAX_INVITE_USES, `At most ${MAX_INVITE_USES} uses`),
        ),
      ),
      1,
    ),
  }),
  v.check(
    (input) => input.email === null || input.maxUses === 1,
    'An email invitation is for one person: it is single-use',
  ),
);

export const createWorkspaceInvite = withRoles(
  defineEndpoint({
    resource: 'workspace-invite',
    operation: 'create-workspace-invite',
    method: 'POST',
    auth: 'user',
    summary:
      'Invites someone as admin or member, by email (mailed) or as a link to copy; expires in 1-30 days (7 by default), single- or multi-use. The link is in this answer only.',
    query: workspaceQuery,
    body: createWorkspaceInviteInputSchema,
    output: v.object({ invite: workspaceInviteSchema, url: text() }),
    status: 201,
    secretOutput: true,
  }),
  MANAGERS,
);

export const getWorkspaceInvites = withRoles(
  defineEndpoint({
    resource: 'workspace-invite',
    operation: 'get-workspace-invites',
    method: 'GET',
    auth: 'user',
    summary: "A workspace's invitations, newest first, with their status.",
    query: workspaceQuery,
    output: v.object({ invites: v.array(workspaceInviteSchema) }),
  }),
  MANAGERS,
);

export const revokeWorkspaceInvite = withRoles(
  defineEndpoint({
    resource: 'workspace-invite',
    operation: 'revoke-workspace-invite',
    method: 'POST',
    auth: 'user',
    summary: 'Turns an invitation off for good; revoking a revoked one answers it unchanged.',
    query: v.strictObject({ workspaceId: idSchema, id: idSchema }),
    output: v.object({ invite: workspaceInviteSchema }),
  }),
  MANAGERS,
);

export const invitePreviewSchema = v.object({
  workspaceName: text(),
  role: v.picklist(invitableRoles),
  inviterName: text(),
  /** For an email invitation, the address it was sent to. */
  email: v.nullable(text()),
  expiresAt: text(),
  status: v.picklist(inviteStatuses),
  /** Why it can no longer be accepted, in words; null while it can. */
  reason: v.nullable(text()),
});
export type InvitePreview = v.InferOutput<typeof invitePreviewSchema>;

export const previewWorkspaceInvite = defineEndpoint({
  resource: 'workspace-invite',
  operation: 'preview-workspace-invite',
  method: 'GET',
  auth: 'public',
  summary:
    'What an invitation is (workspace, role, who sent it) and whether it can still be accepted. An unknown token is a 404; lookups are rate limited.',
  query: v.strictObject({ token: inviteTokenSchema }),
  output: v.object({ invite: invitePreviewSchema }),
});

export const acceptWorkspaceInvite = defineEndpoint({
  resource: 'workspace-invite',
  operation: 'accept-workspace-invite',
  method: 'POST',
  auth: 'user',
  summary:
    "Joins the invitation's workspace with its role. Expired, revoked or used up: 410; already a member: 409; the plan's member limit: 422; an email invitation for another address: 403.",
  query: v.strictObject({}),
  body: v.strictObject({ token: inviteTokenSchema }),
  output: v.object({
    workspaceId: text(),
    workspaceName: text(),
    role: v.picklist(invitableRoles),
  }),
});

const membersOutput = v.object({ members: v.array(workspaceMemberSchema) });

export const changeMemberRole = withRoles(
  defineEndpoint({
    resource: 'workspace-member',
    operation: 'change-member-role',
    method: 'POST',
    auth: 'user',
    summary:
      "Makes a member an admin or an admin a member. The owner's role changes only by transfer-ownership.",
    query: workspaceQuery,
    body: v.strictObject({
      userId: idSchema,
      role: v.picklist(workspaceRoles, 'Choose a role: admin or member'),
    }),
    output: membersOutput,
  }),
  MANAGERS,
);

export const removeMember = withRoles(
  defineEndpoint({
    resource: 'workspace-member',
    operation: 'remove-member',
    method: 'POST',
    auth: 'user',
    summary:
      "Removes someone from the workspace (never the owner); their devices drop the workspace's data on their next pull.",
    query: workspaceQuery,
    body: v.strictObject({ userId: idSchema }),
    output: membersOutput,
  }),
  MANAGERS,
);

export const leaveWorkspace = withRoles(
  defineEndpoint({
    resource: 'workspace-member',
    operation: 'leave-workspace',
    method: 'POST',
    auth: 'user',
    summary: 'Leaves the workspace. The owner hands ownership over first (422 until then).',
    query: workspaceQuery,
    output: v.object({ left: v.literal(true) }),
  }),
  EVERYONE,
);

export const transferOwnership = withRoles(
  defineEndpoint({
    resource: 'workspace-member',
    operation: 'transfer-ownership',
    method: 'POST',
    auth: 'user',
    summary: 'Makes another member the owner; the previous owner stays on as an admin.',
    query: workspaceQuery,
    body: v.strictObject({ userId: idSchema }),
    output: membersOutput,
  }),
  ['owner'],
);
