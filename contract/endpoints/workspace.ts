import * as v from 'valibot';
import { text } from '../text.ts';
import { defineEndpoint, emptyQuerySchema } from '../define-endpoint.ts';
import { idSchema } from '../entities/ids.ts';
import {
  updateWorkspaceSettingsInputSchema,
  workspaceMemberSchema,
  workspaceSchema,
} from '../entities/workspace.ts';

const workspaceQuery = v.strictObject({ workspaceId: idSchema });

export const getOwnedWorkspaceId = defineEndpoint({
  resource: 'workspace',
  operation: 'get-owned-workspace-id',
  method: 'GET',
  auth: 'user',
  summary:
    'The id of the workspace you own, or null before registration, and of every workspace you are a member of.',
  query: emptyQuerySchema,
  output: v.object({
    workspaceId: v.nullable(text()),
    /** Every workspace the caller is a member of (invitations, issue 17), the owned one included. */
    memberOf: v.optional(v.array(text())),
  }),
});

export const getWorkspaceMembers = defineEndpoint({
  resource: 'workspace',
  operation: 'get-workspace-members',
  method: 'GET',
  auth: 'user',
  summary: "A workspace's members; only for its members.",
  query: workspaceQuery,
  output: v.object({ members: v.array(workspaceMemberSchema) }),
});

export const getWorkspaceSettings = defineEndpoint({
  resource: 'workspace',
  operation: 'get-workspace-settings',
  method: 'GET',
  auth: 'user',
  summary: "A workspace's settings; only for its members.",
  query: workspaceQuery,
  output: v.object({ workspace: workspaceSchema }),
});

export const updateWorkspaceSettings = defineEndpoint({
  resource: 'workspace',
  operation: 'update-workspace-settings',
  method: 'PATCH',
  auth: 'user',
  summary: "Change a workspace's settings; owner or admin only.",
  query: workspaceQuery,
  body: updateWorkspaceSettingsInputSchema,
  output: v.object({ workspace: workspaceSchema }),
});
