/**
 * The client's uploads in the portal (files to attach to a change request): the same tus route as
 * the members' (server/files/upload-route.ts), proved by the portal cookie instead of a bearer
 * token. A client uploads only into its session's project, only into PORTAL_UPLOAD_FOLDER, and
 * from the portal page only (the cross-site refusal every cookie call gets).
 */
import { PORTAL_UPLOAD_FOLDER } from '#contract/endpoints/client-portal.ts';
import type { Queryable } from '../db/database.ts';
import type { Uploader } from '../files/upload-route.ts';
import { AppError, ErrorCode } from '../http/app-error.ts';
import { refuseCrossSite, requirePortalSession } from './portal-request.ts';

export function portalUploads(db: Queryable, publicUrl: string) {
  return async (req: Request): Promise<Uploader> => {
    refuseCrossSite(req.method, req.headers, req.url, publicUrl);
    const portal = await requirePortalSession(db, req.headers.get('cookie'));
    const { rows } = await db.query<{ name: string }>('SELECT name FROM client WHERE id = $1', [
      portal.clientId,
    ]);
    return {
      // The client's, per project: a new session (after the 30 idle minutes) resumes its upload.
      owner: `portal:${portal.projectId}:${portal.clientId}`,
      actorId: portal.clientId,
      actorName: rows[0]?.name || 'The client',
      folder: PORTAL_UPLOAD_FOLDER,
      workspaceOf(_tx, projectId) {
        if (projectId !== portal.projectId) {
          return Promise.reject(
            new AppError(ErrorCode.FORBIDDEN, 'This portal session opens another project.'),
          );
        }
        return Promise.resolve(portal.workspaceId);
      },
    };
  };
}
