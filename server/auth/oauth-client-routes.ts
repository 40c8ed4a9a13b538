/**
 * GoTrue's OAuth client registry admin routes (/admin/oauth/clients, supabase-js's
 * `auth.admin.oauth`): list with paging, register, get, update, delete, regenerate the secret.
 * They sit behind the admin check of admin-routes.ts (a service-role token, before any body or id
 * is read).
 *
 * Only the registry is offered. The endpoints through which a registered client would sign a user
 * in (/oauth/authorize, /oauth/token, dynamic registration, consent, /user/oauth/grants, the
 * authorization-server metadata) answer as GoTrue does with its OAuth server off: 404
 * feature_disabled "OAuth server is disabled" (ARCHITECTURE.md, Identity: not offered).
 */
import type { Hono } from 'hono';
import type { Queryable } from '../db/database.ts';
import type { AppEnv } from '../http/app-env.ts';
import { pageParam } from './admin-routes.ts';
import { clientIp, inTransaction, readBody, type AuthContext } from './auth-context.ts';
import { notFound, validationFailed } from './auth-error.ts';
import { audit } from './auth-store.ts';
import {
  checkRegistration,
  checkUpdate,
  clientJson,
  deleteClient,
  findClient,
  insertClient,
  listClients,
  regenerateSecret,
  registerClientSchema,
  updateClient,
  updateClientSchema,
  type OAuthClientRow,
} from './oauth-clients.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** GoTrue lists every client; without paging parameters we answer with up to this many. */
const MAX_PER_PAGE = 1000;

export function registerOAuthClientRoutes(app: Hono<AppEnv>, ctx: AuthContext): void {
  app.get('/admin/oauth/clients', async (c) => {
    const page = pageParam(c.req.query('page'), 1);
    const perPage = Math.min(pageParam(c.req.query('per_page'), MAX_PER_PAGE), MAX_PER_PAGE);
    const { clients, total } = await listClients(ctx.db, {
      limit: perPage,
      offset: (page - 1) * perPage,
    });
    // As /admin/users (GoTrue addPaginationHeaders); auth-js reads both headers.
    const lastPage = Math.max(1, Math.ceil(total / perPage));
    const link = (n: number) => `</admin/oauth/clients?page=${n}&per_page=${perPage}>`;
    c.header(
      'Link',
      [
        ...(lastPage > page ? [`${link(page + 1)}; rel="next"`] : []),
        `${link(lastPage)}; rel="last"`,
      ].join(', '),
    );
    c.header('X-Total-Count', String(total));
    // GoTrue omits an empty `clients`; an empty array is what supabase-js's type promises.
    return c.json({ clients: clients.map((client) => clientJson(client)) });
  });

  app.post('/admin/oauth/clients', async (c) => {
    const client = checkRegistration(await readBody(c, registerClientSchema));
    const created = await inTransaction(ctx, c, async (tx) => {
      const now = ctx.now();
      const made = await insertClient(tx, client, now);
      await audit(tx, {
        userId: null,
        action: 'oauth_client_registered',
        ip: clientIp(c),
        detail: { by: 'admin', client_id: made.row.id },
        now,
      });
      return made;
    });
    // The secret is shown here and when regenerated, never again.
    return c.json(clientJson(created.row, created.secret), 201);
  });

  app.get('/admin/oauth/clients/:clientId', async (c) => {
    const client = await loadClient(ctx.db, c.req.param('clientId'));
    return c.json(clientJson(client));
  });

  app.put('/admin/oauth/clients/:clientId', async (c) => {
    const clientId = c.req.param('clientId');
    await loadClient(ctx.db, clientId);
    const body = await readBody(c, updateClientSchema);
    const updated = await inTransaction(ctx, c, async (tx) => {
      const now = ctx.now();
      const client = await loadClient(tx, clientId, { forUpdate: true });
      const row = await updateClient(tx, client.id, checkUpdate(body, client), now);
      await audit(tx, {
        userId: null,
        action: 'oauth_client_updated',
        ip: clientIp(c),
        detail: { by: 'admin', client_id: client.id },
        now,
      });
      return row;
    });
    return c.json(clientJson(updated));
  });

  app.delete('/admin/oauth/clients/:clientId', async (c) => {
    const clientId = c.req.param('clientId');
    await loadClient(ctx.db, clientId);
    await inTransaction(ctx, c, async (tx) => {
      const now = ctx.now();
      const client = await loadClient(tx, clientId, { forUpdate: true });
      await deleteClient(tx, client.id);
      await audit(tx, {
        userId: null,
        action: 'oauth_client_deleted',
        ip: clientIp(c),
        detail: { by: 'admin', client_id: client.id },
        now,
      });
    });
    return c.body(null, 204);
  });

  app.post('/admin/oauth/clients/:clientId/regenerate_secret', async (c) => {
    const clientId = c.req.param('clientId');
    await loadClient(ctx.db, clientId);
    const regenerated = await inTransaction(ctx, c, async (tx) => {
      const now = ctx.now();
      const client = await loadClient(tx, clientId, { forUpdate: true });
      if (client.client_type !== 'confidential') {
        throw validationFailed('Cannot regenerate secret for public client');
      }
      const result = await regenerateSecret(tx, client.id, now);
      await audit(tx, {
        userId: null,
        action: 'oauth_client_secret_regenerated',
        ip: clientIp(c),
        detail: { by: 'admin', client_id: client.id },
        now,
      });
      return result;
    });
    return c.json(clientJson(regenerated.row, regenerated.secret));
  });

  // The authorization server itself is not offered: GoTrue's answer with it turned off.
  const oauthServerDisabled = () => {
    throw notFound('feature_disabled', 'OAuth server is disabled');
  };
  app.all('/oauth', oauthServerDisabled);
  app.all('/oauth/*', oauthServerDisabled);
  app.all('/user/oauth/grants', oauthServerDisabled);
  app.get('/.well-known/oauth-authorization-server', oauthServerDisabled);
}

/** GoTrue LoadOAuthServerClient: 400 for an id that is not a UUID, 404 for an unknown one. */
async function loadClient(
  tx: Queryable,
  clientId: string,
  options: { forUpdate?: boolean } = {},
): Promise<OAuthClientRow> {
  if (!UUID.test(clientId)) throw validationFailed('invalid client_id format');
  const client = await findClient(tx, clientId, options);
  if (!client) throw notFound('oauth_client_not_found', 'OAuth client not found');
  return client;
}
