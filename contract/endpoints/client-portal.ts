/**
 * The client portal (spec sections 2, 4, 7, 9): a client without an account opens one project
 * with the password a member set. `authenticate` answers `{authenticated: true}` and sets an
 * httpOnly, SameSite=Strict session cookie scoped to that project and its client; every other
 * portal call needs that cookie and only ever reads its own project. Members turn a project's
 * portal on and off and set its password through `update-portal-access` (resource `project`).
 *
 * What the portal answers is a view made for the client, never a member row: no creator ids, no
 * internal notes, no budget, and only the files a member left visible.
 */
import * as v from 'valibot';
import { defineEndpoint } from '../define-endpoint.ts';
import { idSchema } from '../entities/ids.ts';
import {
  changeRequestStatuses,
  MAX_CHANGE_REQUEST_ATTACHMENTS,
  MAX_CHANGE_REQUEST_CHARS,
} from '../entities/change-request.ts';
import { longTextSchema, titleSchema } from '../entities/fields.ts';
import { fileNameSchema } from '../entities/file.ts';
import { milestoneStatuses } from '../entities/milestone.ts';
import { portalBrandings } from '../entities/plan.ts';
import { dateSchema, projectStatuses } from '../entities/project.ts';
import { text } from '../text.ts';

export const MIN_PORTAL_PASSWORD_CHARS = 8;
export const MAX_PORTAL_PASSWORD_CHARS = 200;
/** A portal session ends after this long without a call (the same 30 minutes the page keeps). */
export const PORTAL_IDLE_MINUTES = 30;
/** ...and after this long whatever the activity: a shared phone does not stay signed in for ever. */
export const PORTAL_SESSION_MAX_HOURS = 12;
/** Download links the portal hands out: long enough for a slow phone, short enough to not leak. */
export const MAX_PORTAL_LINK_MINUTES = 1_440;
export const DEFAULT_PORTAL_LINK_MINUTES = 60;

/** Words of spec section 5 / 8: the page shows these, whatever the server said. */
export const PORTAL_INVALID_PASSWORD = 'Invalid password';
export const PORTAL_AUTH_FAILED = 'Authentication failed';

/**
 * Where the client's uploads go (tus, with the portal cookie, which only travels under
 * /api/client-portal): always into PORTAL_UPLOAD_FOLDER of the session's project.
 */
export const PORTAL_UPLOAD_PATH = '/api/client-portal/uploads';
export const PORTAL_UPLOAD_FOLDER = 'From client';

/** The portal page of a project: `/client/{clientId}/project/{projectId}`. */
export function portalPath(clientId: string, projectId: string): string {
  return `/client/${encodeURIComponent(clientId)}/project/${encodeURIComponent(projectId)}`;
}

/** The portal page's own web app manifest: installed, the portal opens at that project. */
export function portalManifestPath(clientId: string, projectId: string): string {
  return `${portalPath(clientId, projectId)}/manifest.webmanifest`;
}

const portalPasswordSchema = v.pipe(
  text('The password must be text'),
  v.minLength(
    MIN_PORTAL_PASSWORD_CHARS,
    `A portal password is at least ${MIN_PORTAL_PASSWORD_CHARS} characters`,
  ),
  v.maxLength(
    MAX_PORTAL_PASSWORD_CHARS,
    `A portal password is at most ${MAX_PORTAL_PASSWORD_CHARS} characters`,
  ),
);

// ---- Member side ------------------------------------------------------------------------------

export const portalAccessSchema = v.object({
  projectId: text(),
  clientId: text(),
  enabled: v.boolean(),
  /** A password is set (it is never answered). */
  hasPassword: v.boolean(),
  passwordSetAt: v.nullable(text()),
  /** The page to send the client: `<publicUrl>/client/{clientId}/project/{projectId}`. */
  url: text(),
  /** When the client last entered the password (null: never). */
  lastOpenedAt: v.nullable(text()),
  /** Portal sessions open now. */
  openSessions: v.number(),
  /** The client reads and writes in the project's chat from the portal. */
  chatEnabled: v.boolean(),
});
export type PortalAccess = v.InferOutput<typeof portalAccessSchema>;

export const getPortalAccess = defineEndpoint({
  resource: 'project',
  operation: 'get-portal-access',
  method: 'GET',
  auth: 'user',
  summary:
    "A project's client portal: on or off, whether a password is set, its link, last opened.",
  query: v.strictObject({ id: idSchema }),
  output: v.object({ portal: portalAccessSchema }),
});

export const updatePortalAccess = defineEndpoint({
  resource: 'project',
  operation: 'update-portal-access',
  method: 'PATCH',
  auth: 'user',
  summary:
    'Turns the portal on or off and sets or rotates its password (argon2id, never answered). A new password or turning it off ends every open portal session of the project.',
  query: v.strictObject({ id: idSchema }),
  body: v.strictObject({
    enabled: v.boolean('enabled is true or false'),
    /** Omitted or null: keep the current password. */
    password: v.optional(v.nullable(portalPasswordSchema)),
    /** Omitted: keep the current setting. */
    chatEnabled: v.optional(v.boolean('chatEnabled is true or false')),
  }),
  output: v.object({ portal: portalAccessSchema }),
});

// ---- The portal ------------------------------------------------------------------------------

export const authenticatePortal = defineEndpoint({
  resource: 'client-portal',
  operation: 'authenticate',
  method: 'POST',
  auth: 'public',
  summary:
    'Opens a portal session for one project: sets an httpOnly SameSite=Strict cookie. A wrong password, an unknown project and a project whose portal is off all answer the same 401; attempts are rate limited per address and per project.',
  query: v.strictObject({}),
  body: v.strictObject({
    projectId: idSchema,
    password: v.pipe(
      text('The password must be text'),
      v.nonEmpty('Enter the password'),
      v.maxLength(MAX_PORTAL_PASSWORD_CHARS, 'The password is too long'),
    ),
  }),
  output: v.object({ authenticated: v.literal(true) }),
});

export const signOutPortal = defineEndpoint({
  resource: 'client-portal',
  operation: 'sign-out',
  method: 'POST',
  auth: 'public',
  summary: 'Ends the portal session of this browser (if any) and clears its cookie.',
  query: v.strictObject({}),
  body: v.optional(v.strictObject({})),
  output: v.object({ signedOut: v.literal(true) }),
});

export const portalProjectSchema = v.object({
  id: text(),
  clientId: text(),
  workspaceId: text(),
  clientName: text(),
  name: text(),
  description: v.nullable(text()),
  status: v.picklist(projectStatuses),
  startDate: v.nullable(text()),
  dueDate: v.nullable(text()),
  updatedAt: text(),
});
export type PortalProject = v.InferOutput<typeof portalProjectSchema>;

export const portalMilestoneSchema = v.object({
  id: text(),
  title: text(),
  description: v.nullable(text()),
  dueDate: v.nullable(text()),
  amount: v.nullable(v.number()),
  currency: text(),
  status: v.picklist(milestoneStatuses),
  position: text(),
  signOff: v.nullable(
    v.object({
      decision: v.picklist(['approved', 'changes_requested']),
      by: text(),
      at: text(),
      comment: v.nullable(text()),
    }),
  ),
});
export type PortalMilestone = v.InferOutput<typeof portalMilestoneSchema>;

export const portalFileSchema = v.object({
  id: text(),
  name: text(),
  folder: text(),
  size: v.number(),
  type: text(),
  /** The latest version's blob: what `generate-sas-url` takes. */
  blobName: text(),
  version: v.number(),
  updatedAt: text(),
});
export type PortalFile = v.InferOutput<typeof portalFileSchema>;

export const portalWorkspaceSchema = v.object({
  id: text(),
  name: text(),
  /** null when the workspace has none or its plan shows the portal in Satchel's colours. */
  logoUrl: v.nullable(text()),
  brandColor: v.nullable(text()),
  welcomeText: v.nullable(text()),
  branding: v.picklist(portalBrandings),
});
export type PortalWorkspace = v.InferOutput<typeof portalWorkspaceSchema>;

export const getClientProject = defineEndpoint({
  resource: 'client-portal',
  operation: 'get-client-project',
  method: 'GET',
  auth: 'portal',
  summary: "The portal session's project as the client sees it.",
  query: v.strictObject({ id: idSchema }),
  output: v.object({ project: portalProjectSchema }),
});

export const getPortalMilestones = defineEndpoint({
  resource: 'client-portal',
  operation: 'get-project-milestones',
  method: 'GET',
  auth: 'portal',
  summary: "The portal session's project's milestones, in the project's order.",
  query: v.strictObject({ projectId: idSchema }),
  output: v.object({ milestones: v.array(portalMilestoneSchema) }),
});

export const getPortalFiles = defineEndpoint({
  resource: 'client-portal',
  operation: 'get-project-files',
  method: 'GET',
  auth: 'portal',
  summary: "The files of the portal session's project that members left visible to the client.",
  query: v.strictObject({ projectId: idSchema }),
  output: v.object({ files: v.array(portalFileSchema) }),
});

export const generateSasUrl = defineEndpoint({
  resource: 'client-portal',
  operation: 'generate-sas-url',
  method: 'GET',
  auth: 'portal',
  summary:
    "A signed, expiring download link for a visible file of the session's project (any other blob is a 403).",
  query: v.strictObject({
    blobName: v.pipe(
      text('blobName must be text'),
      v.nonEmpty('blobName is required'),
      v.maxLength(300),
    ),
    projectId: idSchema,
    expiryMinutes: v.optional(
      v.pipe(
        text(),
        v.regex(/^\d{1,6}$/, 'expiryMinutes is a whole number of minutes'),
        v.transform(Number),
        v.minValue(1, 'expiryMinutes is at least 1'),
        v.maxValue(MAX_PORTAL_LINK_MINUTES, 'A portal download link lasts at most a day'),
      ),
      String(DEFAULT_PORTAL_LINK_MINUTES),
    ),
    downloadFileName: v.optional(fileNameSchema),
    /** 'true': shown in the browser when the type is safe to show (images, PDF, plain text). */
    inline: v.optional(v.picklist(['true', 'false'])),
  }),
  output: v.object({ sasUrl: text(), expiresAt: text() }),
});

export const getPortalWorkspaceSettings = defineEndpoint({
  resource: 'client-portal',
  operation: 'get-workspace-settings',
  method: 'GET',
  auth: 'portal',
  summary:
    "The branding of the session's project's workspace (name, logo, accent colour, welcome text), as its plan allows.",
  query: v.strictObject({ workspaceId: idSchema }),
  output: v.object({ workspace: portalWorkspaceSchema }),
});

// ---- The client's answers: milestone sign-off and change requests ------------------------------

const commentSchema = (label: string) =>
  v.pipe(
    text(`${label} must be text`),
    v.trim(),
    v.maxLength(5000, `${label} must be at most 5,000 characters`),
  );

export const signOffMilestone = defineEndpoint({
  resource: 'client-portal',
  operation: 'sign-off-milestone',
  method: 'POST',
  auth: 'portal',
  summary:
    "The client approves a milestone of the session's project, or asks for changes with a comment. The record keeps the client's name, when, and the session's address; members are notified.",
  query: v.strictObject({}),
  body: v.pipe(
    v.strictObject({
      projectId: idSchema,
      milestoneId: idSchema,
      decision: v.picklist(['approved', 'changes_requested'], 'Approve or ask for changes'),
      comment: v.optional(v.nullable(commentSchema('The comment'))),
    }),
    v.forward(
      v.check(
        (body) => body.decision !== 'changes_requested' || (body.comment ?? '') !== '',
        'Say what should change',
      ),
      ['comment'],
    ),
  ),
  output: v.object({ milestone: portalMilestoneSchema }),
});

export const portalChangeRequestSchema = v.object({
  id: text(),
  title: text(),
  description: v.nullable(text()),
  desiredDate: v.nullable(text()),
  status: v.picklist(changeRequestStatuses),
  costImpact: v.nullable(v.number()),
  currency: text(),
  scheduleImpactDays: v.nullable(v.number()),
  /** The member's answer (with the quote or the decision). */
  answer: v.nullable(text()),
  clientDecision: v.nullable(
    v.object({
      decision: v.picklist(['accepted', 'declined']),
      at: text(),
      comment: v.nullable(text()),
    }),
  ),
  /** Asked for by the client in the portal, or written down by a member. */
  source: v.picklist(['member', 'portal']),
  /** Files attached to the request that the client can still see (ids of the portal's files). */
  attachmentFileIds: v.array(text()),
  createdAt: text(),
  updatedAt: text(),
});
export type PortalChangeRequest = v.InferOutput<typeof portalChangeRequestSchema>;

export const getPortalChangeRequests = defineEndpoint({
  resource: 'client-portal',
  operation: 'get-change-requests',
  method: 'GET',
  auth: 'portal',
  summary: "The change requests of the session's project, newest first, with the members' answers.",
  query: v.strictObject({ projectId: idSchema }),
  output: v.object({ changeRequests: v.array(portalChangeRequestSchema) }),
});

export const submitChangeRequest = defineEndpoint({
  resource: 'client-portal',
  operation: 'create-change-request',
  method: 'POST',
  auth: 'portal',
  summary:
    "The client asks for a change to the session's project. The id is the page's own, so a request queued offline and sent twice is stored once; members are notified.",
  query: v.strictObject({}),
  body: v.strictObject({
    id: idSchema,
    projectId: idSchema,
    title: titleSchema,
    description: v.optional(longTextSchema('Description', MAX_CHANGE_REQUEST_CHARS)),
    desiredDate: v.optional(dateSchema),
    /** Files uploaded first to PORTAL_UPLOAD_PATH (their ids, from the upload's answer). */
    attachmentFileIds: v.optional(
      v.pipe(
        v.array(idSchema),
        v.maxLength(MAX_CHANGE_REQUEST_ATTACHMENTS, 'Attach at most 10 files'),
      ),
    ),
  }),
  output: v.object({ changeRequest: portalChangeRequestSchema }),
});

export const decideChangeRequest = defineEndpoint({
  resource: 'client-portal',
  operation: 'decide-change-request',
  method: 'POST',
  auth: 'portal',
  summary:
    "The client accepts or declines a quoted change of the session's project (only while a quote waits for an answer); members are notified.",
  query: v.strictObject({}),
  body: v.strictObject({
    id: idSchema,
    projectId: idSchema,
    decision: v.picklist(['accepted', 'declined'], 'Accept or decline the quote'),
    comment: v.optional(v.nullable(commentSchema('The comment'))),
  }),
  output: v.object({ changeRequest: portalChangeRequestSchema }),
});
