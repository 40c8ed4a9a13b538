/** All operation handlers; the type makes a missing or extra handler a compile error. */
import type { PublicConfig } from '#contract/endpoints/config.ts';
import type { AccountAuth } from '../auth/account-auth.ts';
import { createCalendarFeedHandlers } from '../calendar/calendar-feed.ts';
import type { EndpointHandlers } from '../http/endpoint-handler.ts';
import { createRateLimiter, type RateLimiter } from '../http/rate-limiter.ts';
import type { Mailer } from '../mail/mailer.ts';
import { createDetachedRealtime, type Realtime } from '../realtime/create-realtime.ts';
import { createAccountHandlers } from './account.ts';
import { createClientPortalHandlers } from './client-portal.ts';
import { createConfigHandlers } from './config.ts';
import { createContactHandlers } from './contact.ts';
import { createFeedbackHandlers } from './feedback.ts';
import { createFileHandlers, type FileHandlerDeps } from './file.ts';
import { createFileShareLinkHandlers } from './file-share-link.ts';
import { createInvoiceHandlers } from './invoice.ts';
import { createPortalInvoiceHandlers } from './portal-invoices.ts';
import { createNotificationHandlers } from './notifications.ts';
import { createPortalAccessHandlers } from './portal-access.ts';
import { createPortalChatHandlers } from './portal-chat.ts';
import { createProjectActivityHandlers } from './project-activity.ts';
import { createSyncedEntityHandlers } from './synced-entity-handlers.ts';
import type { PublishRows } from './entity-handlers.ts';
import { createRegisterHandlers } from './register.ts';
import { createSignalrHandlers } from './signalr.ts';
import { createSyncHandlers } from './sync.ts';
import { createSubscriptionHandlers } from './subscription.ts';
import type { StripeGateway } from '../stripe/stripe-gateway.ts';
import { createSystemHandlers } from './system.ts';
import { createUserHandlers } from './user.ts';
import { createWorkspaceHandlers } from './workspace.ts';
import { createMembersHandlers } from './members.ts';
import { createWorkspaceInviteHandlers } from './workspace-invite.ts';

export interface EndpointHandlerDeps {
  version: string;
  mailer: Mailer;
  contactEmail: string;
  publicConfig: () => PublicConfig;
  /** Shared by the public forms; one in-memory limiter per process unless a test passes its own. */
  rateLimiter?: RateLimiter;
  /** The notification hub and store; absent: a detached hub (API-only tests, pushes go nowhere). */
  realtime?: Pick<Realtime, 'hub' | 'notifications' | 'publisher'>;
  /** File storage; absent (harnesses of other parts), file links answer 503. */
  files?: FileHandlerDeps;
  /** Stripe (server/stripe/); absent or null: payments are not configured. */
  stripe?: StripeGateway | null;
  /** The embedded auth service's account part (delete-account); absent: hosted, not offered. */
  accounts?: AccountAuth | null;
}

export function createEndpointHandlers(deps: EndpointHandlerDeps): EndpointHandlers {
  const rateLimiter = deps.rateLimiter ?? createRateLimiter();
  const realtime = deps.realtime ?? createDetachedRealtime();
  // Live entities' committed rows go to the workspace's open apps (hub event rowsChanged).
  const publishRows: PublishRows = (change) =>
    realtime.publisher.publishRowsChanged(
      change as Parameters<typeof realtime.publisher.publishRowsChanged>[0],
    );
  return {
    ...createConfigHandlers(deps),
    ...createContactHandlers({ ...deps, rateLimiter }),
    ...createFeedbackHandlers({ rateLimiter }),
    ...createSystemHandlers(deps),
    ...createUserHandlers(),
    ...createAccountHandlers({
      accounts: deps.accounts ?? null,
      mailer: deps.mailer,
      rateLimiter,
      storage: deps.files?.storage ?? null,
      publisher: realtime.publisher,
    }),
    ...createRegisterHandlers(),
    ...createWorkspaceHandlers(),
    ...createWorkspaceInviteHandlers({
      mailer: deps.mailer,
      publicUrl: deps.files?.publicUrl ?? 'http://localhost:8080',
      rateLimiter,
    }),
    ...createMembersHandlers(),
    ...createSyncedEntityHandlers({
      mailer: deps.mailer,
      publicUrl: deps.files?.publicUrl ?? null,
      notifications: realtime.notifications,
      publishRows,
    }),
    ...createInvoiceHandlers({ mailer: deps.mailer, publicUrl: deps.files?.publicUrl ?? null }),
    ...createProjectActivityHandlers(),
    ...createFileHandlers(deps.files ?? null),
    ...createFileShareLinkHandlers(deps.files ?? null, rateLimiter),
    ...createPortalAccessHandlers(deps.files ?? null),
    ...createPortalChatHandlers({
      rateLimiter,
      notifications: realtime.notifications,
      publishRows,
    }),
    ...createClientPortalHandlers(deps.files ?? null, rateLimiter, realtime.notifications),
    ...createPortalInvoiceHandlers({
      gateway: deps.stripe ?? null,
      publicUrl: deps.files?.publicUrl ?? '',
    }),
    ...createSyncHandlers(),
    ...createNotificationHandlers(realtime),
    ...createSignalrHandlers(realtime),
    // The feed URL is absolute under PUBLIC_URL (a relative path without one).
    ...createCalendarFeedHandlers(deps.files?.publicUrl ?? ''),
    ...createSubscriptionHandlers({
      gateway: deps.stripe ?? null,
      publicUrl: deps.files?.publicUrl ?? 'http://localhost:8080',
    }),
  };
}
