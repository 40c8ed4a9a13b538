/**
 * The client portal's calls (contract/endpoints/client-portal.ts). `authenticate` checks a
 * project's portal password and opens a session; every other call runs with the session the
 * dispatcher found from the cookie and reads only that session's project: an id, workspace id or
 * blob name of anything else is a 403, whatever exists behind it.
 *
 * Invariant: a wrong password, an unknown project and a project whose portal is off answer the
 * same 401 after the same work (a password verify, or its decoy), so nobody learns which
 * projects exist or have a portal.
 */
import {
  PORTAL_INVALID_PASSWORD,
  type PortalFile,
  type PortalProject,
} from '#contract/endpoints/client-portal.ts';
import { entityNamed } from '#contract/synced-entities.ts';
import type { FileVersion } from '#contract/entities/file.ts';
import type { PasswordHasher } from '../auth/password-hasher.ts';
import type { BlobStorage } from '../files/storage/blob-storage.ts';
import { AppError, ErrorCode } from '../http/app-error.ts';
import type { ResourceHandlers } from '../http/endpoint-handler.ts';
import type { RateLimiter, RateLimitRule } from '../http/rate-limiter.ts';
import type { NotificationStore } from '../realtime/notification-store.ts';
import {
  endPortalSession,
  openPortalSession,
  portalCookie,
  portalCookieToken,
  type PortalIdentity,
} from '../portal/portal-sessions.ts';
import {
  createClientPortalAnswerHandlers,
  notifyMembers,
  toPortalMilestone,
} from './client-portal-answers.ts';
import { entitySql } from './entity-sql.ts';
import { canShowInline } from './file.ts';
import { workspacePlan } from './plan-limits.ts';

export interface ClientPortalDeps {
  storage: BlobStorage;
  publicUrl: string;
  passwords: PasswordHasher;
}

/** Per address: a client mistypes a few times; a guesser tries thousands. */
export const portalPasswordRateLimit: RateLimitRule = {
  name: 'portal-password',
  max: 10,
  windowMs: 15 * 60_000,
};
/** Per project, whatever the address: guessing spread over many addresses. */
export const portalProjectRateLimit: RateLimitRule = {
  name: 'portal-password-project',
  max: 50,
  windowMs: 60 * 60_000,
};

const milestoneSql = entitySql(entityNamed('milestone'));

const NOT_SET_UP = 'The client portal is not set up on this server.';
const OTHER_PROJECT = 'This portal session opens another project.';

/** The session's own project, or a 403 naming nothing about the one asked for. */
function requireOwnProject(portal: PortalIdentity, projectId: string): void {
  if (projectId !== portal.projectId) throw new AppError(ErrorCode.FORBIDDEN, OTHER_PROJECT);
}

interface PortalRow {
  project_id: string;
  workspace_id: string;
  client_id: string;
  password_hash: string | null;
  enabled: boolean;
  first_today: boolean;
  project_name: string;
}

export function createClientPortalHandlers(
  deps: ClientPortalDeps | null,
  rateLimiter: RateLimiter,
  notifications: Pick<NotificationStore, 'createNotification'>,
): Omit<
  ResourceHandlers<'client-portal'>,
  | 'client-portal/get-invoices'
  | 'client-portal/pay-invoice'
  | 'client-portal/get-invoice-pdf'
  | 'client-portal/get-chat-messages'
  | 'client-portal/send-chat-message'
> {
  const need = (): ClientPortalDeps => {
    if (!deps) throw new AppError(ErrorCode.UNAVAILABLE, NOT_SET_UP);
    return deps;
  };

  return {
    ...createClientPortalAnswerHandlers(rateLimiter, notifications),

    async 'client-portal/authenticate'(ctx) {
      const { body, tx, clientIp } = ctx;
      const { passwords, publicUrl } = need();
      // Counted before the check, so a right guess after the limit is still refused.
      rateLimiter.consume(portalPasswordRateLimit, clientIp);
      rateLimiter.consume(portalProjectRateLimit, body.projectId);
      const { rows } = await tx.query<PortalRow>(
        `SELECT pp.project_id, pp.workspace_id, p.client_id, pp.password_hash, pp.enabled,
                p.name AS project_name,
                (pp.last_opened_at IS NULL OR (pp.last_opened_at AT TIME ZONE w.time_zone)::date
                   < (now() AT TIME ZONE w.time_zone)::date) AS first_today
         FROM project_portal pp
         JOIN project p ON p.id = pp.project_id
         JOIN workspace w ON w.id = pp.workspace_id
         WHERE pp.project_id = $1`,
        [body.projectId],
      );
      const portal = rows[0];
      const ok =
        portal?.enabled === true && portal.password_hash !== null
          ? await passwords.verify(portal.password_hash, body.password)
          : (await passwords.burn(body.password), false);
      if (!ok || !portal) {
        throw new AppError(ErrorCode.UNAUTHORIZED, `${PORTAL_INVALID_PASSWORD}.`, {
          details: [{ path: 'body.password', message: PORTAL_INVALID_PASSWORD }],
        });
      }
      const { token } = await openPortalSession(tx, {
        projectId: portal.project_id,
        clientId: portal.client_id,
        workspaceId: portal.workspace_id,
        ip: clientIp,
        userAgent: ctx.userAgent,
      });
      await tx.query('UPDATE project_portal SET last_opened_at = now() WHERE project_id = $1', [
        portal.project_id,
      ]);
      if (portal.first_today) {
        // The members hear of the client's first visit of their day, not of every reload.
        await notifyMembers(
          ctx,
          notifications,
          { workspaceId: portal.workspace_id, projectId: portal.project_id },
          {
            type: 'portal-opened',
            title: `Your client opened the portal of ${portal.project_name}`,
            link: `/projects/${portal.project_id}/${portal.client_id}`,
          },
        );
      }
      ctx.setResponseHeader('Set-Cookie', portalCookie(token, publicUrl.startsWith('https:')));
      return { authenticated: true as const };
    },

    async 'client-portal/sign-out'(ctx) {
      const { publicUrl } = need();
      const token = portalCookieToken(ctx.cookieHeader);
      if (token) await endPortalSession(ctx.tx, token);
      ctx.setResponseHeader('Set-Cookie', portalCookie(null, publicUrl.startsWith('https:')));
      return { signedOut: true as const };
    },

    async 'client-portal/get-client-project'({ query, portal, tx }) {
      requireOwnProject(portal, query.id);
      const { rows } = await tx.query<{
        id: string;
        client_id: string;
        workspace_id: string;
        client_name: string;
        name: string;
        description: string | null;
        status: PortalProject['status'];
        start_date: string | null;
        due_date: string | null;
        updated_at: Date;
      }>(
        `SELECT p.id, p.client_id, p.workspace_id, c.name AS client_name, p.name, p.description,
                p.status, p.start_date::text AS start_date, p.due_date::text AS due_date, p.updated_at
         FROM project p JOIN client c ON c.id = p.client_id
         WHERE p.id = $1 AND p.workspace_id = $2`,
        [portal.projectId, portal.workspaceId],
      );
      const row = rows[0];
      if (!row) throw new AppError(ErrorCode.FORBIDDEN, OTHER_PROJECT);
      return {
        project: {
          id: row.id,
          clientId: row.client_id,
          workspaceId: row.workspace_id,
          clientName: row.client_name,
          name: row.name,
          description: row.description,
          status: row.status,
          startDate: row.start_date,
          dueDate: row.due_date,
          updatedAt: row.updated_at.toISOString(),
        },
      };
    },

    async 'client-portal/get-project-milestones'({ query, portal, tx }) {
      requireOwnProject(portal, query.projectId);
      const { rows } = await tx.query<Record<string, unknown>>(
        `SELECT ${milestoneSql.select} FROM milestone
         WHERE project_id = $1 AND workspace_id = $2 AND visible_to_client
         ORDER BY position COLLATE "C", id`,
        [portal.projectId, portal.workspaceId],
      );
      return { milestones: rows.map((row) => toPortalMilestone(milestoneSql.toRow(row))) };
    },

    async 'client-portal/get-project-files'({ query, portal, tx }) {
      requireOwnProject(portal, query.projectId);
      const { rows } = await tx.query<{
        id: string;
        name: string;
        folder: string;
        size: string;
        type: string;
        blob_name: string;
        versions: FileVersion[];
        updated_at: Date;
      }>(
        `SELECT id, name, folder, size, type, blob_name, versions, updated_at
         FROM project_file
         WHERE project_id = $1 AND workspace_id = $2 AND visible_to_client
         ORDER BY folder, lower(name), id`,
        [portal.projectId, portal.workspaceId],
      );
      const files: PortalFile[] = rows.map((row) => ({
        id: row.id,
        name: row.name,
        folder: row.folder,
        size: Number(row.size),
        type: row.type,
        blobName: row.blob_name,
        version: row.versions.at(-1)?.number ?? 1,
        updatedAt: row.updated_at.toISOString(),
      }));
      return { files };
    },

    async 'client-portal/generate-sas-url'({ query, portal, tx }) {
      const { storage } = need();
      requireOwnProject(portal, query.projectId);
      // Only the latest version of a file the client can see: older versions and hidden files
      // are the members' business.
      const { rows } = await tx.query<{ name: string; type: string }>(
        `SELECT name, type FROM project_file
         WHERE project_id = $1 AND workspace_id = $2 AND visible_to_client AND blob_name = $3`,
        [portal.projectId, portal.workspaceId, query.blobName],
      );
      const file = rows[0];
      if (!file) {
        throw new AppError(ErrorCode.FORBIDDEN, 'This file is not shared in this portal.');
      }
      const expiresAt = new Date(Date.now() + query.expiryMinutes * 60_000);
      const contentType = file.type || 'application/octet-stream';
      const sasUrl = await storage.downloadUrl(query.blobName, {
        expiresAt,
        downloadFileName: query.downloadFileName ?? file.name,
        contentType,
        inline: query.inline === 'true' && canShowInline(contentType),
      });
      return { sasUrl, expiresAt: expiresAt.toISOString() };
    },

    async 'client-portal/get-workspace-settings'({ query, portal, tx }) {
      if (query.workspaceId !== portal.workspaceId) {
        throw new AppError(ErrorCode.FORBIDDEN, 'This portal session opens another workspace.');
      }
      const { rows } = await tx.query<{
        id: string;
        name: string;
        logo_url: string | null;
        brand_color: string | null;
        portal_welcome_text: string | null;
      }>(
        'SELECT id, name, logo_url, brand_color, portal_welcome_text FROM workspace WHERE id = $1',
        [portal.workspaceId],
      );
      const row = rows[0];
      if (!row) throw new AppError(ErrorCode.FORBIDDEN, OTHER_PROJECT);
      const { portalBranding } = (await workspacePlan(tx, row.id)).limits;
      // On Satchel's colours the workspace's own logo and colour stay out of the portal.
      const ownBrand = portalBranding !== 'satchel';
      return {
        workspace: {
          id: row.id,
          name: row.name,
          logoUrl: ownBrand ? row.logo_url : null,
          brandColor: ownBrand ? row.brand_color : null,
          welcomeText: row.portal_welcome_text,
          branding: portalBranding,
        },
      };
    },
  };
}
