/**
 * A project's client portal, member side (`get-portal-access`, `update-portal-access`). The
 * password is hashed with argon2id and never answered. A new password or turning the portal off
 * ends every open portal session of the project in the same transaction, so the next portal call
 * of any client browser is a 401.
 */
import {
  PORTAL_IDLE_MINUTES,
  portalPath,
  type PortalAccess,
} from '#contract/endpoints/client-portal.ts';
import type { PasswordHasher } from '../auth/password-hasher.ts';
import type { Queryable } from '../db/database.ts';
import { AppError, ErrorCode } from '../http/app-error.ts';
import { writeEventActivity } from './entity-handlers.ts';
import type { EndpointHandler } from '../http/endpoint-handler.ts';
import type { RegisteredEndpoint } from '#contract/endpoint-registry.ts';
import { endProjectPortalSessions } from '../portal/portal-sessions.ts';
import { requireProjectMember } from './workspace-access.ts';

export interface PortalAccessDeps {
  publicUrl: string;
  passwords: PasswordHasher;
}

const NO_SUCH_PROJECT = 'No such project.';
const NOT_SET_UP = 'The client portal is not set up on this server.';

type Op<Name extends string> = Extract<
  RegisteredEndpoint,
  { resource: 'project'; operation: Name }
>;

interface ProjectRow {
  id: string;
  workspace_id: string;
  client_id: string;
}

async function memberProject(
  tx: Queryable,
  projectId: string,
  userId: string,
): Promise<ProjectRow> {
  const { workspaceId, clientId } = await requireProjectMember(
    tx,
    projectId,
    userId,
    NO_SUCH_PROJECT,
  );
  return { id: projectId, workspace_id: workspaceId, client_id: clientId };
}

async function readAccess(
  tx: Queryable,
  project: ProjectRow,
  publicUrl: string,
): Promise<PortalAccess> {
  const { rows } = await tx.query<{
    enabled: boolean;
    has_password: boolean;
    password_set_at: Date | null;
    last_opened_at: Date | null;
    open_sessions: number;
    chat_enabled: boolean;
  }>(
    `SELECT pp.enabled, pp.password_hash IS NOT NULL AS has_password, pp.password_set_at,
            pp.last_opened_at, pp.chat_enabled,
            (SELECT count(*)::int FROM portal_session s
             WHERE s.project_id = pp.project_id AND s.expires_at > now()
               AND s.last_seen_at > now() - make_interval(mins => $2::int)) AS open_sessions
     FROM project_portal pp WHERE pp.project_id = $1`,
    [project.id, PORTAL_IDLE_MINUTES],
  );
  const row = rows[0];
  return {
    projectId: project.id,
    clientId: project.client_id,
    enabled: row?.enabled ?? false,
    hasPassword: row?.has_password ?? false,
    passwordSetAt: row?.password_set_at?.toISOString() ?? null,
    url: `${publicUrl.replace(/\/+$/, '')}${portalPath(project.client_id, project.id)}`,
    lastOpenedAt: row?.last_opened_at?.toISOString() ?? null,
    openSessions: row?.open_sessions ?? 0,
    chatEnabled: row?.chat_enabled ?? false,
  };
}

export function createPortalAccessHandlers(deps: PortalAccessDeps | null): {
  'project/get-portal-access': EndpointHandler<Op<'get-portal-access'>>;
  'project/update-portal-access': EndpointHandler<Op<'update-portal-access'>>;
} {
  const need = (): PortalAccessDeps => {
    if (!deps) throw new AppError(ErrorCode.UNAVAILABLE, NOT_SET_UP);
    return deps;
  };

  return {
    async 'project/get-portal-access'({ query, identity, tx }) {
      const { publicUrl } = need();
      const project = await memberProject(tx, query.id, identity.userId);
      return { portal: await readAccess(tx, project, publicUrl) };
    },

    async 'project/update-portal-access'({ query, body, identity, tx }) {
      const { publicUrl, passwords } = need();
      const project = await memberProject(tx, query.id, identity.userId);
      // Serialises two members changing the same portal.
      const { rows } = await tx.query<{
        enabled: boolean;
        password_hash: string | null;
        chat_enabled: boolean;
      }>(
        'SELECT enabled, password_hash, chat_enabled FROM project_portal WHERE project_id = $1 FOR UPDATE',
        [project.id],
      );
      const current = rows[0];
      const newPassword = body.password ?? null;
      if (body.enabled && newPassword === null && !current?.password_hash) {
        throw new AppError(ErrorCode.BUSINESS_RULE, 'Set a password to turn the portal on.', {
          details: [{ path: 'body.password', message: 'Set a password to turn the portal on' }],
        });
      }
      const hash = newPassword === null ? null : await passwords.hash(newPassword);
      const chatWas = current?.chat_enabled ?? false;
      const chatEnabled = body.chatEnabled ?? chatWas;
      await tx.query(
        `INSERT INTO project_portal (project_id, workspace_id, enabled, password_hash, password_set_at, updated_by, chat_enabled)
         VALUES ($1, $2, $3, $4, CASE WHEN $5 THEN now() END, $6, $7)
         ON CONFLICT (project_id) DO UPDATE SET
           enabled = EXCLUDED.enabled,
           password_hash = EXCLUDED.password_hash,
           password_set_at = COALESCE(EXCLUDED.password_set_at, project_portal.password_set_at),
           chat_enabled = EXCLUDED.chat_enabled,
           updated_by = EXCLUDED.updated_by,
           updated_at = now()`,
        [
          project.id,
          project.workspace_id,
          body.enabled,
          hash ?? current?.password_hash ?? null,
          hash !== null,
          identity.userId,
          chatEnabled,
        ],
      );
      // A new password or a closed portal: every browser that had the old one is out at once.
      if (hash !== null || !body.enabled) await endProjectPortalSessions(tx, project.id);
      const was = current?.enabled ?? false;
      if (was !== body.enabled || hash !== null || chatWas !== chatEnabled) {
        const { rows: named } = await tx.query<{ name: string }>(
          'SELECT name FROM project WHERE id = $1',
          [project.id],
        );
        await writeEventActivity(tx, {
          workspaceId: project.workspace_id,
          projectId: project.id,
          actorId: identity.userId,
          entity: 'project',
          entityId: project.id,
          label: named[0]?.name ?? '',
          op: 'portal',
          changes: {
            ...(was !== body.enabled ? { enabled: { from: was, to: body.enabled } } : {}),
            ...(chatWas !== chatEnabled ? { chat: { from: chatWas, to: chatEnabled } } : {}),
            // Whether one was set before, never the password or its hash.
            ...(hash !== null
              ? { password: { from: Boolean(current?.password_hash), to: true } }
              : {}),
          },
        });
      }
      return { portal: await readAccess(tx, project, publicUrl) };
    },
  };
}
