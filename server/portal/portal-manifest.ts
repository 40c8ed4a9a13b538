/**
 * The web app manifest of one project's client portal, so a client who adds the portal to a
 * phone's home screen gets that project's page (not the members' dashboard the app's own
 * manifest starts at). The portal page points its `<link rel="manifest">` here.
 *
 * It names no project and reads nothing: anyone may ask for the manifest of any pair of ids, so
 * it must not tell whether they exist (the page behind start_url asks for the password).
 */
import { Hono } from 'hono';
import * as v from 'valibot';
import { APP_BACKGROUND_COLOR, APP_THEME_COLOR, appManifestIcons } from '#contract/app-icons.ts';
import { portalPath } from '#contract/endpoints/client-portal.ts';
import { idSchema } from '#contract/entities/ids.ts';
import type { AppEnv } from '../http/app-env.ts';
import { AppError, ErrorCode } from '../http/app-error.ts';

export function portalManifest(clientId: string, projectId: string) {
  const start = portalPath(clientId, projectId);
  return {
    // Distinct per project: a client of two projects installs two portals.
    id: start,
    name: 'Client portal',
    short_name: 'Portal',
    description: 'Your project: milestones, change requests and files, also offline.',
    start_url: start,
    scope: start,
    display: 'standalone',
    theme_color: APP_THEME_COLOR,
    background_color: APP_BACKGROUND_COLOR,
    icons: appManifestIcons,
  };
}

/** Mounted at /client: GET /client/{clientId}/project/{projectId}/manifest.webmanifest. */
export function createPortalManifestRoute() {
  const app = new Hono<AppEnv>();
  app.get('/:clientId/project/:projectId/manifest.webmanifest', (c) => {
    const clientId = v.safeParse(idSchema, c.req.param('clientId'));
    const projectId = v.safeParse(idSchema, c.req.param('projectId'));
    if (!clientId.success || !projectId.success) {
      throw new AppError(ErrorCode.VALIDATION_FAILED, 'This portal link is not valid.');
    }
    c.header('Content-Type', 'application/manifest+json; charset=utf-8');
    c.header('Cache-Control', 'public, max-age=86400');
    return c.body(JSON.stringify(portalManifest(clientId.output, projectId.output)));
  });
  return app;
}
